/** Markdown renderings of the review for terminals, job summaries, PR comments and files. */
import { formatTokens } from './budget.js';
import { evidencePlace, evidenceUrl } from './evidenceLinks.js';
import type { GateGap, GateResult } from './gate.js';
import { neutralise, tableCell, truncate } from './neutralise.js';
import { modeNote, reportVerdict, type ReviewReport } from './reportDocument.js';
import type { SyncRunResult } from './syncRun.js';

interface MarkdownOptions {
  /** `summary`: coverage table and the list of gaps; `full` adds the per-control table and evidence. */
  detail?: 'summary' | 'full';
  /** Gaps listed per framework before "… and N more". */
  maxGaps?: number;
  /** The report's repository and commit: quotes link to their lines there. */
  links?: Pick<ReviewReport, 'repository' | 'commit' | 'serverUrl' | 'forge'>;
  /** Lines on the gate the run was judged by (gateNotes), shown under the title. */
  gateNotes?: readonly string[];
  /** Lines comparing with a baseline (a coverage change table), shown after the notes, before the frameworks. */
  comparison?: readonly string[];
}

const pct = (value: number) => `${Math.round(value * 10) / 10}%`;
const verdict = (passed: boolean) => (passed ? '✅ passed' : '❌ failed');

/** ` ([file, lines 3-5](link), section)`: linked to the committed lines when the repository and commit are known. */
function citation(quote: GateGap['evidence'][number], links: MarkdownOptions['links']): string {
  const place = evidencePlace(quote);
  const url = links ? evidenceUrl(links, quote) : undefined;
  const shown = place === undefined ? undefined : url ? `[${tableCell(place).replace(/[[\]]/g, '\\$&')}](${url})` : tableCell(place);
  const where = [shown, quote.location.section === undefined ? undefined : tableCell(quote.location.section)].filter(Boolean).join(', ');
  return where ? ` (${where})` : '';
}

/** Where quotes stand, linked, for a table cell: `[a.md, lines 3-5](…), [b.md, line 9](…)` and "N more". */
function placesOf(quotes: readonly GateGap['evidence'][number][], links: MarkdownOptions['links'], max: number): string {
  const places = quotes.map((quote) => citation(quote, links).replace(/^ \((.*)\)$/, '$1')).filter(Boolean);
  const unique = [...new Set(places)];
  const shown = unique.slice(0, max).join('; ');
  return unique.length > max ? `${shown}; ${unique.length - max} more` : shown || 'no location';
}

function gapStatus(gap: GateGap): string {
  if (gap.waived && gap.waiver) return `waived until ${gap.waiver.expires}`;
  if (gap.waiver?.expired) return `**waiver expired ${gap.waiver.expires}**`;
  return gap.isNew ? `${gap.status}, new` : gap.status;
}

