/**
 * What the run is about: the repository, the pull request (from the event or an input), whether it
 * comes from a fork, and links back to the run. Read from the runner's environment and event file.
 */
import { InputError } from '../runtime/inputs.js';
import { currentCiContext } from '../../../review/node/ciContext.js';

export interface RepositoryRef {
  owner: string;
  repo: string;
}

export function currentRepository(): RepositoryRef {
  const full = process.env.GITHUB_REPOSITORY?.trim();
  const match = full ? /^([^/\s]+)\/([^/\s]+)$/.exec(full) : null;
  if (!match) {
    throw new InputError('GITHUB_REPOSITORY', `is ${full ? `not owner/name (${JSON.stringify(full)})` : 'not set'}`, 'The runner sets it; outside GitHub Actions set GITHUB_REPOSITORY=owner/name.');
  }
  return { owner: match[1] as string, repo: match[2] as string };
}

export function repositoryName(ref: RepositoryRef): string {
  return `${ref.owner}/${ref.repo}`;
}

/** The pull request to report on: the `pull-request` input when given, else the triggering one. */
export function pullRequestNumber(override: number | undefined): number | undefined {
  return override ?? currentCiContext().event.pullRequest;
}

/**
 * A pull request from a fork: GitHub gives it no secrets and a read-only GITHUB_TOKEN
 * (Dependabot's pull requests are treated the same way).
 */
export function isForkPullRequest(): boolean {
  return currentCiContext().withoutSecrets === 'fork';
}

export function isDependabotRun(): boolean {
  return currentCiContext().withoutSecrets === 'dependabot';
}

/** The link to this workflow run, when the runner says where it is. */
export function runUrl(): string | undefined {
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const repository = process.env.GITHUB_REPOSITORY;
  const runId = process.env.GITHUB_RUN_ID;
  return repository && runId ? `${server}/${repository}/actions/runs/${runId}` : undefined;
}

/** The workspace: where the repository is checked out. */
export function workspaceRoot(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

/**
 * The repository the run is in, the commit it checked out (GITHUB_SHA) and where it is browsed: the
 * report's evidence links, whatever compliance.yml calls the document set.
 */
export function currentRevision(): { runRepository?: string; commit?: string; serverUrl?: string } {
  const { repository, head, serverUrl } = currentCiContext();
  return {
    ...(repository ? { runRepository: repository } : {}),
    ...(head ? { commit: head } : {}),
    ...(serverUrl ? { serverUrl } : {}),
  };
}
