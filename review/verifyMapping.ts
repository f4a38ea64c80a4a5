/**
 * A mapping or a baseline that a cache or the checkout handed over counts only once the service
 * confirms it: each report is fetched again by its job id (a download, free) and every quote it
 * credits must stand in the text it is about. A stored mapping is checked against the documents
 * mapped now (otherwise they are mapped again, and charged within the cap); a baseline against
 * the base commit's documents, its gaps then taken from the service's reports, never from the file.
 */
import { downloadMappingReport } from '../api/jobs.js';
import type { ComplianceApi, MappingReportModel } from '../api/clientTypes.js';
import { ComplianceError } from '../api/errors.js';
import { settle } from '../api/settle.js';
import type { RepoFile } from './documents.js';
import { locateQuote } from './evidenceTrace.js';
import { frameworkKey, gapKey } from './keys.js';
import { combineReports, type SourcedReport } from './mapping.js';
import type { ReviewReport } from './reportDocument.js';

type Client = Pick<ComplianceApi, 'downloadDocument'>;
type Verified<T> = { value: T; rejected?: undefined } | { value?: undefined; rejected: string };

/** The first quote a report credits (a covered or partial control's evidence) that none of `files` contains. */
function uncreditedQuote(report: MappingReportModel, files: readonly RepoFile[]): string | undefined {
  for (const control of report.controls) {
    if (control.status === 'missing') continue;
    for (const evidence of control.evidence) {
      if (!files.some((file) => locateQuote(file.content, evidence.quote) !== undefined)) return `${control.id}: "${evidence.quote.slice(0, 80)}"`;
    }
  }
  return undefined;
}

/** Each report as the service holds it for its job id; a job the service does not know rejects the lot. */
async function serviceReports(client: Client, stored: readonly Pick<SourcedReport, 'source' | 'jobId'>[], signal: AbortSignal | undefined): Promise<Verified<SourcedReport[]>> {
  const reports: SourcedReport[] = [];
  for (const { source, jobId } of stored) {
    if (!jobId) return { rejected: 'a report without its job id' };
    // Settled, not caught: the n8n node bundles this, and n8n's lint wants no rethrow inside a catch.
    const downloaded = await settle(() => downloadMappingReport(client, jobId, { signal }));
    if (!downloaded.ok) {
      if (!(downloaded.error instanceof ComplianceError)) throw downloaded.error;
      return { rejected: `the service does not confirm job ${jobId} (${downloaded.error.code})` };
    }
    reports.push({ source, jobId, report: downloaded.value });
  }
  return reports.length > 0 ? { value: reports } : { rejected: 'no report' };
}

/**
 * A stored mapping's reports, fetched again from the service, when every quote they credit stands
 * in `files` (the documents mapped now); `rejected` says why not (the caller maps again).
 */
export async function verifiedReuse(client: Client, stored: ReadonlyArray<Pick<SourcedReport, 'source' | 'jobId'>>, files: readonly RepoFile[], signal?: AbortSignal): Promise<Verified<SourcedReport[]>> {
  const fetched = await serviceReports(client, stored, signal);
  if (!fetched.value) return fetched;
  for (const { report } of fetched.value) {
    const missing = uncreditedQuote(report, files);
    if (missing) return { rejected: `it credits a quote the documents do not contain (${missing})` };
  }
  return fetched;
}

/**
 * A saved report of the default branch as a baseline, when the service confirms it: every
 * framework's jobs fetched again, their coverage equal to the report's, every credited quote in
 * the base commit's documents. The gap keys are the service's reports'.
 */
export async function verifiedBaseline(client: Client, report: ReviewReport | undefined, baseFiles: readonly RepoFile[], signal?: AbortSignal): Promise<Verified<Set<string>>> {
  if (!report) return { rejected: 'it is not a report.json of this package (a raw mapping report carries no job ids to confirm)' };
  const gapKeys = new Set<string>();
  for (const framework of report.frameworks) {
    const fetched = await serviceReports(client, (framework.jobIds ?? []).map((jobId) => ({ source: 'combined', jobId })), signal);
    if (!fetched.value) return { rejected: `${framework.framework.name}: ${fetched.rejected}` };
    const combined = combineReports(fetched.value);
    if (Math.abs(combined.coverage - framework.coverage) > 0.05) {
      return { rejected: `${framework.framework.name}: it says ${framework.coverage}% where the service's reports say ${combined.coverage}%` };
    }
    for (const { report: each } of fetched.value) {
      const missing = uncreditedQuote(each, baseFiles);
      if (missing) return { rejected: `${framework.framework.name}: it credits a quote the base commit's documents do not contain (${missing})` };
    }
    const key = frameworkKey(combined.framework ?? {}, framework.framework.configured);
    for (const gap of combined.gaps) gapKeys.add(gapKey(key, gap.controlId));
  }
  return { value: gapKeys };
}
