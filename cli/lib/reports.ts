/** Writing a review's report files: report.md, report.json, and the mapping reports as pdf/docx. */
import { join } from 'node:path';
import type { DownloadFormat } from '../../api/schemas/common.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import { renderReportMarkdown } from '../../review/renderMarkdown.js';
import { writeRepoFile } from '../../review/node/files.js';
import type { Session } from './session.js';

export const REPORT_FORMATS = ['md', 'json', 'pdf', 'docx'] as const satisfies readonly DownloadFormat[];

/** Writes the report in each format into `dir` (created, inside the working directory); returns the paths written. */
export async function writeReports(session: Session, report: ReviewReport, dir: string, formats: readonly DownloadFormat[]): Promise<string[]> {
  const written: string[] = [];
  if (formats.includes('md')) {
    written.push(await writeRepoFile(process.cwd(), join(dir, 'report.md'), renderReportMarkdown(report, { detail: 'full' })));
  }
  if (formats.includes('json')) {
    written.push(await writeRepoFile(process.cwd(), join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`));
  }
  for (const format of formats.filter((f) => f === 'pdf' || f === 'docx')) {
    for (const framework of report.frameworks) {
      for (const [index, jobId] of framework.jobIds.entries()) {
        const download = await session.client.downloadDocument({ jobId, format });
        const suffix = framework.jobIds.length > 1 ? `-${index + 1}` : '';
        const path = join(dir, `${framework.framework.key}${suffix}.${format}`);
        written.push(await writeRepoFile(process.cwd(), path, download.kind === 'binary' ? download.data : download.kind === 'text' ? download.text : JSON.stringify(download.data)));
      }
    }
  }
  return written;
}
