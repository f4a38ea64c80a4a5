/** Human renderings shared by review, sync, map and gaps. */
import type { DriftResult } from '../../review/drift.js';
import type { FrameworkUpdates } from '../../review/frameworkUpdates.js';
import type { GateResult } from '../../review/gate.js';
import type { GapIssuePlan } from '../../review/gapIssues.js';
import type { SyncPlan } from '../../review/syncPlan.js';
import type { SyncRunResult } from '../../review/syncRun.js';
import { count, percent, tokens } from './format.js';
import { table, type Output } from './output.js';

export function renderSync(out: Output, plan: SyncPlan, run: SyncRunResult | undefined, options: { all?: boolean } = {}): string {
  const c = plan.counts;
  const head = `Library sync${run?.dryRun ? ' (dry run: nothing sent)' : ''}: ${c.new} new, ${c.changed} changed, ${c.unchanged} unchanged` +
    `${c.renamed ? `, ${c.renamed} renamed` : ''}${c.duplicate ? `, ${c.duplicate} duplicate` : ''}${c.invalid ? `, ${c.invalid} invalid` : ''}${c.removed ? `, ${c.removed} removed` : ''}`;
  const results = run?.results ?? [];
  const shown = options.all ? results : results.filter((result) => result.kind !== 'unchanged');
  const lines = [out.style(head, 'bold')];
  if (shown.length > 0) {
    lines.push(table(['File', 'Plan', 'Outcome', 'Tokens', 'Note'], shown.map((r) => [
      r.path || '—', r.kind, outcomeStyle(out, r.outcome), r.tokensSpent.toLocaleString('en-US'), r.message,
    ]), { maxWidth: 70 }));
  }
  if (run) {
    const spent = run.mode === 'live' ? tokens(run.tokensSpent) : `${tokens(run.tokensSpent)} (sandbox key: never charged)`;
    lines.push(run.dryRun ? `Would spend ${tokens(plan.totalTokens)} in live mode.` : `Spent ${spent}.`);
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

export function renderCoverage(out: Output, frameworks: readonly GateResult[]): string {
  return table(
    ['Framework', 'Coverage', 'With waivers', 'Threshold', 'Controls', 'Gaps', 'New', 'Result'],
    frameworks.map((f) => [
      f.framework.name,
      percent(f.coverage),
      percent(f.effectiveCoverage),
      percent(f.threshold),
      `${f.summary.covered}/${f.summary.partial}/${f.summary.missing} of ${f.summary.controls}`,
      String(f.gaps.length),
      f.gaps.some((gap) => gap.isNew !== undefined) ? String(f.newGaps.length) : '—',
      verdict(out, f.passed),
    ]),
  );
}

export function renderGaps(out: Output, result: GateResult, options: { max?: number } = {}): string {
  const max = options.max ?? 50;
  const lines = [out.style(`${result.framework.name}: ${count(result.gaps.length, 'gap')}`, 'bold')];
  for (const reason of result.reasons) lines.push(out.style(`  ✗ ${reason}`, 'red'));
  for (const warning of result.warnings) lines.push(out.style(`  ! ${warning}`, 'yellow'));
  if (result.gaps.length > 0) {
    lines.push(table(['Control', 'Title', 'Status', 'What is missing'], result.gaps.slice(0, max).map((gap) => [
      gap.controlId,
      gap.title,
      gap.waived ? `waived to ${gap.waiver?.expires}` : gap.waiver?.expired ? out.style('waiver expired', 'red') : `${gap.status}${gap.isNew ? ', new' : ''}`,
      gap.missing,
    ]), { maxWidth: 64 }));
    if (result.gaps.length > max) lines.push(`… and ${result.gaps.length - max} more (see --report-dir or --json).`);
  }
  return lines.join('\n');
}

export function renderUpdates(updates: readonly FrameworkUpdates[]): string | undefined {
  const rows = updates.flatMap((entry) =>
    entry.error ? [[entry.slug, '—', `could not read: ${entry.error.message}`]] : entry.updates.map((u) => [entry.slug, u.date, u.title]),
  );
  return rows.length ? `Framework updates:\n${table(['Framework', 'Date', 'Update'], rows, { maxWidth: 80 })}` : undefined;
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
  return rows.length ? `${head}\n${table(['Action', 'Issue', 'Title'], rows, { maxWidth: 90 })}` : head;
}
