/**
 * `compliance library ingest FILE…` and `library refresh <id> FILE`: library writes from files, under
 * the same spend rules as sync (the price of each file shown, --dry-run, --max-tokens, the balance).
 * Every file is read and checked before anything is charged. Files are named as a shell user names
 * them and must lie in the repository the command runs in; each document's filename is its path
 * from the repository root, as sync gives it.
 */
import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { contentHash } from '../../api/contentHash.js';
import { assertMayWriteLibrary } from '../../review/events.js';
import { readRepoFiles } from '../../review/node/files.js';
import { documentTitle, holdsSameText, libraryContent, textHashes } from '../../review/syncPlan.js';
import { booleanFlag, integerFlag, listFlag, stringFlag, type Parsed } from './args.js';
import { describeError, EXIT, UsageError, type ExitCode } from './errors.js';
import { tokens } from './format.js';
import { table, type Output } from './output.js';
import type { Session } from './session.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { plannedTokens, spendStep, spentLine } from './spend.js';

interface Upload {
  path: string;
  /** What the library is sent: the file without its front matter, normalised. */
  content: string;
  /** The file as read. */
  raw: string;
}

/** The repository the current directory lies in: the nearest directory up from it holding .git, else the current directory. */
function repositoryRoot(cwd: string): string {
  for (let dir = cwd; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return cwd;
  }
}

/**
 * Each path as a shell user means it (absolute, or relative to the current directory, `..` and all),
 * as a path inside the repository; one outside it is refused, naming the root.
 */
function repositoryPaths(paths: readonly string[], cwd: string): { root: string; paths: string[] } {
  const root = repositoryRoot(cwd);
  return {
    root,
    paths: paths.map((path) => {
      const inRepo = relative(root, resolve(cwd, path));
      if (inRepo === '' || inRepo === '..' || inRepo.startsWith(`..${sep}`) || isAbsolute(inRepo)) {
        throw new UsageError(`${path}: outside the repository (${root}), whose files alone the library takes`, 'Give a file inside the repository (its root is the nearest directory with .git above the current one), or run the command from the repository the file belongs to.');
      }
      return inRepo.split(sep).join('/');
    }),
  };
}

/** The files as the library would receive them; every unreadable or out-of-limits file named at once (exit 2). */
async function readUploads(given: readonly string[], cwd = process.cwd()): Promise<Upload[]> {
  const { root, paths } = repositoryPaths(given, cwd);
  const files = await readRepoFiles(root, paths);
  const uploads = files.map((file) => ({ path: file.path, raw: file.content, ...libraryContent(file.content) }));
  const bad = uploads.filter((upload) => upload.problem);
  if (bad.length) throw new UsageError(bad.map((upload) => `${upload.path}: ${upload.problem}`).join('; '), 'Nothing was sent.');
  return uploads.map(({ path, content, raw }) => ({ path, content, raw }));
}

interface FileResult {
  path: string;
  outcome: 'ingested' | 'refreshed' | 'unchanged' | 'failed' | 'would ingest' | 'would refresh';
  documentId: string | null;
  tokens: number;
  message: string;
}

function render(results: readonly FileResult[], footer: string): string {
  return `${table(['File', 'Outcome', 'Document', 'Tokens', 'Note'], results.map((r) => [r.path, r.outcome, r.documentId ?? '—', r.tokens.toLocaleString('en-US'), r.message || '—']), { whole: [2] })}\n${footer}`;
}

/** A pull request's CI run never writes the library, which mirrors the default branch (review/'s event policy); a dry run is fine. */
function refuseInPullRequest(parsed: Parsed, what: string): void {
  if (booleanFlag(parsed.values, 'dry-run')) return;
  assertMayWriteLibrary(currentEventPolicy(), what, 'Write the library from the default branch (compliance sync on pushes to it); in a pull request add --dry-run.');
}

