/**
 * Where a run is, read once for the CLI and the actions alike: the forge whose CI runs it, the event
 * that started it (as review/events.ts classifies it), the change request it belongs to (number,
 * fork), the repository, and the commits a gated run compares (the base its gate is read from, the
 * head it evaluates). Pure: the caller gives the environment and the event payload (GitHub's
 * GITHUB_EVENT_PATH file, parsed). What a run may do on its event is eventPolicy's decision; no
 * surface looks at an event name.
 */
import type { ReviewEvent } from './events.js';

type Env = Readonly<Record<string, string | undefined>>;

type Forge = 'github' | 'gitlab';

/** The commit a gated run's gate and comparison come from: a commit id the event names, or a branch to resolve in the clone. */
type BaseCommit = { commit: string } | { branch: string };

export interface CiContext {
  /** The forge whose CI runs this; undefined outside GitHub Actions and GitLab CI. */
  forge: Forge | undefined;
  /** Any CI: GitHub Actions, GitLab CI, or another that sets CI=true. */
  ci: boolean;
  event: ReviewEvent;
  /** owner/name (GitHub) or group/…/project (GitLab). */
  repository: string | undefined;
  /** Where the repository is browsed, for evidence links. */
  serverUrl: string | undefined;
  /** Why the forge gives this run no secrets: a change request from a fork, or Dependabot's. */
  withoutSecrets: 'fork' | 'dependabot' | undefined;
  /** The base a gated run (events.ts: gateFromBaseBranch) reads its gate from; undefined when the event names none. */
  base: BaseCommit | undefined;
  /** The commit the run checked out (GITHUB_SHA, CI_COMMIT_SHA). */
  head: string | undefined;
  defaultBranch: string | undefined;
}

/** The fields of a GitHub webhook payload the context reads; everything is optional (payloads differ per event). */
interface GitHubPayload {
  ref?: unknown;
  repository?: { full_name?: unknown; default_branch?: unknown } | null;
  pull_request?: PullRequestPayload | null;
  merge_group?: { base_sha?: unknown; base_ref?: unknown } | null;
  issue?: { number?: unknown; pull_request?: unknown } | null;
}

