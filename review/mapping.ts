/**
 * Mapping a policy set against a framework: combined (one upload joining the files, each under a
 * header naming it, so evidence cites files; one charge) or one upload per document.
 */
import type { ComplianceApi, JobStatusModel, MappingReportModel } from '../api/clientTypes.js';
import { BLANK_TEXT, isBlankText, sourceFileHeader } from '../api/schemas/common.js';
import { mayHaveCharged, type PlannedCalls } from './budget.js';
import type { MappingMode } from './config.js';
import { forEachConcurrent } from './concurrency.js';
import type { RepoFile } from './documents.js';
import { ReviewError } from './errors.js';
import { abortedError } from '../api/abort.js';
import { normaliseContent } from '../api/contentHash.js';
import { settle } from '../api/settle.js';
import { blankFrontMatter } from './frontMatter.js';

/** What the service is sent of a document: its text without front matter (blanked, so lines keep their numbers). */
export function policyText(content: string): string {
  return normaliseContent(blankFrontMatter(content));
}

/**
 * The files joined into one text, each under `=== FILE: <path> ===`. The file starts on the line
 * right after its header: the service counts a quote's line from the header, so that line number is
 * the line in the file (a blank line between them put every quote one line low).
 */
function buildPolicySet(files: readonly RepoFile[]): string {
  return files.map((file) => `${sourceFileHeader(file.path)}\n${policyText(file.content)}`).join('\n');
}

/** The charged calls of mapping: one upload when combined, one per file otherwise. */
export function mappingCalls(mode: MappingMode, fileCount: number): PlannedCalls {
  return { operationId: 'mapDocument', count: mode === 'combined' ? Math.min(1, fileCount) : fileCount };
}

export interface SourcedReport {
  /** The mapped file's path, or `combined` for a policy set. */
  source: string;
  jobId: string;
  report: MappingReportModel;
}

interface MappingRun {
  framework: string;
  mode: MappingMode;
  reports: SourcedReport[];
}

interface MappingOptions {
  framework: string;
  files: readonly RepoFile[];
  mode: MappingMode;
  /** Title of the combined upload. */
  title?: string;
  concurrency?: number;
  onProgress?: (event: { source: string; job: JobStatusModel }) => void;
  /**
   * Told once for each upload that was or may have been charged, as it ends: `charged` when its job
   * completed (the charge stands, even if the download then failed), `maybe` when it failed after
   * the service admitted it (a job that fails is refunded; one whose wait failed may still complete)
   * or in a way that may have been admitted. An upload refused before admission, or never started,
   * is not told.
   */
  onUploadSettled?: (upload: { source: string; charge: 'charged' | 'maybe' }) => void;
  signal?: AbortSignal;
}

const COMBINED_SOURCE = 'combined';

/**
 * Refuses, before anything is sent, a mapping that would pay for blank text: a blank document of its
 * own (one upload each), or a policy set of blank documents only (its file headers are no text).
 */
function refuseBlankDocuments(options: MappingOptions): void {
  const blank = options.files.filter((file) => isBlankText(policyText(file.content)));
  if (blank.length === 0 || (options.mode === 'combined' && blank.length < options.files.length)) return;
  throw new ReviewError(
    'empty_document',
    `framework ${options.framework}: ${blank.map((file) => file.path).join(', ')} ${BLANK_TEXT}; nothing was sent or charged`,
    "Give the document its text, or leave it out of the framework's documents in compliance.yml.",
  );
}

