/**
 * The report and gate inputs the map and review actions share: fail-on, baseline, extra waivers,
 * report-formats and history, each read and checked before anything is spent.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import {
  configSchema,
  FAIL_ON,
  parseReportFormats,
  ReviewError,
  YAML_LOG_LEVEL,
  type FailOn,
  type HistoryPoint,
  type ReportFormat,
  type ReviewReport,
  type Waiver,
} from '../../review/index.js';
import { readHistory, readReportFile } from '../../review/node/index.js';
import { log } from './runtime/log.js';
import { choiceInput, InputError, listInput, textInput } from './runtime/inputs.js';

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
