/**
 * Applying a gap-issue plan (review/gapIssues.ts) to GitHub: existing issues are found by listing
 * the gap label (all pages, open and closed; never the search API, whose index lags), labels are
 * created when missing, and each planned create, update, reopen and close is carried out. Creates
 * are never blindly retried: after a failure without an answer the label is listed again and an
 * issue carrying the gap's marker counts as created, so nothing is ever opened twice.
 */
import * as core from '@actions/core';
import { markerKey, type ExistingIssue, type GapIssueDraft, type GapIssuePlan } from '../../../review/index.js';
import type { RepositoryRef } from './context.js';
import type { GitHub } from './octokit.js';
import { describeGitHubError, httpStatus, isRefusedWrite, RefusedWrite } from './permissions.js';

const PERMISSION = 'issues: write' as const;
const LABEL_COLOR = 'd93f0b';

export interface GapIssueRef {
  key: string;
  number: number;
  url: string;
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
  refused: RefusedWrite | undefined;
}

export type ListedIssue = ExistingIssue & { url: string };

/** Every issue (not pull request) carrying `label`, open and closed. */
export async function listGapIssues(github: GitHub, repository: RepositoryRef, label: string): Promise<ListedIssue[]> {
  const items = await github.paginate(github.rest.issues.listForRepo, { ...repository, labels: label, state: 'all', per_page: 100 });
  return items
    .filter((item) => !item.pull_request)
    .map((item) => ({
      number: item.number,
      title: item.title,
      body: item.body,
      state: item.state === 'closed' ? ('closed' as const) : ('open' as const),
      labels: item.labels.map((entry) => (typeof entry === 'string' ? entry : { name: entry.name ?? null })),
      url: item.html_url,
    }));
}

async function ensureLabels(github: GitHub, repository: RepositoryRef, labels: readonly string[]): Promise<void> {
  for (const name of labels) {
    try {
      await github.rest.issues.getLabel({ ...repository, name });
    } catch (error) {
      if (httpStatus(error) !== 404) throw error;
      try {
        await github.rest.issues.createLabel({ ...repository, name, color: LABEL_COLOR, description: 'Opened by the compliance review loop' });
      } catch (createError) {
        // Another run created it meanwhile.
        if (httpStatus(createError) !== 422) throw createError;
      }
    }
  }
}

function mayHaveLanded(error: unknown): boolean {
  const status = httpStatus(error);
  return status === undefined || status >= 500;
}

export async function applyGapIssuePlan(
  github: GitHub,
  repository: RepositoryRef,
  plan: GapIssuePlan,
  options: { label: string },
): Promise<AppliedGapIssues> {
  const applied: AppliedGapIssues = {
    created: [], updated: [], reopened: [], closed: [],
    unchanged: plan.unchanged.map(({ key, number }) => ({ key, number })),
    deferred: plan.deferred.map((draft) => draft.key),
    failed: [],
    refused: undefined,
  };
  const hasWrites = plan.create.length + plan.update.length + plan.close.length > 0;
  if (!hasWrites) return applied;

  // Every write goes through here: a refusal stops the run (all later writes would be refused too).
  const attempt = async (key: string, what: string, write: () => Promise<void>): Promise<void> => {
    if (applied.refused) return;
    try {
      await write();
    } catch (error) {
      if (isRefusedWrite(error)) {
        applied.refused = new RefusedWrite(what, PERMISSION, error);
        return;
      }
      const message = describeGitHubError(error);
      core.warning(`Could not ${what}: ${message}`);
      applied.failed.push({ key, message });
    }
  };

  const labels = [...new Set([...plan.create, ...plan.update].flatMap((draft) => draft.labels))];
  await attempt('', 'create the gap labels', () => ensureLabels(github, repository, labels));

  const create = async (draft: GapIssueDraft) => {
    const send = () =>
      github.rest.issues.create({
        ...repository,
        title: draft.title,
        body: draft.body,
        labels: draft.labels,
        ...(draft.assignees.length ? { assignees: draft.assignees } : {}),
        request: { retries: 0 },
      });
    try {
      const { data } = await send();
      applied.created.push({ key: draft.key, number: data.number, url: data.html_url });
    } catch (error) {
      if (!mayHaveLanded(error)) throw error;
      const landed = (await listGapIssues(github, repository, options.label)).find((issue) => markerKey(issue.body) === draft.key);
      if (landed) {
        applied.created.push({ key: draft.key, number: landed.number, url: landed.url });
        return;
      }
      const { data } = await send();
      applied.created.push({ key: draft.key, number: data.number, url: data.html_url });
    }
  };

  for (const draft of plan.create) await attempt(draft.key, `open the issue for ${draft.key}`, () => create(draft));

  for (const update of plan.update) {
    await attempt(update.key, `update issue #${update.number}`, async () => {
      const { data } = await github.rest.issues.update({
        ...repository,
        issue_number: update.number,
        title: update.title,
        body: update.body,
        ...(update.reopen ? { state: 'open' as const } : {}),
      });
      (update.reopen ? applied.reopened : applied.updated).push({ key: update.key, number: data.number, url: data.html_url });
    });
  }

  for (const close of plan.close) {
    await attempt(close.key, `close issue #${close.number}`, async () => {
      await github.rest.issues.createComment({ ...repository, issue_number: close.number, body: close.comment });
      const { data } = await github.rest.issues.update({ ...repository, issue_number: close.number, state: 'closed', state_reason: close.stateReason });
      applied.closed.push({ key: close.key, number: data.number, url: data.html_url });
    });
  }
  return applied;
}
