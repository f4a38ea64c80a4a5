/**
 * The mapping report as the map and review actions publish it: report files (JSON for machines
 * and later baselines, Markdown for people), the job summary, annotations for the top gaps and
 * expired waivers, the sticky comment's body, and the gate inputs both actions share (fail-on,
 * baseline, extra waivers, base-config).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import { parse as parseYaml } from 'yaml';
import {
  configLine,
  configSchema,
  FAIL_ON,
  formatTokens,
  lostEvidenceMessage,
  neutralise,
  parseReportFormats,
  renderReportMarkdown,
  ReviewError,
  tableCell,
  truncate,
  YAML_LOG_LEVEL,
  type BudgetCheck,
  type CostEstimate,
  type FailOn,
  type GateGap,
  type GateResult,
  type HistoryPoint,
  type LostEvidence,
  type PublishContext,
  type ReportFormat,
  type ReviewReport,
  type Waiver,
} from '../../review/index.js';
import { publishedPath, publishReport, readHistory, readReportFile } from '../../review/node/index.js';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { choiceInput, InputError, listInput, textInput } from './runtime/inputs.js';
import { MAX_COMMENT_CHARS } from './github/stickyComment.js';

/** GitHub shows at most 10 annotations of each kind per step; the full list is in the summary. */
export const MAX_ANNOTATIONS = 10;

export interface Baseline {
  path: string;
  gapKeys: Set<string>;
  /** Coverage per framework key in the baseline report, when it records one. */
  coverage: Map<string, number>;
  /** The report itself (undefined for raw mapping reports): what an `unchanged` run shows, and whose traced evidence tells what a change lost. */
  report: ReviewReport | undefined;
}

export interface GateInputs {
  /** The `fail-on` input; undefined when not given (compliance.yml's failOn applies). */
  failOn: FailOn | undefined;
  baseline: Baseline | undefined;
  /** Waivers from the `waivers` input, added to compliance.yml's. */
  waivers: Waiver[];
}

/** A previous report.json (or raw mapping reports): its gap keys and coverage, through the one reader. */
async function readBaseline(root: string, path: string): Promise<Baseline> {
  const { gapKeys, coverage, report } = await readReportFile(path, { role: 'baseline', acceptMappingReports: true, root });
  return { path, gapKeys, coverage, report };
}

/** The `waivers` input: a YAML (or JSON) list with compliance.yml's waiver fields. */
export function parseWaiversInput(text: string | undefined): Waiver[] {
  if (text === undefined) return [];
  let data: unknown;
  try {
    data = parseYaml(text, { logLevel: YAML_LOG_LEVEL });
  } catch (error) {
    throw new InputError('waivers', `is not valid YAML (${(error as Error).message.split('\n')[0]})`);
  }
  const parsed = configSchema.shape.waivers.safeParse(data ?? []);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError('waivers', `${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`.trim(),
      'A list of {framework, control, reason, owner, expires: YYYY-MM-DD}, as in compliance.yml.');
  }
  return parsed.data;
}

export async function readGateInputs(root: string): Promise<GateInputs> {
  const failOn = failOnInput();
  const baselinePath = textInput('baseline');
  const baseline = baselinePath ? await readBaseline(root, baselinePath) : undefined;
  return { failOn, baseline, waivers: parseWaiversInput(textInput('waivers')) };
}

/** The `fail-on` input, undefined when not given: it may only make compliance.yml's failOn stricter (gateConfiguration). */
export function failOnInput(): FailOn | undefined {
  return textInput('fail-on') === undefined ? undefined : choiceInput('fail-on', FAIL_ON, 'coverage');
}

/** The `report-formats` input: formats besides report.json and report.md (always written), checked by the publisher. */
export function reportFormatsInput(): ReportFormat[] {
  try {
    return parseReportFormats(listInput('report-formats'), 'report-formats').filter((format) => format !== 'json' && format !== 'md');
  } catch (error) {
    if (error instanceof ReviewError) throw new InputError('report-formats', error.message.replace(/^report-formats: /, ''), error.hint);
    throw error;
  }
}

/**
 * The `history` input: earlier report.json files for report.html's trend, read before anything is
 * spent. A directory that does not exist yet (the first run, an evicted cache) is a notice: the
 * trend starts with this run.
 */
export async function historyInput(root: string): Promise<HistoryPoint[] | undefined> {
  const dir = textInput('history');
  if (!dir) return undefined;
  if (!existsSync(isAbsolute(dir) ? dir : resolve(root, dir))) {
    log.notice(`No report history at ${dir} yet: the trend in report.html starts with this run.`, { title: 'No report history yet' });
    return undefined;
  }
  return readHistory(dir, 'history', root);
}

interface WrittenReport {
  dir: string;
  json: string;
  markdown: string;
  /** Every other file written (html, sarif, junit, the service's pdf/docx). */
  documents: string[];
}

