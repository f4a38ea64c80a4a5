/**
 * `compliance generate --framework F`: one document in one command (submit, wait with progress,
 * download), independent of compliance.yml. The type and framework are checked against GET
 * /capabilities (free) before anything is charged.
 */
import type { DownloadFormat } from '../../api/schemas/common.js';
import { generationCalls } from '../../review/generation.js';
import { booleanFlag, integerFlag, stringFlag, type Parsed } from './args.js';
import { saveDownload } from './download.js';
import { EXIT, ExternalServiceError, UsageError, type ExitCode } from './errors.js';
import { resolveFrameworkArgument } from './frameworkMatch.js';
import { fields, type Output } from './output.js';
import type { Session } from './session.js';
import { plannedTokens, spendStep, spentLine, tokensSpent } from './spend.js';
import { didYouMean } from './suggest.js';

/** The document type, checked against the service's list: a wrong one is a usage error naming the valid ones. */
export function checkDocumentType(type: string, known: ReadonlyArray<{ id: string }>): string {
  const ids = known.map((t) => t.id);
  if (ids.length === 0 || ids.includes(type)) return type;
  const suggestion = didYouMean(type, ids);
  throw new UsageError(`unknown document type ${JSON.stringify(type)}${suggestion ? `. ${suggestion}` : ''}`, `The service generates: ${ids.join(', ')} (compliance call getCapabilities).`);
}

export async function generateOne(parsed: Parsed, out: Output, session: Session, options: { framework: string; format: DownloadFormat }): Promise<ExitCode> {
  const v = parsed.values;
  const maxTokens = integerFlag(v, 'max-tokens', { min: 0 });
  const timeout = integerFlag(v, 'timeout', { min: 1 });
  const output = stringFlag(v, 'output');
  const { client } = session;
  const capabilities = await client.getCapabilities();
  const framework = resolveFrameworkArgument(options.framework, capabilities.verifiedFrameworks);
  const typed = stringFlag(v, 'type');
  const type = typed === undefined ? undefined : checkDocumentType(typed, capabilities.documentTypes);
  const step = await spendStep(
    session,
    out,
    [generationCalls(1)],
    { maxTokens, dryRun: booleanFlag(v, 'dry-run'), what: `one ${type ?? 'document'} for ${framework}` },
    () => client.generateDocument({ framework, ...(type ? { type } : {}) }),
  );
  if (step.status === 'dry-run') {
    out.result(
      () => `Dry run: would generate one ${type ?? 'document (the service default type)'} for ${framework} as ${options.format}; nothing was sent.`,
      () => ({ dryRun: true, framework, type: type ?? null, format: options.format, plannedTokens: plannedTokens(step) ?? null, budget: step.budget }),
    );
    return EXIT.ok;
  }
  const job = step.value;
  if (booleanFlag(v, 'no-wait')) {
    out.result(
      () => [fields([['Job', job.jobId], ['Status', job.status], ['Framework', framework], ['Type', type]]), '',
        `Then: compliance jobs wait ${job.jobId} && compliance download ${job.jobId} --format ${options.format}${output ? ` -o ${output}` : ''}`].join('\n'),
      () => ({ ...job, framework, type: type ?? null, format: options.format }),
    );
    return EXIT.ok;
  }
  const finished = await client.waitForJob(job.jobId, {
    ...(timeout !== undefined ? { timeoutMs: timeout * 1000 } : {}),
    onProgress: (status) => out.progress(`generating ${framework}: ${status.status}${status.progress !== undefined ? ` ${Math.round(status.progress * 100)}%` : ''}`),
  });
  out.done();
  if (finished.status !== 'completed') {
    throw new ExternalServiceError('job_failed', `job ${job.jobId} ended ${finished.status}${finished.error ? `: ${finished.error.message}` : ''}`, `compliance jobs get ${job.jobId} shows it; nothing is charged for a failed generation.`);
  }
  // Charged once completed; the line goes to stderr, as stdout may carry the document itself.
  const spent = tokensSpent(step);
  out.notice(spentLine(step.mode, spent));
  const download = await client.downloadDocument({ jobId: job.jobId, format: options.format });
  // Text with no -o goes to stdout; a binary format is saved under the service's file name.
  const target = output ?? (download.kind === 'binary' ? download.filename : undefined);
  if (out.json && !target) {
    out.printJson({ jobId: job.jobId, framework, type: type ?? null, format: options.format, path: null, tokensSpent: spent ?? null, contentType: download.contentType, ...(download.kind === 'json' ? { data: download.data } : download.kind === 'text' ? { text: download.text } : {}) });
    return EXIT.ok;
  }
  const path = await saveDownload(download, target, out);
  if (path) {
    out.result(
      () => `Wrote ${path} (${download.contentType}, job ${job.jobId}).`,
      () => ({ jobId: job.jobId, framework, type: type ?? null, format: options.format, path, tokensSpent: spent ?? null, contentType: download.contentType, bytes: download.kind === 'binary' ? download.data.byteLength : undefined }),
    );
  }
  return EXIT.ok;
}
