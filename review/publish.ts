/**
 * The one report publisher: which formats exist, what each file is called, how each is rendered,
 * and what happens when one cannot be had. The CLI, the map and review actions and the n8n Review
 * operations all render through here; only where the bytes go differs (files in a directory,
 * n8n binary data). Rendered formats cost nothing; pdf and docx are the service's rendering of
 * each mapping job, downloaded (free), and a failed download is a warning, never a lost report.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import { ComplianceError } from '../api/errors.js';
import type { DownloadFormat } from '../api/schemas/common.js';
import { settle } from '../api/settle.js';
import { ReviewError } from './errors.js';
import { renderReportHtml } from './renderHtml.js';
import { renderReportJunit } from './renderJunit.js';
import { renderReportMarkdown } from './renderMarkdown.js';
import { renderReportSarif, type SarifOptions } from './renderSarif.js';
import type { ReviewReport } from './reportDocument.js';
import type { HistoryPoint } from './reportHistory.js';

const RENDERED_FORMATS = ['md', 'json', 'html', 'sarif', 'junit'] as const;
const DOWNLOADED_FORMATS = ['pdf', 'docx'] as const satisfies readonly DownloadFormat[];
export const REPORT_FORMATS = [...RENDERED_FORMATS, ...DOWNLOADED_FORMATS] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];
type RenderedFormat = (typeof RENDERED_FORMATS)[number];

/** What a run writes when no format is asked for: report.json (the next run's baseline) and report.md. */
export const DEFAULT_REPORT_FORMATS: readonly ReportFormat[] = ['md', 'json'];

const REPORT_FILE_NAMES: Readonly<Record<RenderedFormat, string>> = {
  md: 'report.md',
  json: 'report.json',
  html: 'report.html',
  sarif: 'report.sarif',
  junit: 'report.junit.xml',
};

const MEDIA_TYPES: Readonly<Record<ReportFormat, string>> = {
  md: 'text/markdown; charset=utf-8',
  json: 'application/json',
  html: 'text/html; charset=utf-8',
  sarif: 'application/sarif+json',
  junit: 'application/xml',
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

/**
 * A list of format names as a user typed it (`--formats`, `report-formats`, the n8n option),
 * checked: an unknown name is an error naming the field and the formats there are.
 */
export function parseReportFormats(values: readonly string[], field: string): ReportFormat[] {
  const formats: ReportFormat[] = [];
  for (const raw of values) {
    const name = raw.trim().toLowerCase();
    if (name === '') continue;
    const format = REPORT_FORMATS.find((known) => known === name);
    if (!format) {
      throw new ReviewError('invalid_config', `${field}: "${raw}" is not a report format`, `Use any of ${REPORT_FORMATS.join(', ')} (comma-separated).`);
    }
    if (!formats.includes(format)) formats.push(format);
  }
  return formats;
}

export interface PublishContext {
  /** Earlier reports' trend points (report.html). */
  history?: readonly HistoryPoint[];
  /** compliance.yml's path and text (SARIF locates gaps without evidence there). */
  configPath?: string;
  configText?: string;
  lostEvidence?: SarifOptions['lostEvidence'];
  /** The gate's notes (gateNotes): report.md shows them, so a merge request's note carries them too. */
  gateNotes?: readonly string[];
}

interface ReportFile {
  format: ReportFormat;
  /** File name, without a directory. */
  name: string;
  mediaType: string;
  data: string | Uint8Array;
}

/** The rendered formats' files, in the order asked (free, no I/O). */
export function renderReportFiles(report: ReviewReport, formats: readonly ReportFormat[], context: PublishContext = {}): ReportFile[] {
  const render: Record<RenderedFormat, () => string> = {
    md: () => renderReportMarkdown(report, { detail: 'full', ...(context.gateNotes ? { gateNotes: context.gateNotes } : {}) }),
    json: () => `${JSON.stringify(report, null, 2)}\n`,
    html: () => renderReportHtml(report, { ...(context.history ? { history: context.history } : {}) }),
    sarif: () =>
      renderReportSarif(report, {
        ...(context.configPath ? { configPath: context.configPath } : {}),
        ...(context.configText !== undefined ? { configText: context.configText } : {}),
        ...(context.lostEvidence ? { lostEvidence: context.lostEvidence } : {}),
      }),
    junit: () => renderReportJunit(report),
  };
  return formats.flatMap((format) => {
    if (format === 'pdf' || format === 'docx') return [];
    return [{ format, name: REPORT_FILE_NAMES[format], mediaType: MEDIA_TYPES[format], data: render[format]() }];
  });
}

export interface DownloadFailure {
  format: ReportFormat;
  framework: string;
  message: string;
}

/**
 * Each mapping job's report in pdf/docx as the service renders it (free): `<framework key>.pdf`,
 * `-2`, `-3` … for a framework mapped per document. A download the service refuses is a failure
 * listed (and the rest goes on); anything else (a bug, an abort) is thrown.
 */
async function downloadReportFiles(
  client: ComplianceApi,
  report: ReviewReport,
  formats: readonly ReportFormat[],
): Promise<{ files: ReportFile[]; failures: DownloadFailure[] }> {
  const files: ReportFile[] = [];
  const failures: DownloadFailure[] = [];
  for (const format of formats) {
    if (format !== 'pdf' && format !== 'docx') continue;
    for (const framework of report.frameworks) {
      for (const [index, jobId] of framework.jobIds.entries()) {
        const suffix = framework.jobIds.length > 1 ? `-${index + 1}` : '';
        // Settled, not caught: n8n's lint wants no rethrow inside a catch (its nodes convert errors at their boundary).
        const settled = await settle(() => client.downloadDocument({ jobId, format }));
        if (!settled.ok) {
          if (!(settled.error instanceof ComplianceError)) throw settled.error;
          failures.push({ format, framework: framework.framework.name, message: `Could not download the ${format} report of ${framework.framework.name}: ${settled.error.toDisplayString()}` });
          continue;
        }
        const download = settled.value;
        const data = download.kind === 'binary' ? download.data : download.kind === 'text' ? download.text : JSON.stringify(download.data, null, 2);
        files.push({ format, name: `${framework.framework.key}${suffix}.${format}`, mediaType: MEDIA_TYPES[format], data });
      }
    }
  }
  return { files, failures };
}

/** Every file of the report in `formats`: rendered ones, then the downloads. */
export async function buildReportFiles(
  client: ComplianceApi | undefined,
  report: ReviewReport,
  formats: readonly ReportFormat[],
  context: PublishContext = {},
): Promise<{ files: ReportFile[]; failures: DownloadFailure[] }> {
  const rendered = renderReportFiles(report, formats, context);
  const downloads = formats.filter((format) => format === 'pdf' || format === 'docx');
  if (downloads.length === 0) return { files: rendered, failures: [] };
  if (!client) {
    return { files: rendered, failures: downloads.map((format) => ({ format, framework: '', message: `The ${format} report is the service's rendering: it needs a connection, and this run had none.` })) };
  }
  const downloaded = await downloadReportFiles(client, report, formats);
  return { files: [...rendered, ...downloaded.files], failures: downloaded.failures };
}
