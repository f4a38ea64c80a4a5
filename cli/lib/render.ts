/** Human renderings shared by review, sync, map and gaps. */
import type { DriftResult } from '../../review/drift.js';
import type { FrameworkUpdates } from '../../review/frameworkUpdates.js';
import type { GateResult } from '../../review/gate.js';
import type { GapIssuePlan } from '../../review/gapIssues.js';
import type { ReviewResult } from '../../review/review.js';
import type { SyncPlan } from '../../review/syncPlan.js';
import type { SyncRunResult } from '../../review/syncRun.js';
import { count, percent, tokens } from './format.js';
import { spentLine } from './spend.js';
import { table, type Output } from './output.js';

export function renderSync(out: Output, plan: SyncPlan, run: SyncRunResult | undefined, options: { all?: boolean } = {}): string {
  const c = plan.counts;
  const head = `Library sync${run?.dryRun ? ' (dry run: nothing sent)' : ''}: ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged` +
    `${c.renamed ? `, ${c.renamed} renamed` : ''}${c.duplicate ? `, ${c.duplicate} duplicate` : ''}${c.invalid ? `, ${c.invalid} invalid` : ''}${c.removed ? `, ${c.removed} removed` : ''}`;
  const results = run?.results ?? [];
  // A dry run's charged rows (new, changed) are itemised by dryRunLines: listed here only once run.
  const shown = (options.all ? results : results.filter((result) => result.kind !== 'unchanged'))
    .filter((result) => !(run?.dryRun && (result.kind === 'new' || result.kind === 'changed')));
  const lines = [out.style(head, 'bold')];
  if (shown.length > 0) {
    lines.push(table(['File', 'Plan', 'Outcome', 'Tokens', 'Note'], shown.map((r) => [
      r.path || '—', r.kind, outcomeStyle(out, r.outcome), r.tokensSpent.toLocaleString('en-US'), r.message,
    ])));
  }
  if (run) {
    // A dry run's charges are itemised once, by dryRunLines.
    if (!run.dryRun) lines.push(spentLine(run.mode, run.tokensSpent));
    if (run.stoppedBecause) lines.push(out.style(`Stopped: ${run.stoppedBecause}`, 'red'));
  }
  return lines.join('\n');
}

function outcomeStyle(out: Output, outcome: string): string {
  if (outcome === 'failed' || outcome === 'not-attempted') return out.style(outcome, 'red');
  if (outcome === 'ingested' || outcome === 'refreshed' || outcome === 'deleted') return out.style(outcome, 'green');
  return outcome;
}

const verdict = (out: Output, passed: boolean) => (passed ? out.style('passed', 'green', 'bold') : out.style('FAILED', 'red', 'bold'));

/** One row per framework; Effective counts waived controls as covered; the control counts, labelled, last (they wrap). */
export function renderCoverage(out: Output, frameworks: readonly GateResult[]): string {
  return table(
    ['Framework', 'Result', 'Coverage', 'Effective', 'Threshold', 'Gaps', 'Waived', 'New', 'Controls'],
    frameworks.map((f) => {
      const open = f.gaps.filter((gap) => !gap.waived);
      const s = f.summary;
      return [
        f.framework.name,
        verdict(out, f.passed),
        percent(f.coverage),
        percent(f.effectiveCoverage),
        percent(f.threshold),
        String(open.length),
        String(f.gaps.length - open.length),
        f.gaps.some((gap) => gap.isNew !== undefined) ? String(f.newGaps.length) : '—',
        `${s.covered} covered, ${s.partial} partial, ${s.missing} missing of ${s.controls}`,
      ];
    }),
  );
}

/** The gaps that count, then the waived controls apart (a waiver is a decision, not a gap). */
export function renderGaps(out: Output, result: GateResult, options: { max?: number } = {}): string {
  const max = options.max ?? 50;
  const open = result.gaps.filter((gap) => !gap.waived);
  const waived = result.gaps.filter((gap) => gap.waived);
  const lines = [out.style(`${result.framework.name}: ${count(open.length, 'gap')}${waived.length ? `, ${waived.length} waived` : ''}`, 'bold')];
  for (const reason of result.reasons) lines.push(out.style(`  ✗ ${reason}`, 'red'));
  for (const warning of result.warnings) lines.push(out.style(`  ! ${warning}`, 'yellow'));
  if (open.length > 0) {
    lines.push(table(['Control', 'Title', 'Status', 'What is missing'], open.slice(0, max).map((gap) => [
      gap.controlId,
      gap.title,
      gap.waiver?.expired ? out.style('waiver expired', 'red') : `${gap.status}${gap.isNew ? ', new' : ''}`,
      gap.missing,
    ]), { whole: [0] }));
    if (open.length > max) lines.push(`… and ${open.length - max} more (see --report-dir or --json).`);
  }
  if (waived.length > 0) {
    lines.push(`Waived (not counted as gaps):`);
    lines.push(table(['Control', 'Title', 'Waived until', 'Why'], waived.map((gap) => [gap.controlId, gap.title, gap.waiver?.expires ?? '—', gap.waiver?.reason ?? '—'])));
  }
  return lines.join('\n');
}

