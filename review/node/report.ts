/**
 * The one reader of a report file (report.json or `review --json` output) for every surface: the
 * CLI's --report and --baseline, the actions' report and baseline inputs. It reads, parses and
 * checks the schema and its version; every error names the file and what to do.
 */
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import * as z from 'zod/v4/mini';
import { lazy } from '../../api/schemas/lazy.js';
import { ReviewError } from '../errors.js';
import { baselineGapKeys, REPORT_SCHEMA, REPORT_SCHEMA_VERSION, type ReviewReport } from '../reportDocument.js';

export interface ReportFile {
  /** The path as given. */
  path: string;
  /** The review report; undefined for raw mapping reports (accepted as a baseline only). */
  report: ReviewReport | undefined;
  /** Gap keys (framework/control) of the report: a baseline's known gaps. */
  gapKeys: Set<string>;
  /** Effective coverage by framework key (review reports only). */
  coverage: Map<string, number>;
}

interface ReadReportOptions {
  /** How the file was named to the user, for errors: `baseline`, `--report`, `input report`. */
  role: string;
  /** Accept raw mapping reports (downloaded json) too: a baseline may be one. */
  acceptMappingReports?: boolean;
  /** What makes the file, for the hint: defaults to the CLI's and actions' wording. */
  hint?: string;
  /** A relative path is read from here (default: the working directory); errors show it as given. */
  root?: string;
}

const DEFAULT_HINT = 'Pass the report.json that `compliance review --report-dir DIR` (or its --json output) or the map / review action wrote.';

/**
 * What a review report must hold: only what the readers use is checked, the rest is kept as it is.
 * Built anew on each call, so a test checks it fresh; the readers use it built once.
 */
export const reviewReportShape = () =>
  z.looseObject({
    schema: z.literal(REPORT_SCHEMA),
    schemaVersion: z.number().check(z.int()),
    frameworks: z.array(
      z.looseObject({
        framework: z.looseObject({ key: z.string(), name: z.string() }),
        gaps: z.array(z.looseObject({ key: z.string(), controlId: z.string() })),
      }),
    ),
  });
const reviewReportSchema = lazy(reviewReportShape);

/** Reads, parses and checks a report file; `path` is absolute or relative to `options.root`. */
export async function readReportFile(path: string, options: ReadReportOptions): Promise<ReportFile> {
  const hint = options.hint ?? DEFAULT_HINT;
  const where = `${options.role} ${path}`;
  let text: string;
  try {
    text = await readFile(options.root && !isAbsolute(path) ? resolve(options.root, path) : path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReviewError('invalid_report', `${where}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`, hint);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ReviewError('invalid_report', `${where}: not valid JSON (${(error as Error).message})`, hint);
  }
  const schema = (data as { schema?: unknown } | null)?.schema;
  const version = (data as { schemaVersion?: unknown } | null)?.schemaVersion;
  if (schema === REPORT_SCHEMA && typeof version === 'number' && version > REPORT_SCHEMA_VERSION) {
    throw new ReviewError('invalid_report', `${where}: schema version ${version}; this version reads up to ${REPORT_SCHEMA_VERSION}`,
      'Upgrade the compliance package (or action) that reads it to the version that wrote it.');
  }
  const parsed = reviewReportSchema.safeParse(data);
  if (parsed.success) {
    const report = data as ReviewReport;
    const coverage = new Map<string, number>();
    for (const entry of report.frameworks) {
      const value = typeof entry.effectiveCoverage === 'number' ? entry.effectiveCoverage : entry.coverage;
      if (typeof value === 'number') coverage.set(entry.framework.key, value);
    }
    return { path, report, gapKeys: new Set(report.frameworks.flatMap((entry) => entry.gaps.map((gap) => gap.key))), coverage };
  }
  if (schema === REPORT_SCHEMA || !options.acceptMappingReports) {
    const problem = parsed.error.issues[0];
    const at = problem?.path.length ? ` (${problem.path.join('.')}: ${problem.message})` : '';
    throw new ReviewError('invalid_report', `${where}: not a compliance review report (schema ${REPORT_SCHEMA}, version ${REPORT_SCHEMA_VERSION})${schema === REPORT_SCHEMA ? at : ''}`, hint);
  }
  try {
    return { path, report: undefined, gapKeys: baselineGapKeys(data), coverage: new Map() };
  } catch (error) {
    if (error instanceof ReviewError) throw new ReviewError(error.code, `${where}: ${error.message}`, hint);
    throw error;
  }
}