export async function ingestFiles(parsed: Parsed, out: Output, session: Session, paths: readonly string[]): Promise<ExitCode> {
  refuseInPullRequest(parsed, 'library ingest');
  const v = parsed.values;
  const category = stringFlag(v, 'category');
  const tags = listFlag(v, 'tags');
  const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
  const uploads = await readUploads(paths);
  const dryRun = booleanFlag(v, 'dry-run');
  const ingestAll = async (each: number): Promise<FileResult[]> => {
    const results: FileResult[] = [];
    for (const [index, upload] of uploads.entries()) {
      out.progress(`${index + 1}/${uploads.length} ingesting ${upload.path}`);
      try {
        const accepted = await session.client.ingestLibraryDocument({ title: documentTitle(upload.path, upload.content), content: upload.content, filename: upload.path, ...(category ? { category } : {}), ...(tags ? { tags } : {}) });
        const job = await session.client.waitForJob(accepted.jobId, { ...(accepted.estimatedSeconds !== undefined ? { estimatedSeconds: accepted.estimatedSeconds } : {}) });
        const documentId = accepted.documentId ?? job.documentId ?? null;
        results.push(job.status === 'completed'
          ? { path: upload.path, outcome: 'ingested', documentId, tokens: each, message: '' }
          : { path: upload.path, outcome: 'failed', documentId, tokens: 0, message: job.error?.message ?? `job ${job.status}` });
      } catch (error) {
        const described = describeError(error);
        results.push({ path: upload.path, outcome: 'failed', documentId: null, tokens: 0, message: `${described.message}${described.hint ? ` (${described.hint})` : ''}` });
      }
    }
    out.done();
    return results;
  };
  const priceEach = (plan: { estimate: { totalTokens: number } }) => plan.estimate.totalTokens / uploads.length;
  const step = await spendStep<FileResult[]>(
    session,
    out,
    [{ operationId: 'ingestLibraryDocument', count: uploads.length }],
    { maxTokens, dryRun, what: `${uploads.length} library ingest(s)`, settle: (results) => results.reduce((sum, r) => sum + r.tokens, 0) },
    (plan) => ingestAll(priceEach(plan)),
  );
  if (step.status === 'dry-run') {
    const results = uploads.map((u): FileResult => ({ path: u.path, outcome: 'would ingest', documentId: null, tokens: priceEach(step), message: documentTitle(u.path, u.content) }));
    out.result(() => render(results, `Dry run: nothing was sent. Total ${tokens(plannedTokens(step) ?? 0)} in live mode.`), () => ({ dryRun: true, plannedTokens: plannedTokens(step) ?? null, budget: step.budget, results }));
    return EXIT.ok;
  }
  // The rows show what each ingest drew: nothing for a sandbox key.
  const results = step.value.map((r) => ({ ...r, tokens: step.mode === 'live' ? r.tokens : 0 }));
  const failed = results.filter((r) => r.outcome === 'failed').length;
  out.result(
    () => render(results, `${results.length - failed} ingested, ${failed} failed. ${spentLine(step.mode, step.tokensSpent)}`),
    () => ({ dryRun: false, tokensSpent: step.tokensSpent, results }),
  );
  return failed ? EXIT.service : EXIT.ok;
}

export async function refreshFile(parsed: Parsed, out: Output, session: Session, id: string, path: string): Promise<ExitCode> {
  refuseInPullRequest(parsed, 'library refresh');
  const v = parsed.values;
  const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
  const [upload] = await readUploads([path]);
  const { content, raw } = upload as Upload;
  // The same text costs nothing: compared with the stored text first (free), front matter aside.
  const stored = await session.client.getLibraryDocument({ id, include: 'content' });
  const storedHash = stored.contentHash ?? (stored.content === undefined ? undefined : contentHash(stored.content));
  if (storedHash && holdsSameText(textHashes(raw), storedHash, stored.content === undefined ? undefined : textHashes(stored.content).sent)) {
    const result: FileResult = { path, outcome: 'unchanged', documentId: id, tokens: 0, message: 'same text as stored: nothing sent' };
    out.result(() => render([result], 'Nothing to refresh.'), () => ({ dryRun: booleanFlag(v, 'dry-run'), tokensSpent: 0, results: [result] }));
    return EXIT.ok;
  }
  const step = await spendStep(
    session,
    out,
    [{ operationId: 'refreshLibraryDocument', count: 1 }],
    // A failed refresh job is refunded: only a completed one counts.
    { maxTokens, dryRun: booleanFlag(v, 'dry-run'), what: `refreshing ${id}`, settle: ({ job }, plan) => (job.status === 'completed' ? plan.estimate.totalTokens : 0) },
    async () => {
      const accepted = await session.client.refreshLibraryDocument({ id, content });
      const job = await session.client.waitForJob(accepted.jobId, {
        ...(accepted.estimatedSeconds !== undefined ? { estimatedSeconds: accepted.estimatedSeconds } : {}),
        onProgress: (status) => out.progress(`refreshing ${id}: ${status.status}`),
      });
      out.done();
      return { accepted, job };
    },
  );
  if (step.status === 'dry-run') {
    const result: FileResult = { path, outcome: 'would refresh', documentId: id, tokens: plannedTokens(step) ?? 0, message: stored.title };
    out.result(() => render([result], `Dry run: nothing was sent. Total ${tokens(plannedTokens(step) ?? 0)} in live mode.`), () => ({ dryRun: true, plannedTokens: plannedTokens(step) ?? null, budget: step.budget, results: [result] }));
    return EXIT.ok;
  }
  const { accepted, job } = step.value;
  const ok = job.status === 'completed';
  const result: FileResult = { path, outcome: ok ? 'refreshed' : 'failed', documentId: id, tokens: step.tokensSpent, message: ok ? `version ${accepted.version ?? '?'}` : job.error?.message ?? `job ${job.status}` };
  out.result(() => render([result], spentLine(step.mode, result.tokens)), () => ({ dryRun: false, tokensSpent: result.tokens, results: [result] }));
  return ok ? EXIT.ok : EXIT.service;
}
