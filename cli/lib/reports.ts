/** The CLI's sink of review/'s one report publisher: files under --report-dir, download failures as warnings. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PublishContext, ReportFormat } from '../../review/publish.js';
import { publishReport } from '../../review/node/publish.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import type { Output } from './output.js';
import type { Repo } from './repo.js';
import type { Session } from './session.js';

export { REPORT_FORMATS } from '../../review/publish.js';

/** compliance.yml's text, when the run read one (SARIF points gaps without evidence at its framework's line). */
async function configContext(repo: Repo): Promise<PublishContext> {
  if (repo.configPath === '(command line)') return {};
  try {
    return { configPath: repo.configPath, configText: await readFile(resolve(repo.root, repo.configPath), 'utf8') };
  } catch {
    return { configPath: repo.configPath };
  }
}

/** Writes the report in each format into `dir` (created, inside the working directory); returns the paths written. */
export async function writeReports(
  out: Output,
  session: Session,
  repo: Repo,
  report: ReviewReport,
  dir: string,
  formats: readonly ReportFormat[],
  context: PublishContext = {},
): Promise<string[]> {
  const published = await publishReport({ client: session.client, report, root: process.cwd(), dir, formats, context: { ...(await configContext(repo)), ...context } });
  for (const failure of published.failures) out.warn(failure.message);
  return published.files.map((file) => file.path);
}
