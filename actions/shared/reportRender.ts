/**
 * The mapping report as the map and review actions show it: the job summary's report, its costs
 * table, and the sticky comment's body, each with the change against a baseline.
 */
import { formatTokens, renderReportMarkdown, tableCell, truncate, type BudgetCheck, type CostEstimate, type ReviewReport } from '../../review/index.js';
import { MAX_COMMENT_CHARS } from './github/stickyComment.js';
import type { Baseline } from './reportInputs.js';

const pct = (value: number) => `${Math.round(value * 10) / 10}%`;

/** "+2.5 points" / "−1 point" / "no change". */
function coverageChange(now: number, before: number): string {
  const delta = Math.round((now - before) * 10) / 10;
  if (delta === 0) return 'no change';
  const size = Math.abs(delta);
  return `${delta > 0 ? '+' : '−'}${size} point${size === 1 ? '' : 's'}`;
}

function baselineTable(report: ReviewReport, baseline: Baseline | undefined, against: string): string[] {
  if (!baseline) return [];
  const rows = report.frameworks.flatMap((result) => {
    const before = baseline.coverage.get(result.framework.key);
    return before === undefined ? [] : [`| ${tableCell(result.framework.name)} | ${pct(before)} | ${pct(result.effectiveCoverage)} | ${coverageChange(result.effectiveCoverage, before)} |`];
  });
  if (rows.length === 0) return [];
  return [`**Against ${against}:**`, '', '| Framework | Before | Now | Change |', '|---|---|---|---|', ...rows, ''];
}

interface CostSummary {
  mode: 'sandbox' | 'live';
  estimate: CostEstimate;
  budget: BudgetCheck;
  tokensSpent: number;
}

export function renderCosts(costs: CostSummary): string {
  const lines = ['## Costs', ''];
  if (costs.mode === 'sandbox') lines.push('Sandbox key: nothing is charged. Live prices for reference:', '');
  lines.push('| Operation | Count | Tokens each | Tokens |', '|---|---|---|---|');
  for (const line of costs.estimate.lines) {
    const each = line.tokensEach === undefined ? 'not listed' : line.tokensEach.toLocaleString('en-US');
    const total = line.tokensEach === undefined ? '—' : (line.count * line.tokensEach).toLocaleString('en-US');
    lines.push(`| ${line.operationId} | ${line.count} | ${each} | ${total} |`);
  }
  if (costs.estimate.lines.length === 0) lines.push('| (nothing priced) | 0 | — | 0 |');
  lines.push('', `Tokens spent: **${formatTokens(costs.tokensSpent)}**${costs.budget.maxTokens !== undefined ? ` (cap ${formatTokens(costs.budget.maxTokens)})` : ''}.`);
  if (costs.budget.balanceTokens !== undefined && costs.mode === 'live') lines.push(`Balance before this run: ${formatTokens(costs.budget.balanceTokens)}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * The job summary's report: full (controls and evidence) or short (gap list capped). The gate
 * notes and what was not evaluated lead, then the change against the baseline.
 */
export function renderReportSummary(report: ReviewReport, options: { detail: 'full' | 'summary'; baseline?: Baseline; maxGaps?: number; gateNotes?: readonly string[] }): string {
  const comparison = baselineTable(report, options.baseline, `the baseline (${tableCell(options.baseline?.path ?? '')})`);
  return renderReportMarkdown(report, { detail: options.detail, comparison, ...(options.gateNotes ? { gateNotes: options.gateNotes } : {}), ...(options.maxGaps !== undefined ? { maxGaps: options.maxGaps } : {}) });
}

/** The sticky comment: verdict, the gate notes, coverage table, change against the base branch, gaps capped to fit. */
export function renderComment(report: ReviewReport, options: { baseline?: Baseline; runUrl?: string; maxGaps?: number; gateNotes?: readonly string[] }): string {
  const footer = options.runUrl ? `\n[Full report in the job summary](${options.runUrl})\n` : '';
  const comparison = baselineTable(report, options.baseline, 'the base branch');
  const gateNotes = options.gateNotes ? { gateNotes: options.gateNotes } : {};
  for (const maxGaps of [options.maxGaps ?? 25, 10, 3, 0]) {
    const [title, ...rest] = renderReportMarkdown(report, { detail: 'summary', maxGaps, comparison, ...gateNotes }).split('\n');
    const body = [(title ?? '').replace(/^# /, '### '), ...rest.map((line) => line.replace(/^(#{2,4}) /, '#$1 '))].join('\n') + footer;
    if (body.length < MAX_COMMENT_CHARS - 200) return body;
  }
  return truncate(renderReportMarkdown(report, { detail: 'summary', maxGaps: 0, ...gateNotes }), MAX_COMMENT_CHARS - 500) + footer;
}