export function renderUpdates(updates: readonly FrameworkUpdates[]): string | undefined {
  const rows = updates.flatMap((entry) =>
    entry.error ? [[entry.slug, '—', `could not read: ${entry.error.message}`]] : entry.updates.map((u) => [entry.slug, u.date, u.title]),
  );
  return rows.length ? `Framework updates:\n${table(['Framework', 'Date', 'Update'], rows)}` : undefined;
}

export function renderDrift(documents: readonly DriftResult[]): string | undefined {
  if (documents.length === 0) return undefined;
  return `Generated documents:\n${table(['Output', 'Status', 'Why'], documents.map((d) => [
    d.output, d.status, [...d.reasons, ...d.editedFiles.map((file) => `edited: ${file}`)].join(', ') || '—',
  ]))}`;
}

export function renderGapPlan(plan: GapIssuePlan): string {
  const rows = [
    ...plan.create.map((d) => ['create', '—', d.title]),
    ...plan.update.map((d) => [d.reopen ? 'reopen' : 'update', `#${d.number}`, d.title]),
    ...plan.close.map((d) => ['close', `#${d.number}`, d.title]),
    ...plan.deferred.map((d) => ['deferred', '—', d.title]),
    ...plan.unchanged.map((d) => ['unchanged', `#${d.number}`, d.key]),
  ];
  const head = `Gap issues: ${plan.create.length} to create, ${plan.update.length} to update, ${plan.close.length} to close, ${plan.unchanged.length} unchanged${plan.deferred.length ? `, ${plan.deferred.length} deferred (maxNewPerRun)` : ''}`;
  return rows.length ? `${head}\n${table(['Action', 'Issue', 'Title'], rows, { whole: [1] })}` : head;
}

/** The refusal or dry-run lines shared by review, sync and map. */
export function budgetLines(out: Output, result: ReviewResult, mappedFrameworks: readonly string[]): string[] {
  const lines: string[] = [];
  if (result.status === 'refused') {
    lines.push(out.style('Refused before spending anything:', 'red', 'bold'));
    for (const reason of result.budget.reasons) lines.push(`  ${reason}`);
    if (result.budget.suggestedPack) lines.push(`  Buy it with: compliance checkout ${result.budget.suggestedPack.code}`);
  } else if (result.status === 'dry-run') {
    lines.push(...dryRunLines(out, result, mappedFrameworks));
  }
  return lines;
}

/** Every charge a dry run would make: one row per file synced and per mapping, the total, the balance and any shortfall. */
export function dryRunLines(out: Output, result: Pick<ReviewResult, 'estimate' | 'budget' | 'sync'>, frameworks: readonly string[]): string[] {
  const rows: string[][] = [];
  for (const item of result.sync?.plan.items ?? []) {
    if (item.kind === 'new' || item.kind === 'changed') rows.push([item.kind === 'new' ? 'ingest' : 'refresh', item.path, item.tokens.toLocaleString('en-US')]);
  }
  let mapping = 0;
  for (const line of result.estimate.lines) {
    if (line.operationId !== 'mapDocument') continue;
    const name = frameworks[mapping++] ?? `mapping ${mapping}`;
    const each = line.tokensEach === undefined ? 'unlisted' : line.tokensEach.toLocaleString('en-US');
    rows.push(['map', `${name}${line.count > 1 ? ` (${line.count} documents × ${each})` : ''}`, line.tokensEach === undefined ? 'unlisted' : (line.count * line.tokensEach).toLocaleString('en-US')]);
  }
  const { budget } = result;
  const lines = [out.style('Dry run: nothing was sent. Live-mode charges:', 'bold')];
  lines.push(rows.length ? table(['Charge', 'What', 'Tokens'], rows) : '  none');
  lines.push(`Total: ${tokens(result.estimate.totalTokens)}${result.estimate.unpriced.length ? ` plus unlisted prices of ${result.estimate.unpriced.join(', ')}` : ''}` +
    `${budget.mode !== 'live' ? ' (sandbox key: never charged)' : budget.balanceTokens !== undefined ? `; balance ${tokens(budget.balanceTokens)}` : ''}.`);
  if (!budget.allowed) {
    lines.push(out.style('A real run would be refused before spending anything:', 'yellow', 'bold'));
    for (const reason of budget.reasons) lines.push(`  ${reason}`);
    if (budget.suggestedPack) lines.push(`  Buy it with: compliance checkout ${budget.suggestedPack.code}`);
  }
  return lines;
}
