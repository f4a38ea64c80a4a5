/** Writing a review's report files: report.md, report.json, and the mapping reports as pdf/docx. */
import { join, resolve } from 'node:path';
import type { DownloadFormat } from '../../api/schemas/common.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import { renderReportMarkdown } from '../../review/renderMarkdown.js';
import { writeFileAtomic } from '../../review/node/files.js';
import type { Session } from './session.js';

export const REPORT_FORMATS = ['md', 'json', 'pdf', 'docx'] as const satisfies readonly DownloadFormat[];

/** Writes the report in each format into `dir` (created); returns the paths written. */
export async function writeReports(session: Session, report: ReviewReport, dir: string, formats: readonly DownloadFormat[]): Promise<string[]> {
  const written: string[] = [];
  const target = resolve(dir);
  if (formats.includes('md')) {
    const path = join(target, 'report.md');
    await writeFileAtomic(path, renderReportMarkdown(report, { detail: 'full' }));
    written.push(path);
  }
  if (formats.includes('json')) {
    const path = join(target, 'report.json');
    await writeFileAtomic(path, `${JSON.stringify(report, null, 2)}\n`);
    written.push(path);
  }
  for (const format of formats.filter((f) => f === 'pdf' || f === 'docx')) {
    for (const framework of report.frameworks) {
      for (const [index, jobId] of framework.jobIds.entries()) {
        const download = await session.client.downloadDocument({ jobId, format });
        const suffix = framework.jobIds.length > 1 ? `-${index + 1}` : '';
        const path = join(target, `${framework.framework.key}${suffix}.${format}`);
        await writeFileAtomic(path, download.kind === 'binary' ? download.data : download.kind === 'text' ? download.text : JSON.stringify(download.data));
        written.push(path);
      }
    }
  }
  return written;
}
