/**
 * The JSON report document: a stable, versioned shape for machines (the Actions' outputs, the n8n
 * templates) that also serves as the baseline of a later `--fail-on new-gaps` run.
 */
import * as z from 'zod/v4/mini';
import { once } from '../api/schemas/lazy.js';
import type { KeyMode } from '../api/schemas/common.js';
import { ReviewError } from './errors.js';
import type { GateResult } from './gate.js';
import { frameworkKey, gapKey } from './keys.js';

export const REPORT_SCHEMA = 'compliance-review-report';
export const REPORT_SCHEMA_VERSION = 1;

export interface ReviewReport {
  schema: typeof REPORT_SCHEMA;
  schemaVersion: typeof REPORT_SCHEMA_VERSION;
  generatedAt: string;
  repository: string | undefined;
  /** The commit whose documents were mapped (git HEAD, or the action's GITHUB_SHA): evidence links point at it. */
  commit?: string | undefined;
  /** Where the repository is browsed (https://github.com unless told otherwise), for evidence links. */
  serverUrl?: string | undefined;
  /** How that server spells a link to lines (GitLab: `/-/blob/…#L3-5`); GitHub's when absent. */
  forge?: 'github' | 'gitlab' | undefined;
  /** The key's mode: `sandbox` results are samples (nothing charged); absent in reports written before it was recorded. */
  mode?: KeyMode | undefined;
  /** Every framework was evaluated and passed its gate. */
  passed: boolean;
  frameworks: GateResult[];
  /** Frameworks that could not be evaluated (not in the catalogue, a failed mapping): the report cannot pass. */
  notEvaluated?: NotEvaluatedFramework[] | undefined;
}

interface NotEvaluatedFramework {
  /** As compliance.yml (or the flag or input) names it. */
  framework: string;
  code: string;
  message: string;
}

export function buildReviewReport(
  frameworks: GateResult[],
  meta: { generatedAt: string; repository?: string; commit?: string; serverUrl?: string; forge?: 'github' | 'gitlab'; mode?: KeyMode; notEvaluated?: readonly NotEvaluatedFramework[] },
): ReviewReport {
  const notEvaluated = [...(meta.notEvaluated ?? [])];
  return {
    schema: REPORT_SCHEMA,
    schemaVersion: REPORT_SCHEMA_VERSION,
    generatedAt: meta.generatedAt,
    repository: meta.repository,
    commit: meta.commit,
    serverUrl: meta.serverUrl,
    ...(meta.forge === 'gitlab' ? { forge: meta.forge } : {}),
    ...(meta.mode ? { mode: meta.mode } : {}),
    passed: notEvaluated.length === 0 && frameworks.every((framework) => framework.passed),
    frameworks,
    ...(notEvaluated.length > 0 ? { notEvaluated } : {}),
  };
}

/** The report's verdict in words, the same in every format: `passed`, `failed`, or `not evaluated` when a framework could not be. */
export function reportVerdict(report: Pick<ReviewReport, 'passed' | 'notEvaluated'>): 'passed' | 'failed' | 'not evaluated' {
  if ((report.notEvaluated?.length ?? 0) > 0) return 'not evaluated';
  return report.passed ? 'passed' : 'failed';
}

/** What every headline adds when the results are not live: empty for a live key (or a report that does not say). */
export function modeNote(mode: KeyMode | undefined): string {
  return mode === 'sandbox' ? ' (sandbox key: sample results, nothing charged)' : '';
}

/**
 * What a baseline must hold, of our report or of a raw mapping report (as downloaded in json): only
 * what it needs is checked, the rest is kept as it is. Built anew on each call, so a test checks the
 * shapes fresh; baselineGapKeys uses them built once.
 */
export const baselineShapes = () => ({
  report: z.looseObject({
    schema: z.literal(REPORT_SCHEMA),
    schemaVersion: z.number(),
    frameworks: z.array(z.looseObject({ gaps: z.array(z.looseObject({ key: z.string() })) })),
  }),
  mappingReport: z.looseObject({
    framework: z.looseObject({ slug: z.optional(z.string()), name: z.optional(z.string()) }),
    gaps: z.array(z.looseObject({ controlId: z.string() })),
  }),
});
const baselineSchemas = once(baselineShapes);

/** The gap keys of a previous report document (or of raw mapping reports). */
export function baselineGapKeys(document: unknown): Set<string> {
  const ours = baselineSchemas().report.safeParse(document);
  if (ours.success) {
    if (ours.data.schemaVersion > REPORT_SCHEMA_VERSION) {
      throw new ReviewError('invalid_report', `the baseline has schema version ${ours.data.schemaVersion}; this version reads up to ${REPORT_SCHEMA_VERSION}`, 'Upgrade the compliance package.');
    }
    return new Set(ours.data.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.key)));
  }
  const raw = Array.isArray(document) ? document : [document];
  const keys = new Set<string>();
  for (const entry of raw) {
    const parsed = baselineSchemas().mappingReport.safeParse(entry);
    if (!parsed.success) {
      throw new ReviewError('invalid_report', 'the baseline is neither a review report (--json output or report.json) nor a mapping report',
        'Pass the JSON report a previous run wrote.');
    }
    const key = frameworkKey(parsed.data.framework);
    for (const gap of parsed.data.gaps) keys.add(gapKey(key, gap.controlId));
  }
  return keys;
}
