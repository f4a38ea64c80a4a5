/** The CLI's sink of review/'s one report publisher: files under --report-dir, download failures as warnings. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { PublishContext, ReportFormat } from '../../review/publish.js';
import { publishReport } from '../../review/node/publish.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import { stringFlag, type Parsed } from './args.js';
import type { Output } from './output.js';
import type { Repo } from './repo.js';
import type { ReviewRun } from './review.js';
import type { Session } from './session.js';

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
async function writeReports(
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

/** --report-dir and --formats: writes the files and returns their paths. */
export async function maybeWriteReports(parsed: Parsed, out: Output, run: ReviewRun): Promise<string[]> {
  const dir = stringFlag(parsed.values, 'report-dir');
  if (!dir || run.result.status !== 'completed') return [];
  return writeReports(out, run.session, run.repo, run.result.report, dir, run.formats, { ...(run.history ? { history: run.history } : {}), gateNotes: run.gateNotes });
}
