/**
 * The report publisher's file sink for the CLI and the actions: every file of review/publish.ts
 * written into one directory inside the checkout through the one confined writer. Reading the
 * history for the trend and the commit for evidence links are here too (Node I/O).
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { ReviewError } from '../errors.js';
import { buildReportFiles, type DownloadFailure, type PublishContext, type ReportFormat } from '../publish.js';
import type { ReviewReport } from '../reportDocument.js';
import { historyPoint, type HistoryPoint } from '../reportHistory.js';
import { writeRepoFile } from './files.js';
import { readReportFile } from './report.js';

interface PublishedReport {
  /** The directory, absolute. */
  dir: string;
  /** Absolute path of each file written, in the order written. */
  files: Array<{ format: ReportFormat; path: string }>;
  /** Downloads the service refused: the caller shows each as a warning. */
  failures: DownloadFailure[];
}

interface PublishOptions {
  client: ComplianceApi | undefined;
  report: ReviewReport;
  /** The checkout: nothing is written outside it. */
  root: string;
  /** Relative to root, or absolute inside it. */
  dir: string;
  formats: readonly ReportFormat[];
  context?: PublishContext;
}

export async function publishReport(options: PublishOptions): Promise<PublishedReport> {
  const { files, failures } = await buildReportFiles(options.client, options.report, options.formats, options.context);
  const dir = isAbsolute(options.dir) ? options.dir : resolve(options.root, options.dir);
  const written: PublishedReport['files'] = [];
  for (const file of files) written.push({ format: file.format, path: await writeRepoFile(options.root, join(dir, file.name), file.data) });
  return { dir, files: written, failures };
}

/** The path written for `format`, if any. */
export function publishedPath(published: PublishedReport | undefined, format: ReportFormat): string | undefined {
  return published?.files.find((file) => file.format === format)?.path;
}

/**
 * The trend's earlier reports: every `*.json` review report in `dir` (`--history`, the action's
 * `history` input), each through the one report reader, so a stray file is an error naming it.
 */
export async function readHistory(dir: string, field: string, root?: string): Promise<HistoryPoint[]> {
  const absolute = root && !isAbsolute(dir) ? resolve(root, dir) : dir;
  let names: string[];
  try {
    names = (await readdir(absolute)).filter((name) => name.endsWith('.json')).sort();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReviewError('invalid_report', `${field} ${dir}: ${code === 'ENOENT' ? 'no such directory' : code === 'ENOTDIR' ? 'is not a directory' : (error as Error).message}`,
      'Give the directory that keeps earlier report.json files (the scheduled-review template keeps them).');
  }
  const points: HistoryPoint[] = [];
  for (const name of names) {
    const { report } = await readReportFile(join(absolute, name), { role: `${field} file` });
    if (report) points.push(historyPoint(report));
  }
  return points;
}