function renderFrameworkMarkdown(result: GateResult, options: MarkdownOptions = {}): string {
  const detail = options.detail ?? 'full';
  const maxGaps = options.maxGaps ?? Number.POSITIVE_INFINITY;
  const lines: string[] = [];
  const name = tableCell(result.framework.name);
  lines.push(`## ${name}${result.framework.version ? ` (${tableCell(result.framework.version)})` : ''}: ${verdict(result.passed)}`, '');
  const waived = result.effectiveCoverage !== result.coverage ? `, ${pct(result.effectiveCoverage)} with waivers` : '';
  lines.push(
    `Coverage **${pct(result.coverage)}**${waived}; threshold ${pct(result.threshold)}; ` +
      `${result.summary.covered} covered, ${result.summary.partial} partial, ${result.summary.missing} missing of ${result.summary.controls} controls.`,
    '',
  );
  for (const reason of result.reasons) lines.push(`- ❌ ${neutralise(reason)}`);
  for (const warning of result.warnings) lines.push(`- ⚠️ ${neutralise(warning)}`);
  if (result.reasons.length + result.warnings.length > 0) lines.push('');

  if (detail === 'full') {
    lines.push('### Controls', '', '| Control | Title | Status | Evidence |', '|---|---|---|---|');
    for (const control of result.controls) {
      const evidence = control.evidence.length === 0 ? '—' : `${control.evidence.length}: ${placesOf(control.evidence, options.links, 5)}`;
      lines.push(`| ${tableCell(control.id)} | ${tableCell(control.title)} | ${control.status} | ${evidence} |`);
    }
    lines.push('');
  }

  const waivedCount = result.gaps.length - openGaps(result);
  lines.push(`### Gaps (${openGaps(result)}${waivedCount ? `, +${waivedCount} waived` : ''})`, '');
  if (result.gaps.length === 0) lines.push('None.', '');
  for (const gap of result.gaps.slice(0, maxGaps)) {
    if (detail === 'summary') {
      const evidence = gap.evidence.length > 0 ? ` Evidence so far: ${placesOf(gap.evidence, options.links, 2)}.` : '';
      lines.push(`- **${tableCell(gap.controlId)}** ${tableCell(gap.title)} (${gapStatus(gap)}): ${tableCell(truncate(gap.missing, 300))}${evidence}`);
      continue;
    }
    lines.push(`#### ${tableCell(gap.controlId)} ${tableCell(gap.title)} (${gapStatus(gap)})`, '');
    lines.push(`**Missing:** ${neutralise(gap.missing)}`, '', `**Recommendation:** ${neutralise(gap.recommendation)}`, '');
    if (gap.evidence.length > 0) {
      lines.push('**Evidence so far:**', '');
      for (const quote of gap.evidence) lines.push(`> ${tableCell(truncate(quote.quote, 500))}${citation(quote, options.links)}`, '');
    }
    if (gap.waiver) lines.push(`**Waiver:** ${tableCell(gap.waiver.reason)} (owner ${tableCell(gap.waiver.owner)}, expires ${gap.waiver.expires})`, '');
  }
  if (result.gaps.length > maxGaps) lines.push(`… and ${result.gaps.length - maxGaps} more gaps.`, '');
  else if (detail === 'summary') lines.push('');

  const waivers = [...new Map([...result.gaps.flatMap((gap) => (gap.waiver ? [gap.waiver] : [])), ...result.unusedWaivers].map((w) => [w.control, w])).values()];
  if (waivers.length > 0) {
    lines.push('### Waivers', '', '| Control | Owner | Expires | State | Reason |', '|---|---|---|---|---|');
    for (const waiver of waivers) {
      const state = waiver.expired ? '**expired**' : result.unusedWaivers.includes(waiver) ? 'unused' : `active, ${waiver.daysLeft} day${waiver.daysLeft === 1 ? '' : 's'} left`;
      lines.push(`| ${tableCell(waiver.control)} | ${tableCell(waiver.owner)} | ${waiver.expires} | ${state} | ${tableCell(waiver.reason)} |`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** `# Compliance review: ✅ passed`, `❌ not evaluated`, with the key's mode when it is not live. */
function reportHeadline(report: Pick<ReviewReport, 'passed' | 'notEvaluated' | 'mode'>): string {
  const said = reportVerdict(report);
  return `${said === 'passed' ? '✅' : '❌'} ${said}${modeNote(report.mode)}`;
}

/** Gaps an active waiver does not accept: the `gaps` figure of the verdict and the outputs. */
const openGaps = (result: GateResult) => result.gaps.filter((gap) => !gap.waived).length;

export function renderReportMarkdown(report: ReviewReport, options: MarkdownOptions = {}): string {
  const lines = [`# Compliance review: ${reportHeadline(report)}`, ''];
  // What a reader must see first: the gate the change proposes, and what was not evaluated.
  for (const note of options.gateNotes ?? []) lines.push(`> ${note}`, '');
  for (const entry of report.notEvaluated ?? []) lines.push(`> **${tableCell(entry.framework)}: not evaluated** (${tableCell(entry.code)}): ${tableCell(truncate(entry.message, 400))}. The review cannot pass until every framework is evaluated.`, '');
  lines.push(...(options.comparison ?? []));
  lines.push('| Framework | Coverage | With waivers | Threshold | Gaps | New gaps | Result |', '|---|---|---|---|---|---|---|');
  for (const result of report.frameworks) {
    const newGaps = result.gaps.some((gap) => gap.isNew !== undefined) ? String(result.newGaps.length) : '—';
    const waived = result.gaps.length - openGaps(result);
    lines.push(
      `| ${tableCell(result.framework.name)} | ${pct(result.coverage)} | ${pct(result.effectiveCoverage)} | ${pct(result.threshold)} | ${openGaps(result)}${waived ? ` (+${waived} waived)` : ''} | ${newGaps} | ${verdict(result.passed)} |`,
    );
  }
  for (const entry of report.notEvaluated ?? []) lines.push(`| ${tableCell(entry.framework)} | — | — | — | — | — | ❌ not evaluated |`);
  lines.push('');
  const links = options.links ?? report;
  for (const result of report.frameworks) lines.push(renderFrameworkMarkdown(result, { ...options, links }));
  return `${lines.join('\n').trimEnd()}\n`;
}

/** The sync's table; `refused`: the plan of a sync the cap or balance refused (nothing sent either). */
export function renderSyncMarkdown(run: SyncRunResult, options: { refused?: boolean } = {}): string {
  const title = options.refused ? 'Library sync (refused: nothing sent)' : run.dryRun ? 'Library sync (dry run: nothing sent)' : 'Library sync';
  const spent = run.mode === 'live' ? formatTokens(run.tokensSpent) : `${formatTokens(run.tokensSpent)} (sandbox key: never charged)`;
  const lines = [`## ${title}`, '', `Tokens spent: ${spent}.${run.stoppedBecause ? ` Stopped: ${neutralise(run.stoppedBecause)}.` : ''}`, ''];
  lines.push('| File | Plan | Outcome | Tokens | Note |', '|---|---|---|---|---|');
  for (const result of run.results) {
    lines.push(`| ${tableCell(result.path || '—')} | ${result.kind} | ${result.outcome} | ${result.tokensSpent.toLocaleString('en-US')} | ${tableCell(result.message)} |`);
  }
  return `${lines.join('\n')}\n`;
}