interface PullRequestPayload {
  number?: unknown;
  head?: { repo?: { full_name?: unknown; fork?: unknown } | null } | null;
  base?: { sha?: unknown; repo?: { full_name?: unknown } | null } | null;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** A GitHub repository as owner/name (what evidence links and fork checks compare), else undefined. */
const ownerName = (value: unknown): string | undefined => {
  const name = text(value);
  return name && /^[^/\s]+\/[^/\s]+$/.test(name) ? name : undefined;
};
const positive = (value: unknown): number | undefined => {
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number > 0 ? number : undefined;
};
const COMMIT = /^[0-9a-f]{40,64}$/i;
const commitOf = (value: unknown): string | undefined => {
  const id = text(value);
  return id && COMMIT.test(id) ? id.toLowerCase() : undefined;
};
const branchOf = (ref: string | undefined) => (ref?.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref);

/**
 * GitHub events by what they start. Schedules and repository dispatches always run on the default
 * branch; a push or a workflow dispatch only counts as the default branch's when it names it.
 * Everything else (issue_comment, workflow_run, release, …) is `unlisted`: deny-by-default.
 */
const GITHUB_PULL_REQUEST_EVENTS = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

/** A pull request from a fork (or a deleted one): GitHub gives its runs no secrets and a read-only token. */
export function isForkPullRequestPayload(pull: PullRequestPayload | null | undefined, repository: string | undefined): boolean {
  if (!pull?.head) return false;
  const head = pull.head.repo;
  if (head === null || head === undefined) return true;
  const headName = text(head.full_name);
  const base = text(pull.base?.repo?.full_name) ?? repository;
  return head.fork === true || (headName !== undefined && base !== undefined && headName.toLowerCase() !== base.toLowerCase());
}

function gitHubContext(env: Env, payload: GitHubPayload): CiContext {
  const name = text(env.GITHUB_EVENT_NAME);
  const repository = ownerName(env.GITHUB_REPOSITORY) ?? ownerName(payload.repository?.full_name);
  const defaultBranch = text(payload.repository?.default_branch);
  const branch = branchOf(text(payload.ref) ?? text(env.GITHUB_REF)) ?? text(env.GITHUB_REF_NAME);
  const onDefault = defaultBranch !== undefined && branch === defaultBranch;
  const pull = payload.pull_request ?? undefined;
  const common = { forge: 'github' as const, ci: true, repository, serverUrl: text(env.GITHUB_SERVER_URL), head: commitOf(env.GITHUB_SHA), defaultBranch };
  const dependabot = env.GITHUB_ACTOR === 'dependabot[bot]' ? ('dependabot' as const) : undefined;
  const unlisted = (): CiContext => ({
    ...common,
    event: { kind: 'unlisted', name, pullRequest: positive(pull?.number) ?? (payload.issue?.pull_request ? positive(payload.issue.number) : undefined) },
    withoutSecrets: dependabot,
    base: defaultBranch ? { branch: defaultBranch } : undefined,
  });
  if (name && GITHUB_PULL_REQUEST_EVENTS.has(name)) {
    const base = commitOf(pull?.base?.sha);
    return {
      ...common,
      event: { kind: 'pull_request', name, pullRequest: positive(pull?.number) },
      withoutSecrets: isForkPullRequestPayload(pull, repository) ? 'fork' : dependabot,
      base: base ? { commit: base } : undefined,
    };
  }
  if (name === 'merge_group') {
    const base = commitOf(payload.merge_group?.base_sha);
    const baseBranch = branchOf(text(payload.merge_group?.base_ref));
    return { ...common, event: { kind: 'merge_group', name }, withoutSecrets: dependabot, base: base ? { commit: base } : baseBranch ? { branch: baseBranch } : undefined };
  }
  if (name === 'schedule' || name === 'repository_dispatch') return { ...common, event: { kind: name === 'schedule' ? 'schedule' : 'manual', name }, withoutSecrets: dependabot, base: undefined };
  if ((name === 'push' || name === 'workflow_dispatch') && onDefault) return { ...common, event: { kind: name === 'push' ? 'push' : 'manual', name }, withoutSecrets: dependabot, base: undefined };
  return unlisted();
}

/** GitLab CI's pipeline sources that run the default branch's own text when they run on it. */
const GITLAB_DEFAULT_BRANCH_SOURCES = new Map<string, ReviewEvent['kind']>([
  ['push', 'push'],
  ['schedule', 'schedule'],
  ['web', 'manual'],
  ['api', 'manual'],
  ['trigger', 'manual'],
  ['pipeline', 'manual'],
  ['chat', 'manual'],
]);

function gitLabContext(env: Env): CiContext {
  const name = text(env.CI_PIPELINE_SOURCE);
  const defaultBranch = text(env.CI_DEFAULT_BRANCH);
  const common = {
    forge: 'gitlab' as const,
    ci: true,
    repository: text(env.CI_PROJECT_PATH),
    serverUrl: text(env.CI_SERVER_URL),
    head: commitOf(env.CI_COMMIT_SHA),
    defaultBranch,
  };
  if (name === 'merge_request_event' || name === 'external_pull_request_event') {
    // The target branch as it stands (merged-results pipelines name its commit), else its diff base.
    const target = commitOf(env.CI_MERGE_REQUEST_TARGET_BRANCH_SHA);
    const targetBranch = text(env.CI_MERGE_REQUEST_TARGET_BRANCH_NAME);
    const diffBase = commitOf(env.CI_MERGE_REQUEST_DIFF_BASE_SHA);
    const base: BaseCommit | undefined = target ? { commit: target } : targetBranch ? { branch: targetBranch } : diffBase ? { commit: diffBase } : undefined;
    const sourceProject = text(env.CI_MERGE_REQUEST_SOURCE_PROJECT_ID);
    const targetProject = text(env.CI_MERGE_REQUEST_PROJECT_ID);
    return {
      ...common,
      event: { kind: 'pull_request', name, pullRequest: positive(env.CI_MERGE_REQUEST_IID), changeRequest: 'merge request' },
      withoutSecrets: sourceProject !== undefined && targetProject !== undefined && sourceProject !== targetProject ? 'fork' : undefined,
      base,
    };
  }
  const kind = GITLAB_DEFAULT_BRANCH_SOURCES.get(name ?? '');
  const onDefault = defaultBranch !== undefined && text(env.CI_COMMIT_BRANCH) === defaultBranch;
  if (kind && onDefault) return { ...common, event: { kind, name, changeRequest: 'merge request' }, withoutSecrets: undefined, base: undefined };
  return { ...common, event: { kind: 'unlisted', name, changeRequest: 'merge request' }, withoutSecrets: undefined, base: defaultBranch ? { branch: defaultBranch } : undefined };
}

/**
 * The run's context from its environment and (GitHub) its event payload. Outside GitHub Actions
 * and GitLab CI the event is `other`: a person, n8n, an MCP client or another CI ran the command,
 * and asked for each write by running it.
 */
export function readCiContext(env: Env, payload: unknown): CiContext {
  if (env.GITHUB_ACTIONS === 'true') return gitHubContext(env, payload !== null && typeof payload === 'object' ? (payload as GitHubPayload) : {});
  if (env.GITLAB_CI === 'true') return gitLabContext(env);
  const ci = Boolean(env.CI && env.CI !== 'false' && env.CI !== '0');
  return { forge: undefined, ci, event: { kind: 'other' }, repository: undefined, serverUrl: undefined, withoutSecrets: undefined, base: undefined, head: undefined, defaultBranch: undefined };
}