export async function runMapping(client: ComplianceApi, options: MappingOptions): Promise<MappingRun> {
  if (options.files.length === 0) {
    throw new ReviewError('glob_no_match', `framework ${options.framework}: no document to map`);
  }
  refuseBlankDocuments(options);
  const map = async (source: string, content: string, title: string): Promise<SourcedReport> => {
    let admitted = false;
    let completed = false;
    // Settled, not caught: the n8n node bundles this, and n8n's lint wants no rethrow inside a catch.
    const mapped = await settle(() => client.mapAndDownload(
      { framework: options.framework, content, title },
      {
        signal: options.signal,
        onAccepted: () => (admitted = true),
        onProgress: (job) => {
          completed ||= job.status === 'completed';
          options.onProgress?.({ source, job });
        },
      },
    ));
    if (mapped.ok || completed) options.onUploadSettled?.({ source, charge: 'charged' });
    else if (admitted || mayHaveCharged(mapped.error)) options.onUploadSettled?.({ source, charge: 'maybe' });
    if (mapped.ok) return { source, jobId: mapped.value.job.jobId, report: mapped.value.report };
    throw mapped.error;
  };
  if (options.mode === 'combined') {
    const title = options.title ?? `Policy set (${options.files.length} document${options.files.length === 1 ? '' : 's'})`;
    return { framework: options.framework, mode: 'combined', reports: [await map(COMBINED_SOURCE, buildPolicySet(options.files), title)] };
  }
  const reports: SourcedReport[] = [];
  await forEachConcurrent(
    options.files,
    options.concurrency ?? 2,
    async (file, index) => {
      reports[index] = await map(file.path, policyText(file.content), file.path);
    },
    options.signal,
  );
  // An abort stops the uploads without failing one: with documents left unmapped, this is no mapping of the set.
  if (options.files.some((_, index) => reports[index] === undefined)) throw abortedError('mapDocument', options.signal);
  return { framework: options.framework, mode: 'per-document', reports };
}

const STATUS_RANK = { missing: 0, partial: 1, covered: 2 } as const;

/**
 * Per-document reports merged into one view of the policy set: a control takes its best status
 * across the documents, with the evidence of all; coverage counts covered 1, partial ½, missing 0.
 */
export function combineReports(reports: readonly SourcedReport[]): MappingReportModel {
  const first = reports[0];
  if (!first) throw new ReviewError('invalid_report', 'no mapping report to evaluate');
  if (reports.length === 1) return withSources(first);
  const controls = new Map<string, MappingReportModel['controls'][number]>();
  const gaps = new Map<string, MappingReportModel['gaps'][number]>();
  for (const sourced of reports) {
    const report = withSources(sourced);
    for (const control of report.controls) {
      const seen = controls.get(control.id);
      if (!seen) {
        controls.set(control.id, { ...control, evidence: [...control.evidence] });
        continue;
      }
      const better = STATUS_RANK[control.status] > STATUS_RANK[seen.status];
      controls.set(control.id, { ...(better ? control : seen), evidence: [...seen.evidence, ...control.evidence] });
    }
    for (const gap of report.gaps) {
      const seen = gaps.get(gap.controlId);
      if (!seen || STATUS_RANK[gap.status] > STATUS_RANK[seen.status]) gaps.set(gap.controlId, gap);
    }
  }
  const merged = [...controls.values()];
  const covered = merged.filter((control) => control.status === 'covered').length;
  const partial = merged.filter((control) => control.status === 'partial').length;
  return {
    ...first.report,
    jobId: undefined,
    coverage: merged.length === 0 ? Number.NaN : Math.round(((covered + partial / 2) / merged.length) * 1000) / 10,
    summary: { controls: merged.length, covered, partial, missing: merged.length - covered - partial },
    controls: merged,
    // A gap closed by another document is no gap of the set.
    gaps: [...gaps.values()].filter((gap) => controls.get(gap.controlId)?.status !== 'covered'),
  };
}

/** Evidence from a per-document report cites its file even when the service did not say so. */
function withSources(sourced: SourcedReport): MappingReportModel {
  if (sourced.source === COMBINED_SOURCE) return sourced.report;
  return {
    ...sourced.report,
    controls: sourced.report.controls.map((control) => ({
      ...control,
      evidence: control.evidence.map((quote) => ({ ...quote, location: { ...quote.location, source: quote.location.source ?? sourced.source } })),
    })),
  };
}
