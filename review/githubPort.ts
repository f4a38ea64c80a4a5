/**
 * Applying a gap-issue plan (gapIssues.ts) to GitHub, once for every surface: the CLI's
 * `gaps --github` and the gap-issues / review actions hand it the one adapter
 * (review/node/octokit.ts). The port is the few issue calls the loop needs; pure, no I/O here.
 *
 * Port contract: a call that got an HTTP answer other than 2xx rejects with an error carrying
 * `status` (Octokit's RequestError does); a call whose answer was lost (connection reset, timeout)
 * rejects without one. Creates are never retried by the adapter: after a lost answer or a 5xx the
 * label is listed again here, and an issue carrying the gap's marker counts as created, so nothing
 * is ever opened twice.
 */
import { markerKey, type ExistingIssue, type GapIssueDraft, type GapIssuePlan } from './gapIssues.js';

export interface GitHubIssueRef {
  number: number;
  url: string;
}

export type ListedIssue = ExistingIssue & { url: string };

export interface GitHubIssuesPort {
  /** Every issue (pull requests left out) carrying `label`, open and closed, all pages. */
  listIssues(label: string): Promise<ListedIssue[]>;
  /** Creates the label; resolves when it already exists (GitHub's 422 `already_exists`). */
  createLabel(name: string): Promise<void>;
  /** One attempt, never retried (see the contract above). */
  createIssue(draft: Pick<GapIssueDraft, 'title' | 'body' | 'labels' | 'assignees'>): Promise<GitHubIssueRef>;
  updateIssue(number: number, patch: { title?: string; body?: string; state?: 'open' | 'closed'; stateReason?: 'completed' | 'not_planned' }): Promise<GitHubIssueRef>;
  comment(number: number, body: string): Promise<void>;
}

interface GapIssueRef {
  key: string;
  number: number;
  url: string;
}

/** A write GitHub refused for lack of permission: every later write would be refused too. */
interface RefusedGitHubWrite {
  /** What could not be done, e.g. `open the issue for nist-csf-2/PR.AA-01`. */
  what: string;
  status: number;
  /** GitHub's message, first line. */
  message: string;
  permission: 'issues: write';
  error: unknown;
}

export interface AppliedGapIssues {
  created: GapIssueRef[];
  updated: GapIssueRef[];
  reopened: GapIssueRef[];
  closed: GapIssueRef[];
  unchanged: Array<{ key: string; number: number }>;
  deferred: string[];
  /** Writes that failed for another reason than permission: reported, the rest went on. */
  failed: Array<{ key: string; message: string }>;
  /** Set when GitHub refused a write: nothing further was attempted. */
  refused: RefusedGitHubWrite | undefined;
}

const LABEL_PERMISSION = 'issues: write' as const;

interface HttpError {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

function asHttpError(error: unknown): HttpError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, message } = error as { status?: unknown; message?: unknown };
  return typeof status === 'number' && typeof message === 'string' ? (error as HttpError) : undefined;
}

export function gitHubStatus(error: unknown): number | undefined {
  return asHttpError(error)?.status;
}

/** A write refused for lack of permission (403 that is not a rate limit, or 404). */
export function isRefusedGitHubWrite(error: unknown): boolean {
  const http = asHttpError(error);
  if (!http) return false;
  if (http.status === 404) return true;
  if (http.status !== 403) return false;
  const remaining = http.response?.headers?.['x-ratelimit-remaining'];
  return String(remaining) !== '0' && !/rate limit/i.test(http.message);
}

/** GitHub's message, first line, without Octokit's documentation link: `403 Resource not accessible by integration`. */
export function describeGitHubError(error: unknown): string {
  const http = asHttpError(error);
  const raw = http?.message ?? (error instanceof Error ? error.message : String(error));
  const message = (raw.split('\n')[0] ?? '').replace(/\s+-\s+https:\/\/docs\.github\.com\S*$/, '').trim();
  return http ? `${http.status} ${message}` : message;
}

/** No answer, or a server fault: the write may have landed. */
function mayHaveLanded(error: unknown): boolean {
  const status = gitHubStatus(error);
  return status === undefined || status >= 500;
}

interface ApplyGapIssuesOptions {
  /** The label existing gap issues are found by (settings.labels[0]). */
  label: string;
  /** One line per write carried out, for progress output. */
  onProgress?: (line: string) => void;
  /** A write that failed for another reason than permission (the run goes on). */
  onFailure?: (what: string, message: string) => void;
}

export async function applyGapIssuePlan(github: GitHubIssuesPort, plan: GapIssuePlan, options: ApplyGapIssuesOptions): Promise<AppliedGapIssues> {
  const applied: AppliedGapIssues = {
    created: [], updated: [], reopened: [], closed: [],
    unchanged: plan.unchanged.map(({ key, number }) => ({ key, number })),
    deferred: plan.deferred.map((draft) => draft.key),
    failed: [],
    refused: undefined,
  };
  if (plan.create.length + plan.update.length + plan.close.length === 0) return applied;

  // Every write goes through here: a refusal stops the run (all later writes would be refused too).
  const attempt = async (key: string, what: string, write: () => Promise<void>): Promise<void> => {
    if (applied.refused) return;
    try {
      await write();
    } catch (error) {
      if (isRefusedGitHubWrite(error)) {
        applied.refused = { what, status: gitHubStatus(error) as number, message: describeGitHubError(error), permission: LABEL_PERMISSION, error };
        return;
      }
      const message = describeGitHubError(error);
      options.onFailure?.(what, message);
      applied.failed.push({ key, message });
    }
  };

  const labels = [...new Set([...plan.create, ...plan.update].flatMap((draft) => draft.labels))];
  await attempt('', 'create the gap labels', async () => {
    for (const name of labels) await github.createLabel(name);
  });

  const create = async (draft: GapIssueDraft) => {
    let ref: GitHubIssueRef;
    try {
      ref = await github.createIssue(draft);
    } catch (error) {
      if (!mayHaveLanded(error)) throw error;
      const landed = (await github.listIssues(options.label)).find((issue) => markerKey(issue.body) === draft.key);
      ref = landed ? { number: landed.number, url: landed.url } : await github.createIssue(draft);
    }
    applied.created.push({ key: draft.key, ...ref });
    options.onProgress?.(`created #${ref.number} ${draft.title}`);
  };
  for (const draft of plan.create) await attempt(draft.key, `open the issue for ${draft.key}`, () => create(draft));

  for (const update of plan.update) {
    await attempt(update.key, `update issue #${update.number}`, async () => {
      const ref = await github.updateIssue(update.number, { title: update.title, body: update.body, ...(update.reopen ? { state: 'open' as const } : {}) });
      (update.reopen ? applied.reopened : applied.updated).push({ key: update.key, ...ref });
      options.onProgress?.(`${update.reopen ? 'reopened' : 'updated'} #${ref.number}`);
    });
  }

  for (const close of plan.close) {
    await attempt(close.key, `close issue #${close.number}`, async () => {
      await github.comment(close.number, close.comment);
      const ref = await github.updateIssue(close.number, { state: 'closed', stateReason: close.stateReason });
      applied.closed.push({ key: close.key, ...ref });
      options.onProgress?.(`closed #${ref.number}`);
    });
  }
  return applied;
}
