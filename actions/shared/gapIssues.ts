/**
 * actions/gap-issues: one GitHub issue per gap of a report written by map or review. Issues are
 * found again by their hidden marker (listing the gap label, never the search API), updated only
 * when their text changed, reopened when a gap is back, closed as completed when it is resolved,
 * and at most `max-new` are opened per run. It never calls the compliance service.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import {
  configSchema,
  planGapIssues,
  tableCell,
  type GapIssuePlan,
  type GapIssueSettings,
  type ReviewReport,
} from '../../review/index.js';
import { readConfigFile, readReportFile } from '../../review/node/index.js';
import { currentRepository, workspaceRoot } from './github/context.js';
import { applyGapIssuePlan, listGapIssues, type AppliedGapIssues } from './github/gapIssues.js';
import { createGitHub } from './github/octokit.js';
import { GITHUB_TOKEN_INPUT } from './github/token.js';
import { warnRefused } from './github/permissions.js';
import { DEFAULT_REPORT_DIR } from './map.js';
import { configExists, configPathInput } from './repo.js';
import { booleanInput, InputError, listInput, numberInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { appendSummary } from './runtime/summary.js';

/** The report input, through the one reader (review/node/report.ts); relative to the workspace. */
async function readReport(root: string, path: string): Promise<ReviewReport> {
  const file = await readReportFile(path, { role: 'report', root, hint: 'Run the map (or review) action first in the same job; its report-json output is the path to pass.' });
  return file.report as ReviewReport;
}

/** compliance.yml's gapIssues settings (defaults without a config file), then the inputs. */
async function readGapIssueSettings(root: string): Promise<GapIssueSettings> {
  const settings = (await configExists(root))
    ? (await readConfigFile(root, configPathInput())).gapIssues
    : configSchema.shape.gapIssues.parse({});
  const labels = listInput('labels');
  const maxNew = numberInput('max-new', { min: 0, integer: true });
  const close = textInput('close-resolved') === undefined ? undefined : booleanInput('close-resolved', true);
  return {
    ...settings,
    ...(labels.length ? { labels } : {}),
    ...(maxNew !== undefined ? { maxNewPerRun: maxNew } : {}),
    ...(close !== undefined ? { closeResolved: close } : {}),
  };
}

export function renderAppliedMarkdown(plan: GapIssuePlan, applied: AppliedGapIssues): string {
  const lines = ['## Gap issues', ''];
  const link = (ref: { number: number; url?: string }) => (ref.url ? `[#${ref.number}](${ref.url})` : `#${ref.number}`);
  lines.push(`Opened ${applied.created.length}, updated ${applied.updated.length}, reopened ${applied.reopened.length}, closed ${applied.closed.length}, unchanged ${applied.unchanged.length}${applied.deferred.length ? `, deferred ${applied.deferred.length} (max-new reached: a later run opens them)` : ''}.`, '');
  const rows = [
    ...applied.created.map((ref) => ['opened', ref]),
    ...applied.updated.map((ref) => ['updated', ref]),
    ...applied.reopened.map((ref) => ['reopened', ref]),
    ...applied.closed.map((ref) => ['closed (resolved)', ref]),
  ] as Array<[string, { key: string; number: number; url: string }]>;
  if (rows.length) {
    lines.push('| Issue | Gap | Action |', '|---|---|---|');
    for (const [action, ref] of rows) lines.push(`| ${link(ref)} | ${tableCell(decodeURIComponent(ref.key))} | ${action} |`);
    lines.push('');
  }
  if (applied.refused) lines.push(`> ⚠️ ${applied.refused.message}`, '');
  for (const failure of applied.failed) lines.push(`- ⚠️ ${tableCell(decodeURIComponent(failure.key))}: ${tableCell(failure.message)}`);
  const notDone = plan.create.length + plan.update.length + plan.close.length - (applied.created.length + applied.updated.length + applied.reopened.length + applied.closed.length);
  if (applied.refused && notDone > 0) lines.push(`${notDone} planned change${notDone === 1 ? ' was' : 's were'} not made.`, '');
  return `${lines.join('\n')}\n`;
}

export function setGapIssueOutputs(applied: AppliedGapIssues | undefined): void {
  core.setOutput('created', String(applied?.created.length ?? 0));
  core.setOutput('updated', String((applied?.updated.length ?? 0) + (applied?.reopened.length ?? 0)));
  core.setOutput('closed', String(applied?.closed.length ?? 0));
  core.setOutput('deferred', String(applied?.deferred.length ?? 0));
  core.setOutput(
    'issues',
    JSON.stringify([
      ...(applied?.created ?? []).map((ref) => ({ ...ref, action: 'created' })),
      ...(applied?.updated ?? []).map((ref) => ({ ...ref, action: 'updated' })),
      ...(applied?.reopened ?? []).map((ref) => ({ ...ref, action: 'reopened' })),
      ...(applied?.closed ?? []).map((ref) => ({ ...ref, action: 'closed' })),
      ...(applied?.unchanged ?? []).map((ref) => ({ ...ref, action: 'unchanged' })),
    ]),
  );
}

/**
 * Lists, plans and applies. A refused write is a warning (with the permission to add), never a
 * failure; the summary says what was and was not done.
 */
async function syncGapIssues(report: ReviewReport, settings: GapIssueSettings, githubToken: string): Promise<AppliedGapIssues> {
  const label = settings.labels[0];
  if (!label) throw new InputError('labels', 'must name at least one label: the first one finds the gap issues again');
  const github = await createGitHub(githubToken);
  const repository = currentRepository();
  const existing = await listGapIssues(github, repository, label);
  const plan = planGapIssues(report, existing, settings);
  log.info(`Gap issues: ${plan.create.length} to open, ${plan.update.length} to update, ${plan.close.length} to close, ${plan.unchanged.length} unchanged, ${plan.deferred.length} deferred.`);
  const applied = await applyGapIssuePlan(github, repository, plan, { label });
  if (applied.refused) warnRefused(applied.refused);
  appendSummary(renderAppliedMarkdown(plan, applied), { final: true });
  return applied;
}

export const gapIssuesAction: ActionDefinition = {
  name: 'gap-issues',
  needsApiKey: false,
  async run({ githubToken }) {
    const policy = currentEventPolicy();
    if (!policy.mayWriteIssues) {
      // Gap issues are repository-wide: unmerged text must not open, reopen or close them.
      const message = `Gap issues left alone: ${policy.withheld}. They are kept by the default branch's runs (push, schedule).`;
      log.notice(message, { title: 'No gap issues from a pull request' });
      appendSummary(`## Gap issues\n\n${message}\n`, { final: true });
      setGapIssueOutputs(undefined);
      return;
    }
    const root = workspaceRoot();
    const report = await readReport(root, textInput('report') ?? `${DEFAULT_REPORT_DIR}/report.json`);
    // A framework the report could not evaluate has no gaps to act on: its issues stay as they are.
    for (const entry of report.notEvaluated ?? []) log.notice(`${entry.framework} was not evaluated (${entry.code}): its gap issues are left alone.`, { title: 'Framework not evaluated' });
    const settings = await readGapIssueSettings(root);
    if (!githubToken) {
      throw new InputError(GITHUB_TOKEN_INPUT, 'is empty and GITHUB_TOKEN is not set', 'Leave github-token at its default (the workflow token) and grant `issues: write`.');
    }
    const applied = await syncGapIssues(report, settings, githubToken);
    setGapIssueOutputs(applied);
  },
};
