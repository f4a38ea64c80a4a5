/**
 * The coverage gate. Fails below the threshold; accepted gaps (active waivers) count as covered
 * until they expire; `new-gaps` additionally fails on gaps absent from a baseline. A report that
 * cannot be judged (no controls, no coverage figure) is an error, never a pass.
 */
import type { MappingReportModel } from '../api/clientTypes.js';
import type { Waiver } from './config.js';
import { checkDeclarations, type Declaration, type DeclaredCheck } from './declaredCheck.js';
import { ReviewError } from './errors.js';
import type { FailOn } from './failOn.js';
import { frameworkKey, frameworkOfGapKey, gapKey } from './keys.js';
import type { TracedEvidence } from './evidenceTrace.js';
import { combineReports, type SourcedReport } from './mapping.js';
import { findWaiver, waiverState, waiversFor, type WaiverState } from './waivers.js';

type ControlResult = MappingReportModel['controls'][number];
/** A quote toward a control; traced ones carry the committed file's `file`, `line` and `endLine`. */
export type Evidence = TracedEvidence;

export interface GateGap {
  key: string;
  controlId: string;
  title: string;
  status: 'partial' | 'missing';
  missing: string;
  recommendation: string;
  /** What the documents already say toward this control. */
  evidence: Evidence[];
  waiver: WaiverState | undefined;
  /** An active waiver accepts this gap. */
  waived: boolean;
  /** Absent from the baseline; undefined without a baseline. */
  isNew: boolean | undefined;
}

export interface GateControl {
  id: string;
  title: string;
  status: ControlResult['status'];
  evidence: Evidence[];
}

export interface GateResult {
  framework: { key: string; name: string; slug: string | undefined; version: string | undefined; configured: string };
  passed: boolean;
  /** As reported by the service, percent. */
  coverage: number;
  /** Coverage with the shortfall of waived controls added back: what the threshold is checked against. */
  effectiveCoverage: number;
  threshold: number;
  failOn: FailOn;
  summary: { controls: number; covered: number; partial: number; missing: number };
  controls: GateControl[];
  gaps: GateGap[];
  expiredWaivers: WaiverState[];
  /** Waivers for controls that are no longer gaps: candidates for removal. */
  unusedWaivers: WaiverState[];
  newGaps: GateGap[];
  /** Why the gate failed; empty when it passed. */
  reasons: string[];
  /** Loud notices that do not fail the gate by themselves (expired or unused waivers, no baseline). */
  warnings: string[];
  /** Mapping jobs behind this result. */
  jobIds: string[];
  /** Front matter `satisfies:` against the evidence; absent when no document declares anything. */
  declared?: DeclaredCheck;
}

export interface GateOptions {
  /** The framework as compliance.yml names it (slug or name); waivers may use either. */
  framework: string;
  threshold: number;
  waivers: readonly Waiver[];
  /** YYYY-MM-DD, from the caller's clock. */
  today: string;
  /** Gap keys of a previous report (see baselineGapKeys). */
  baseline?: ReadonlySet<string>;
  failOn: FailOn;
  /** The documents' front matter declarations (readDeclarations). */
  declarations?: readonly Declaration[];
}

const round1 = (value: number) => Math.round(value * 10) / 10;
const percent = (value: number) => `${round1(value)}%`;

