/**
 * What a run may change, decided by the event that started it, for every surface (actions, CLI in
 * CI, n8n, MCP). Deny-by-default: EVENT_RULES lists each kind of run and what it may write; an
 * event the table does not know (issue_comment, workflow_run, a push or dispatch on another branch
 * than the default, …) is `unlisted`, writes nothing beyond its own report and is judged like a
 * pull request. The library and the gap issues mirror the default branch; a pull request (from a
 * fork or not) and a merge-queue run carry unmerged text, so they write neither, comment only on
 * their own pull request, and are judged by the gate of their base commit.
 */
import { ReviewError } from './errors.js';

/**
 * - `push`, `schedule`, `manual` (workflow_dispatch, repository_dispatch, GitLab web/api/trigger):
 *   runs of the default branch's own text;
 * - `pull_request` (GitHub's pull request events, GitLab's merge request pipelines), `merge_group`:
 *   unmerged text;
 * - `other`: no CI event (a terminal, n8n, an MCP client, a CI that is neither GitHub's nor
 *   GitLab's): the user asked for each write directly;
 * - `unlisted`: any other event of GitHub Actions or GitLab CI.
 */
type EventKind = 'push' | 'pull_request' | 'merge_group' | 'schedule' | 'manual' | 'other' | 'unlisted';

/** What a forge calls a change under review: the word every sentence of a run uses. */
export type ChangeRequestWord = 'pull request' | 'merge request';

export interface ReviewEvent {
  kind: EventKind;
  /** The forge's own name of the event (GITHUB_EVENT_NAME, CI_PIPELINE_SOURCE), for messages. */
  name?: string | undefined;
  /** The pull request the run belongs to (pull_request events); on GitLab its merge request's IID. */
  pullRequest?: number | undefined;
  /** Set where the forge's word is not "pull request" (GitLab's merge requests). */
  changeRequest?: 'merge request' | undefined;
}

interface EventRule {
  /** Sync (ingest, refresh, delete) may run. */
  library: boolean;
  /** Gap issues may be opened, updated, reopened or closed. */
  issues: boolean;
  /** The pull request it may comment on: its own, the one asked for, or none. */
  comment: 'own' | 'asked' | 'none';
  /** The gate comes from the base commit's compliance.yml (in git), never from the text under review. */
  gateFromBase: boolean;
}

const DEFAULT_BRANCH: EventRule = { library: true, issues: true, comment: 'asked', gateFromBase: false };
const UNMERGED: EventRule = { library: false, issues: false, comment: 'own', gateFromBase: true };

/** The event table: every kind of run and what it may write. The user documentation says the same in words. */
const EVENT_RULES: Readonly<Record<EventKind, EventRule>> = {
  push: DEFAULT_BRANCH,
  schedule: DEFAULT_BRANCH,
  manual: DEFAULT_BRANCH,
  other: DEFAULT_BRANCH,
  pull_request: UNMERGED,
  merge_group: { ...UNMERGED, comment: 'none' },
  unlisted: { ...UNMERGED, comment: 'none' },
};

export interface EventPolicy {
  event: ReviewEvent;
  /** Sync (ingest, refresh, delete) may run. */
  mayWriteLibrary: boolean;
  /** Gap issues may be opened, updated, reopened or closed. */
  mayWriteIssues: boolean;
  /** Thresholds, fail-on, waivers and frameworks come from the base commit's compliance.yml. */
  gateFromBaseBranch: boolean;
  /** Why writes are withheld, for notices and refusals; undefined when nothing is. */
  withheld: string | undefined;
  /** "pull request", or "merge request" on GitLab: the word the run's sentences use. */
  changeRequest: ChangeRequestWord;
}

/** What the run is, in words, and why its text is not the default branch's. */
function describeRun(event: ReviewEvent, changeRequest: ChangeRequestWord): string {
  if (event.kind === 'merge_group') return 'a merge-queue run carries unmerged text';
  if (event.kind === 'unlisted') return `a run of an event the review loop does not list (${event.name ?? 'unnamed'}, or on a branch other than the default) may carry text that is not the default branch's`;
  return `a ${changeRequest} carries unmerged text`;
}

export function eventPolicy(event: ReviewEvent): EventPolicy {
  const rule = EVENT_RULES[event.kind];
  const changeRequest = event.changeRequest ?? 'pull request';
  const what = describeRun(event, changeRequest);
  const only = rule.comment === 'own' ? `its only write is its own ${changeRequest}'s comment` : 'it writes nothing beyond its own report';
  return {
    event,
    mayWriteLibrary: rule.library,
    mayWriteIssues: rule.issues,
    gateFromBaseBranch: rule.gateFromBase,
    withheld: rule.library && rule.issues
      ? undefined
      : `${what}: the library and the gap issues mirror the default branch, so it writes neither (${only})`,
    changeRequest,
  };
}

/** Throws when the event forbids a library write: `what` names the step, `hint` what to run instead. */
export function assertMayWriteLibrary(policy: EventPolicy, what: string, hint: string): void {
  if (policy.mayWriteLibrary) return;
  throw new ReviewError('event_forbids_write', `${what} writes the library, which mirrors the default branch: ${policy.withheld} (two open ${policy.changeRequest}s would otherwise overwrite each other's versions)`, hint);
}

/** The operations that write the library (what `call` could otherwise write on any event). */
const LIBRARY_WRITES: ReadonlySet<string> = new Set(['ingestLibraryDocument', 'refreshLibraryDocument', 'deleteLibraryDocument']);

/** Throws when calling `operationId` (the call action, `compliance call`) would write what the event may not. */
export function assertMayCall(policy: EventPolicy, operationId: string, hint: string): void {
  if (LIBRARY_WRITES.has(operationId)) assertMayWriteLibrary(policy, operationId, hint);
}

/**
 * The pull request a run may comment on. In a pull request only its own: a `requested` other
 * number is refused (the returned `refused` says why); a merge-queue or unlisted run none;
 * elsewhere the requested one, if any.
 */
export function commentTarget(policy: EventPolicy, requested: number | undefined): { pullRequest: number | undefined; refused: string | undefined } {
  const own = policy.event.pullRequest;
  const rule = EVENT_RULES[policy.event.kind].comment;
  if (rule === 'none') {
    const what = policy.event.kind === 'merge_group' ? 'a merge-queue run' : 'a run of an unlisted event';
    const asked = requested ?? own;
    return { pullRequest: undefined, refused: asked === undefined ? undefined : `${what} comments on no pull request (pull-request ${asked} ignored)` };
  }
  if (rule === 'asked') return { pullRequest: requested, refused: undefined };
  if (requested !== undefined && own !== undefined && requested !== own) {
    return { pullRequest: own, refused: `a pull request run comments only on its own pull request #${own} (pull-request ${requested} ignored)` };
  }
  return { pullRequest: own ?? requested, refused: undefined };
}

/**
 * Why a gating run without secrets is not evaluated, for every surface: a fork's (or Dependabot's)
 * pull request must not turn green on nothing, and no sandbox stands in for the service.
 * `step` names the check (`compliance map`), `who` the runs without secrets.
 */
export function notEvaluatedReason(step: string, who: string, forge: 'GitHub' | 'GitLab' = 'GitHub'): string {
  return `${step}: not evaluated, so not passed. ${forge} does not pass secrets to ${who}, so this check cannot map the change. A maintainer must read the change and push it to a branch of this repository (the check runs there with the key); merging without that merges compliance documents nothing evaluated.`;
}
