/**
 * `compliance library ingest FILE…` and `library refresh <id> FILE`: library writes from files, under
 * the same spend rules as sync (the price of each file shown, --dry-run, --max-tokens, the balance).
 * Every file is read and checked before anything is charged.
 */
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
import { guardSpend, spentLine } from './spend.js';

interface Upload {
  path: string;
  /** What the library is sent: the file without its front matter, normalised. */
  content: string;
  /** The file as read. */
  raw: string;
}

/** The files as the library would receive them; every unreadable or out-of-limits file named at once (exit 2). */
async function readUploads(paths: readonly string[], root = process.cwd()): Promise<Upload[]> {
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
  const decision = await guardSpend(session, out, [{ operationId: 'ingestLibraryDocument', count: uploads.length }], {
    ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun: booleanFlag(v, 'dry-run'), what: `${uploads.length} library ingest(s)`,
  });
  const each = decision.plannedTokens === undefined ? 0 : decision.plannedTokens / uploads.length;
  if (!decision.proceed) {
    const results = uploads.map((u): FileResult => ({ path: u.path, outcome: 'would ingest', documentId: null, tokens: each, message: documentTitle(u.path, u.content) }));
    out.result(() => render(results, `Dry run: nothing was sent. Total ${tokens(decision.plannedTokens ?? 0)} in live mode.`), () => ({ dryRun: true, plannedTokens: decision.plannedTokens ?? null, budget: decision.budget, results }));
    return EXIT.ok;
  }
  const results: FileResult[] = [];
  for (const [index, upload] of uploads.entries()) {
    out.progress(`${index + 1}/${uploads.length} ingesting ${upload.path}`);
    try {
      const accepted = await session.client.ingestLibraryDocument({ title: documentTitle(upload.path, upload.content), content: upload.content, filename: upload.path, ...(category ? { category } : {}), ...(tags ? { tags } : {}) });
      const job = await session.client.waitForJob(accepted.jobId, { ...(accepted.estimatedSeconds !== undefined ? { estimatedSeconds: accepted.estimatedSeconds } : {}) });
      const documentId = accepted.documentId ?? job.documentId ?? null;
      results.push(job.status === 'completed'
        ? { path: upload.path, outcome: 'ingested', documentId, tokens: decision.mode === 'live' ? each : 0, message: '' }
        : { path: upload.path, outcome: 'failed', documentId, tokens: 0, message: job.error?.message ?? `job ${job.status}` });
    } catch (error) {
      const described = describeError(error);
      results.push({ path: upload.path, outcome: 'failed', documentId: null, tokens: 0, message: `${described.message}${described.hint ? ` (${described.hint})` : ''}` });
    }
  }
  out.done();
  const spent = results.reduce((sum, r) => sum + r.tokens, 0);
  const failed = results.filter((r) => r.outcome === 'failed').length;
  out.result(
    () => render(results, `${results.length - failed} ingested, ${failed} failed. ${spentLine(decision.mode, spent)}`),
    () => ({ dryRun: false, tokensSpent: spent, results }),
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
  const decision = await guardSpend(session, out, [{ operationId: 'refreshLibraryDocument', count: 1 }], {
    ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun: booleanFlag(v, 'dry-run'), what: `refreshing ${id}`,
  });
  const price = decision.plannedTokens ?? 0;
  if (!decision.proceed) {
    const result: FileResult = { path, outcome: 'would refresh', documentId: id, tokens: price, message: stored.title };
    out.result(() => render([result], `Dry run: nothing was sent. Total ${tokens(price)} in live mode.`), () => ({ dryRun: true, plannedTokens: decision.plannedTokens ?? null, budget: decision.budget, results: [result] }));
    return EXIT.ok;
  }
  const accepted = await session.client.refreshLibraryDocument({ id, content });
  const job = await session.client.waitForJob(accepted.jobId, {
    ...(accepted.estimatedSeconds !== undefined ? { estimatedSeconds: accepted.estimatedSeconds } : {}),
    onProgress: (status) => out.progress(`refreshing ${id}: ${status.status}`),
  });
  out.done();
  const ok = job.status === 'completed';
  const result: FileResult = { path, outcome: ok ? 'refreshed' : 'failed', documentId: id, tokens: ok && decision.mode === 'live' ? price : 0, message: ok ? `version ${accepted.version ?? '?'}` : job.error?.message ?? `job ${job.status}` };
  out.result(() => render([result], spentLine(decision.mode, result.tokens)), () => ({ dryRun: false, tokensSpent: result.tokens, results: [result] }));
  return ok ? EXIT.ok : EXIT.service;
}