/** Evaluates one framework's report, or its per-document reports merged. */
export function evaluateGate(reports: MappingReportModel | readonly SourcedReport[], options: GateOptions): GateResult {
  const sourced = Array.isArray(reports) ? (reports as readonly SourcedReport[]) : [{ source: 'combined', jobId: '', report: reports as MappingReportModel }];
  const report = combineReports(sourced);
  const name = report.framework?.name ?? options.framework;
  const key = frameworkKey(report.framework ?? {}, options.framework);

  const controls = Array.isArray(report.controls) ? report.controls : [];
  const controlCount = report.summary?.controls ?? controls.length;
  if (controlCount === 0 || controls.length === 0) {
    throw new ReviewError('no_controls', `${name}: the mapping report lists no controls, so coverage means nothing`,
      'Check that the framework is a verified one (compliance suggest, GET /capabilities) and that the documents were sent.');
  }
  if (typeof report.coverage !== 'number' || !Number.isFinite(report.coverage)) {
    throw new ReviewError('no_coverage', `${name}: the mapping report has no coverage figure`, 'The gate cannot pass or fail without one; report this with the job id.');
  }

  const waivers = waiversFor(options.waivers, [options.framework, report.framework?.slug, report.framework?.name, key]).map((waiver) =>
    waiverState(waiver, options.today),
  );
  const evidenceOf = new Map(controls.map((control) => [control.id, control.evidence]));
  const gaps: GateGap[] = report.gaps.map((gap) => {
    const waiver = findWaiver(waivers, gap.controlId) as WaiverState | undefined;
    const gapKeyValue = gapKey(key, gap.controlId);
    return {
      key: gapKeyValue,
      controlId: gap.controlId,
      title: gap.title,
      status: gap.status,
      missing: gap.missing,
      recommendation: gap.recommendation,
      evidence: evidenceOf.get(gap.controlId) ?? [],
      waiver,
      waived: waiver !== undefined && !waiver.expired,
      isNew: options.baseline ? !options.baseline.has(gapKeyValue) : undefined,
    };
  });

  // Each control weighs the same; a waived control counts as covered (partial already earned ½).
  const addedBack = gaps.filter((gap) => gap.waived).reduce((sum, gap) => sum + (gap.status === 'partial' ? 0.5 : 1), 0);
  const effectiveCoverage = Math.min(100, round1(report.coverage + (addedBack / controlCount) * 100));

  const gapIds = new Set(gaps.map((gap) => gap.controlId.trim().toLowerCase()));
  const expiredWaivers = waivers.filter((waiver) => waiver.expired && gapIds.has(waiver.control.trim().toLowerCase()));
  const unusedWaivers = waivers.filter((waiver) => !gapIds.has(waiver.control.trim().toLowerCase()));
  const newGaps = gaps.filter((gap) => gap.isNew === true && !gap.waived);

  const reasons: string[] = [];
  if (effectiveCoverage < options.threshold) {
    const waived = effectiveCoverage !== report.coverage ? ` (${percent(report.coverage)} before waivers)` : '';
    reasons.push(`coverage ${percent(effectiveCoverage)}${waived} is below the threshold of ${percent(options.threshold)}`);
  }
  if (options.failOn === 'new-gaps' && newGaps.length > 0) {
    reasons.push(`${newGaps.length} new gap${newGaps.length === 1 ? '' : 's'} not in the baseline: ${newGaps.map((gap) => gap.controlId).join(', ')}`);
  }
  const declared = checkDeclarations(options.declarations ?? [], [options.framework, report.framework?.slug, report.framework?.name, key], controls);
  const unbacked = declared?.declaredWithoutEvidence ?? [];
  const unbackedText = unbacked.map((entry) => `${entry.controlId} (${entry.files.join(', ')})`).join(', ');
  if (options.failOn === 'declared-without-evidence' && unbacked.length > 0) {
    reasons.push(`${unbacked.length} control${unbacked.length === 1 ? '' : 's'} declared in front matter without evidence: ${unbackedText}`);
  }
  const warnings: string[] = [
    ...expiredWaivers.map((waiver) => `EXPIRED WAIVER: ${waiver.control} (${waiver.owner}) expired on ${waiver.expires}; the gap counts again. Reason was: ${waiver.reason}`),
    ...unusedWaivers.map((waiver) => `waiver for ${waiver.control} is unused: it is no longer a gap; remove it from compliance.yml`),
  ];
  if (options.failOn === 'new-gaps' && !options.baseline) warnings.push('no baseline given: no gap can be told new, so failOn new-gaps checks the threshold only (a pull request without a confirmed baseline counts every gap as new)');
  if (options.failOn !== 'declared-without-evidence' && unbacked.length > 0) warnings.push(`declared in front matter without evidence: ${unbackedText}`);

  const summary = report.summary ?? {
    controls: controls.length,
    covered: controls.filter((control) => control.status === 'covered').length,
    partial: controls.filter((control) => control.status === 'partial').length,
    missing: controls.filter((control) => control.status === 'missing').length,
  };
  return {
    framework: { key, name, slug: report.framework?.slug, version: report.framework?.version, configured: options.framework },
    passed: reasons.length === 0,
    coverage: report.coverage,
    effectiveCoverage,
    threshold: options.threshold,
    failOn: options.failOn,
    summary: { controls: summary.controls, covered: summary.covered, partial: summary.partial, missing: summary.missing },
    controls: controls.map((control) => ({ id: control.id, title: control.title, status: control.status, evidence: control.evidence })),
    gaps,
    expiredWaivers,
    unusedWaivers,
    newGaps,
    reasons,
    warnings,
    jobIds: sourced.map((entry) => entry.jobId).filter(Boolean),
    ...(declared ? { declared } : {}),
  };
}

/**
 * One line telling what to do after a failed gate, the same on every surface: close the gaps (or
 * renew the waivers, or accept new gaps as the baseline), or start with a threshold the documents
 * meet today. Undefined when every gate passed.
 */
export function nextStep(results: readonly GateResult[], configPath?: string): string | undefined {
  const failed = results.find((result) => !result.passed);
  if (!failed) return undefined;
  const where = `${failed.framework.name} (${failed.framework.configured})`;
  if (failed.effectiveCoverage < failed.threshold) {
    const reachable = Math.floor(failed.effectiveCoverage);
    return `Next: add what the gaps above say is missing to your documents and review again, or set ${where}'s threshold${configPath ? ` in ${configPath}` : ''} from ${failed.threshold}% to ${reachable}% for now and raise it as the documents grow.`;
  }
  if (failed.newGaps.length > 0) return `Next: close the ${failed.newGaps.length} new gap(s) of ${where} above, or make this run the baseline (--report-dir, then --baseline report.json).`;
  return `Next: close the gaps of ${where} above, or renew their expired waivers in ${configPath ?? 'compliance.yml'}.`;
}

/**
 * The baseline's gap keys that this run no longer lists, sorted: only of the frameworks evaluated
 * now, since a framework not mapped this run resolves nothing. The pull request comment and the
 * map action's `gaps-resolved` output both read this.
 */
export function resolvedGapKeys(frameworks: ReadonlyArray<{ framework: { key: string }; gaps: ReadonlyArray<{ key: string }> }>, baseline: ReadonlySet<string>): string[] {
  const current = new Set(frameworks.flatMap((result) => result.gaps.map((gap) => gap.key)));
  const evaluated = new Set(frameworks.map((result) => result.framework.key));
  return [...baseline].filter((key) => evaluated.has(frameworkOfGapKey(key)) && !current.has(key)).sort();
}