/**
 * report.json and report.md in `dir` (created, inside the checkout `root`), plus the other formats
 * through review/'s publisher; a download the service refuses is a warning.
 */
export async function writeReportFiles(
  client: ComplianceApi | undefined,
  report: ReviewReport,
  root: string,
  dir: string,
  formats: readonly ReportFormat[],
  context: PublishContext = {},
): Promise<WrittenReport> {
  const published = await publishReport({ client, report, root, dir, formats: [...new Set<ReportFormat>(['json', 'md', ...formats])], context });
  for (const failure of published.failures) log.warning(failure.message);
  return {
    dir: published.dir,
    json: publishedPath(published, 'json') ?? '',
    markdown: publishedPath(published, 'md') ?? '',
    documents: published.files.filter((file) => file.format !== 'json' && file.format !== 'md').map((file) => file.path),
  };
}

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

function severity(gap: GateGap): number {
  return (gap.waived ? 4 : 0) + (gap.isNew === false ? 2 : 0) + (gap.status === 'missing' ? 0 : 1);
}

/** Warning annotations for the top gaps (new and missing first), on the evidence's file and line when known. */
export function annotateGaps(report: ReviewReport, limit: number = MAX_ANNOTATIONS): number {
  const ranked = report.frameworks
    .flatMap((result) => result.gaps.filter((gap) => !gap.waived).map((gap) => ({ result, gap })))
    .sort((a, b) => severity(a.gap) - severity(b.gap) || a.gap.controlId.localeCompare(b.gap.controlId));
  for (const { result, gap } of ranked.slice(0, limit)) {
    const evidence = gap.evidence.find((quote) => quote.file);
    log.warning(`${gap.controlId} ${gap.title} (${gap.status}${gap.isNew ? ', new' : ''}): ${truncate(neutralise(gap.missing), 500)}`, {
      title: `Compliance gap in ${result.framework.name}`,
      ...(evidence?.file ? { file: evidence.file } : {}),
      ...(evidence?.file && evidence.line !== undefined ? { startLine: evidence.line, endLine: evidence.endLine ?? evidence.line } : {}),
    });
  }
  const hidden = ranked.length - Math.min(ranked.length, limit);
  if (hidden > 0) log.info(`${hidden} more gap${hidden === 1 ? '' : 's'} listed in the job summary and report.md (GitHub shows at most ${limit} annotations per step).`);
  return Math.min(ranked.length, limit);
}

/**
 * A warning on the lines of each quote the pull request removed that the default branch credited,
 * naming the control and whether it is now a gap; capped, the rest counted in the log (the comment
 * and the summary list every control).
 */
export function annotateLostEvidence(lost: readonly LostEvidence[], limit: number = MAX_ANNOTATIONS): number {
  // A control that becomes a gap first.
  const ranked = [...lost].sort((a, b) => Number(b.nowGap) - Number(a.nowGap) || a.controlId.localeCompare(b.controlId));
  for (const entry of ranked.slice(0, limit)) {
    log.warning(truncate(neutralise(lostEvidenceMessage(entry)), 900), {
      title: `Compliance evidence removed: ${entry.controlId}`,
      file: entry.evidence.file as string,
      startLine: entry.evidence.line as number,
      endLine: entry.evidence.endLine ?? (entry.evidence.line as number),
    });
  }
  const hidden = ranked.length - Math.min(ranked.length, limit);
  if (hidden > 0) log.info(`${hidden} more removed evidence quote${hidden === 1 ? '' : 's'} listed in the pull request comment and the job summary (GitHub shows at most ${limit} annotations per step).`);
  return Math.min(ranked.length, limit);
}

/** An error annotation per expired waiver whose gap is back, pointing at compliance.yml. */
export function annotateExpiredWaivers(frameworks: readonly GateResult[], configPath: string, configText: string | undefined): number {
  let count = 0;
  for (const result of frameworks) {
    for (const waiver of result.expiredWaivers) {
      if (count >= MAX_ANNOTATIONS) return count;
      const line = configLine(configText, 'control', waiver.control);
      log.error(`The waiver for ${waiver.control} (${result.framework.name}, owner ${waiver.owner}) expired on ${waiver.expires}: the gap counts again. Renew it with a new expiry or close the gap.`, {
        title: 'Expired compliance waiver',
        file: configPath,
        ...(line !== undefined ? { startLine: line } : {}),
      });
      count++;
    }
  }
  return count;
}

/** The report file outputs shared by map and review (the verdict's figures are set by setVerdictOutputs). */
export function setReportPathOutputs(written: WrittenReport | undefined): void {
  if (!written) return;
  core.setOutput('report-path', written.dir);
  core.setOutput('report-json', written.json);
  core.setOutput('report-markdown', written.markdown);
}
