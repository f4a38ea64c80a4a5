/**
 * What a run may change, decided by the event that started it, for every surface (actions, CLI in
 * CI, n8n, MCP). The library and the gap issues mirror the default branch; a pull request (from a
 * fork or not) and a merge-queue run carry unmerged text, so they write neither, comment only on
 * their own pull request, and are judged by the default branch's gate configuration.
 */
import { ReviewError } from './errors.js';

/** `other`: no CI event (a terminal, n8n, an MCP client): the user asked for each write directly. */
type EventKind = 'push' | 'pull_request' | 'merge_group' | 'schedule' | 'manual' | 'other';

/** What a forge calls a change under review: the word every sentence of a run uses. */
export type ChangeRequestWord = 'pull request' | 'merge request';

export interface ReviewEvent {
  kind: EventKind;
  /** The pull request the run belongs to (pull_request events); on GitLab its merge request's IID. */
  pullRequest?: number | undefined;
  /** Set where the forge's word is not "pull request" (GitLab's merge requests). */
  changeRequest?: 'merge request' | undefined;
}

export interface EventPolicy {
  event: ReviewEvent;
  /** Sync (ingest, refresh, delete) may run. */
  mayWriteLibrary: boolean;
  /** Gap issues may be opened, updated, reopened or closed. */
  mayWriteIssues: boolean;
  /** Thresholds, fail-on, waivers and frameworks come from the default branch's compliance.yml. */
  gateFromBaseBranch: boolean;
  /** Why writes are withheld, for notices and refusals; undefined when nothing is. */
  withheld: string | undefined;
  /** "pull request", or "merge request" on GitLab: the word the run's sentences use. */
  changeRequest: ChangeRequestWord;
}

const UNMERGED = new Set<EventKind>(['pull_request', 'merge_group']);

/** GitHub Actions' GITHUB_EVENT_NAME values, by the kind of run they start. */
const GITHUB_EVENTS = new Map<string, EventKind>([
  ['pull_request', 'pull_request'],
  ['pull_request_target', 'pull_request'],
  ['pull_request_review', 'pull_request'],
  ['pull_request_review_comment', 'pull_request'],
  ['merge_group', 'merge_group'],
  ['push', 'push'],
  ['schedule', 'schedule'],
  ['workflow_dispatch', 'manual'],
  ['repository_dispatch', 'manual'],
]);

/** GitLab CI's CI_PIPELINE_SOURCE values: a merge request pipeline carries unmerged text as a pull request does. */
const GITLAB_PIPELINE_SOURCES = new Map<string, EventKind>([
  ['merge_request_event', 'pull_request'],
  ['external_pull_request_event', 'pull_request'],
  ['push', 'push'],
  ['schedule', 'schedule'],
  ['web', 'manual'],
  ['api', 'manual'],
  ['trigger', 'manual'],
  ['pipeline', 'manual'],
  ['chat', 'manual'],
]);

function eventOf(kinds: ReadonlyMap<string, EventKind>, name: string | undefined, pullRequest: number | undefined): ReviewEvent {
  const kind = kinds.get(name?.trim() ?? '') ?? 'other';
  return kind === 'pull_request' ? { kind, pullRequest } : { kind };
}

/** The event of a GitHub Actions run from GITHUB_EVENT_NAME (and the payload's pull request number). */
export function gitHubEvent(eventName: string | undefined, pullRequest?: number): ReviewEvent {
  return eventOf(GITHUB_EVENTS, eventName, pullRequest);
}

/**
 * The event of a GitLab CI pipeline from CI_PIPELINE_SOURCE (and CI_MERGE_REQUEST_IID): held to the
 * same rules as the GitHub event of its kind.
 */
export function gitLabEvent(pipelineSource: string | undefined, mergeRequest?: number): ReviewEvent {
  return { ...eventOf(GITLAB_PIPELINE_SOURCES, pipelineSource, mergeRequest), changeRequest: 'merge request' };
}

export function eventPolicy(event: ReviewEvent): EventPolicy {
  const unmerged = UNMERGED.has(event.kind);
  const changeRequest = event.changeRequest ?? 'pull request';
  const what = event.kind === 'merge_group' ? 'a merge-queue run' : `a ${changeRequest}`;
  return {
    event,
    mayWriteLibrary: !unmerged,
    mayWriteIssues: !unmerged,
    gateFromBaseBranch: unmerged,
    withheld: unmerged
      ? `${what} carries unmerged text: the library and the gap issues mirror the default branch, so it writes neither (its only write is its own ${changeRequest}'s comment)`
      : undefined,
    changeRequest,
  };
}

/** Throws when the event forbids a library write: `what` names the step, `hint` what to run instead. */
export function assertMayWriteLibrary(policy: EventPolicy, what: string, hint: string): void {
  if (policy.mayWriteLibrary) return;
  throw new ReviewError('event_forbids_write', `${what} writes the library, which mirrors the default branch: ${policy.withheld} (two open ${policy.changeRequest}s would otherwise overwrite each other's versions)`, hint);
}

/**
 * The pull request a run may comment on. In a pull request only its own: a `requested` other
 * number is refused (the returned `refused` says why); elsewhere the requested one, if any.
 */
export function commentTarget(policy: EventPolicy, requested: number | undefined): { pullRequest: number | undefined; refused: string | undefined } {
  const own = policy.event.pullRequest;
  if (policy.event.kind === 'merge_group') {
    return { pullRequest: undefined, refused: requested === undefined ? undefined : `a merge-queue run comments on no pull request (pull-request ${requested} ignored)` };
  }
  if (policy.event.kind !== 'pull_request') return { pullRequest: requested, refused: undefined };
  if (requested !== undefined && own !== undefined && requested !== own) {
    return { pullRequest: own, refused: `a pull request run comments only on its own pull request #${own} (pull-request ${requested} ignored)` };
  }
  return { pullRequest: own ?? requested, refused: undefined };
}

/** The pull request part of a GitHub webhook payload that tells a fork apart. */
export interface PullRequestHeads {
  head?: { repo?: { full_name?: string; fork?: boolean } | null };
  base?: { repo?: { full_name?: string } };
}

/**
 * A pull request from a fork (or from a deleted one): GitHub gives its runs no secrets and a
 * read-only token. `repository`: the base repository when the payload does not name it.
 */
export function isForkPullRequestPayload(pull: PullRequestHeads | undefined, repository: string | undefined): boolean {
  if (!pull?.head) return false;
  const head = pull.head.repo;
  if (head === null || head === undefined) return true;
  const base = pull.base?.repo?.full_name ?? repository;
  return head.fork === true || (head.full_name !== undefined && base !== undefined && head.full_name.toLowerCase() !== base.toLowerCase());
}

/**
 * Why a gating run without secrets is not evaluated, for every surface: a fork's (or Dependabot's)
 * pull request must not turn green on nothing, and no sandbox stands in for the service.
 * `step` names the check (`compliance map`), `who` the runs without secrets.
 */
export function notEvaluatedReason(step: string, who: string): string {
  return `${step}: not evaluated, so not passed. GitHub does not pass secrets to ${who}, so this check cannot map the change. A maintainer must read the change and push it to a branch of this repository (the check runs there with the key); merging without that merges compliance documents nothing evaluated.`;
}
