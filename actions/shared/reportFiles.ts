/** The report files the map and review actions write: report.json, report.md and the other formats. */
import type { ComplianceApi } from '../../api/clientTypes.js';
import type { PublishContext, ReportFormat, ReviewReport } from '../../review/index.js';
import { publishedPath, publishReport } from '../../review/node/index.js';
import { log } from './runtime/log.js';

export interface WrittenReport {
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
