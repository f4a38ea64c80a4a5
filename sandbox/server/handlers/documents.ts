/** generateDocument, mapDocument, getJob and downloadDocument. */
import { BLANK_TEXT, isBlankText, LIMITS, type DownloadFormat } from '../../../api/schemas/common.js';
import { findFramework } from '../../catalogue/index.js';
import type { DocumentModel } from '../../documentModel.js';
import { CONTENT_TYPES, renderDocx, renderMarkdown, renderPdf, UploadRejection } from '../../formats/index.js';
import { ExtractionBusy, ExtractionFailure } from '../../formats/upload/extractionPool.js';
import { documentTypes, SANDBOX_WATERMARK } from '../../generation/index.js';
import { mappingReportToDocument, mappingTextOfUpload } from '../../mapping/index.js';
import { HttpError, tooManyRequests } from '../httpError.js';
import type { JobKind, JobRecord } from '../jobStore.js';
import type { Account } from '../accounts.js';
import { randomUUID } from 'node:crypto';
import type { Services } from '../services.js';
import type { GenerationJobInput, GenerationJobResult, MappingJobInput, MappingJobResult } from '../workers.js';
import { frameworkNotFound, frameworkNotVerified } from './frameworks.js';
import type { HandlerTable, Reply } from './types.js';

const DEFAULT_DOCUMENT_TYPE = 'framework_reference';

/** The 202 body of every job-creating operation; paths are relative to the base URL. */
export function accepted(services: Services, job: JobRecord, extra: Record<string, unknown> = {}): Reply {
  const hasDocument = job.kind === 'generation' || job.kind === 'mapping';
  return {
    status: 202,
    body: {
      jobId: job.id,
      status: services.jobs.status(job, services.clock.now()),
      kind: job.kind,
      poll: `/jobs/${job.id}`,
      ...(hasDocument ? { document: `/documents/${job.id}` } : {}),
      estimatedSeconds: services.jobs.estimatedSeconds,
      ...extra,
    },
  };
}

/**
 * Charges for and records a job in one transaction. The charge comes first, under the job's id, so a
 * job that settles at once (job seconds 0) and fails is refunded what it was charged.
 */
function admitJob(
  services: Services,
  account: Account,
  operationId: string,
  init: { kind: JobKind; input: unknown; failOnRun: boolean; now: number },
): JobRecord {
  return services.tx(() => {
    const id = randomUUID();
    const chargedTokens = services.billing.charge(account, operationId, id, init.now);
    return services.jobs.create({ ...init, id, keyHash: account.keyHash, chargedTokens });
  });
}

function jobNotFound(): HttpError {
  return new HttpError(404, 'job_not_found', 'No job with this id exists for this key.', 'Use the jobId returned when the job was created, with the same key.');
}

function jobView(services: Services, job: JobRecord, now: number) {
  const status = services.jobs.status(job, now);
  const span = Math.max(1, job.dueAt - job.createdAt);
  return {
    jobId: job.id,
    kind: job.kind,
    status,
    createdAt: new Date(job.createdAt).toISOString(),
    updatedAt: new Date(job.finishedAt ?? (status === 'running' ? job.runningAt : job.createdAt)).toISOString(),
    progress: job.finalStatus ? 1 : Math.min(0.99, Math.max(0, (now - job.createdAt) / span)),
    estimatedSeconds: job.finalStatus ? 0 : Math.max(0, (job.dueAt - now) / 1000),
    ...(job.documentId ? { documentId: job.documentId } : {}),
    ...(job.documentVersion !== null ? { version: job.documentVersion } : {}),
    ...(job.kind === 'generation' || job.kind === 'mapping' ? { document: `/documents/${job.id}` } : {}),
    ...(job.finalStatus === 'failed' ? { error: { code: job.errorCode ?? 'failed', message: job.errorMessage ?? 'The job failed.' } } : {}),
  };
}

/** HTTP status of each upload rejection: over a size limit 413, over the time limit 422, else 400. */
const REJECTION_STATUS: Readonly<Record<UploadRejection['code'], number>> = {
  upload_too_large: 413,
  extraction_timeout: 422,
  unsupported_file_type: 400,
  unreadable_file: 400,
};

/** Mappings of one key waiting for or holding a mapping worker; beyond it a new one is 429 `mappings_busy`. */
export const MAX_PENDING_MAPPINGS_PER_KEY = 4;

/**
 * A key's mappings waiting for or holding a worker are bounded: beyond that one is refused before it
 * is admitted or charged, and (server.ts asks first) before its body of up to 2 MB is read and parsed
 * on the event loop, so one key's flood cannot fill the sandbox's memory or hold up other keys.
 */
export function refuseBusyMappings(services: Services, keyHash: string): void {
  const pending = services.mapping.pending(keyHash);
  if (pending >= MAX_PENDING_MAPPINGS_PER_KEY) {
    throw tooManyRequests('mappings_busy', `This key has ${pending} mappings waiting for or holding a mapping worker (at most ${MAX_PENDING_MAPPINGS_PER_KEY}). Nothing was charged.`, 1000, 'once one of them has finished');
  }
}

async function mappingText(services: Services, owner: string, input: { content?: string | undefined; file?: { data: Uint8Array | ArrayBuffer | Blob; filename: string; contentType?: string | undefined } | undefined }): Promise<string> {
  if (input.file === undefined) return input.content ?? '';
  const { data: raw, filename, contentType } = input.file;
  const data = raw instanceof Uint8Array ? raw : raw instanceof ArrayBuffer ? new Uint8Array(raw) : new Uint8Array(await raw.arrayBuffer());
  if (data.byteLength > LIMITS.uploadMaxBytes) {
    throw new HttpError(413, 'upload_too_large', `The file has ${data.byteLength.toLocaleString('en-US')} bytes; the limit is ${LIMITS.uploadMaxBytes.toLocaleString('en-US')}.`, 'Split the document or map its text as content.');
  }
  try {
    const extracted = await services.uploads.extract({ data, filename, ...(contentType ? { contentType } : {}) }, owner);
    return mappingTextOfUpload(extracted.text, extracted.kind);
  } catch (error) {
    if (error instanceof UploadRejection) {
      throw new HttpError(REJECTION_STATUS[error.code], error.code, error.message, error.hint, { details: error.limit ? { limit: error.limit } : {} });
    }
    if (error instanceof ExtractionBusy) {
      throw tooManyRequests('uploads_busy', `${error.message} Nothing was charged.`, error.retryAfterSeconds * 1000, 'or send the text as JSON {framework, content}');
    }
    // Anything else is the sandbox's own fault (a 500, logged by the server), not the file's.
    if (!(error instanceof ExtractionFailure)) throw error;
    throw new HttpError(400, 'unreadable_file', `The file ${filename} could not be read.`, 'Upload a valid DOCX, PDF, XLSX, PPTX or text file.');
  }
}

function renderDownload(job: JobRecord, format: DownloadFormat): Reply {
  let model: DocumentModel;
  let json: unknown;
  let basename: string;
  if (job.kind === 'generation') {
    const result = job.result as GenerationJobResult;
    model = result.model;
    basename = `${result.framework.slug}-${result.type}`;
    json = {
      jobId: job.id,
      title: model.title,
      type: result.type,
      framework: result.framework.name,
      frameworkSlug: result.framework.slug,
      mode: result.mode,
      ...(model.watermark ? { watermark: model.watermark } : {}),
      generatedAt: result.generatedAt,
      meta: Object.fromEntries(model.meta),
      sections: model.sections.map((section) => ({
        heading: section.heading,
        body: [...section.paragraphs, ...(section.bullets ?? []).map((b) => `- ${b}`)].join('\n\n'),
        paragraphs: section.paragraphs,
        ...(section.bullets ? { bullets: section.bullets } : {}),
        ...(section.table ? { table: section.table } : {}),
      })),
    };
  } else {
    const report = job.result as MappingJobResult;
    json = report;
    basename = `${report.framework.slug}-mapping`;
    model = mappingReportToDocument(report, report.mode === 'sandbox' ? { watermark: SANDBOX_WATERMARK } : {});
  }
  const filename = `${basename}-${job.id.slice(0, 8)}.${format}`;
  switch (format) {
    case 'json':
      return { status: 200, file: JSON.stringify(json), contentType: CONTENT_TYPES.json, filename };
    case 'md':
      return { status: 200, file: renderMarkdown(model), contentType: CONTENT_TYPES.md, filename };
    case 'pdf':
      return { status: 200, file: renderPdf(model), contentType: CONTENT_TYPES.pdf, filename };
    case 'docx':
      return { status: 200, file: renderDocx(model), contentType: CONTENT_TYPES.docx, filename };
  }
}

export const documentHandlers: Pick<HandlerTable, 'generateDocument' | 'mapDocument' | 'getJob' | 'downloadDocument'> = {
  generateDocument: ({ services, account, input, now, fault }) => {
    const framework = findFramework(input.framework);
    if (!framework) throw frameworkNotFound(input.framework);
    const type = input.type ?? DEFAULT_DOCUMENT_TYPE;
    if (!documentTypes.some((t) => t.id === type)) {
      throw new HttpError(400, 'unknown_document_type', `Unknown document type ${JSON.stringify(type.slice(0, 100))}.`, `Use one of: ${documentTypes.map((t) => t.id).join(', ')} (GET /capabilities).`);
    }
    const limits = services.options.limits[account.mode];
    if (services.jobs.openGenerations(account.keyHash, now) >= limits.concurrentGenerations) {
      throw new HttpError(409, 'job_already_running', 'A generation job is already in flight for this key.', 'Wait for it to complete (GET /jobs/{jobId}), then submit the next one.');
    }
    const counts = services.jobs.generationCounts(account.keyHash, now);
    if (counts.day.used >= limits.generationsPerDay) {
      throw tooManyRequests('quota_exceeded', `The daily generation quota of ${limits.generationsPerDay} is used up for this key.`, counts.day.freesAt - now, 'GET /usage shows the counters');
    }
    if (counts.thirtyDays.used >= limits.generationsPer30Days) {
      throw tooManyRequests('quota_exceeded', `The 30-day generation quota of ${limits.generationsPer30Days} is used up for this key.`, counts.thirtyDays.freesAt - now, 'GET /usage shows the counters');
    }
    // Undefined fields vanish when the job input is stored as JSON.
    const { organisation, company, sector, jurisdiction, context, humanize } = input;
    const jobInput: GenerationJobInput = { mode: account.mode, frameworkSlug: framework.slug, type, organisation, company, sector, jurisdiction, context, humanize };
    const job = admitJob(services, account, 'generateDocument', { kind: 'generation', input: jobInput, failOnRun: fault?.kind === 'job-fail', now });
    return accepted(services, services.jobs.get(account.keyHash, job.id)!, { framework: framework.slug, type });
  },

  mapDocument: async ({ services, account, input, now, fault }) => {
    const framework = findFramework(input.framework!);
    if (!framework) throw frameworkNotFound(input.framework!, { verifiedOnly: true });
    if (!framework.verified || !framework.controls?.length) throw frameworkNotVerified(framework);
    const text = await mappingText(services, account.keyHash, input);
    if (isBlankText(text)) {
      throw new HttpError(400, 'empty_document', `No text could be found in the document: it ${BLANK_TEXT}.`, 'Upload a document with text (scanned images are not read).');
    }
    // Checked again in the same turn as the admission: the body arrived and was read meanwhile.
    refuseBusyMappings(services, account.keyHash);
    const jobInput: MappingJobInput = { mode: account.mode, frameworkSlug: framework.slug, text, ...(input.title ? { title: input.title } : {}) };
    // Re-read the account: the upload was read asynchronously and the balance may have moved.
    const current = services.accounts.byHash(account.keyHash)!;
    const job = admitJob(services, current, 'mapDocument', { kind: 'mapping', input: jobInput, failOnRun: fault?.kind === 'job-fail', now });
    // The mapping runs in a worker thread: a job due at once (job seconds 0) answers with its result.
    return accepted(services, (await services.jobs.settled(account.keyHash, job.id))!, { framework: framework.slug });
  },

  getJob: async ({ services, account, input, now }) => {
    const job = await services.jobs.settled(account.keyHash, input.jobId);
    if (!job) throw jobNotFound();
    return { status: 200, body: jobView(services, job, now) };
  },

  downloadDocument: async ({ services, account, input, now }) => {
    const job = await services.jobs.settled(account.keyHash, input.jobId);
    if (!job) throw jobNotFound();
    if (job.kind !== 'generation' && job.kind !== 'mapping') {
      throw new HttpError(409, 'no_document', 'Library jobs produce no download.', job.documentId ? `Read the document with GET /library/documents/${job.documentId}.` : 'Read the library with GET /library.');
    }
    if (job.finalStatus === 'failed') {
      throw new HttpError(409, 'generation_failed', `The job failed: ${job.errorMessage ?? 'no reason given'}.`, 'Submit the request again; a failed job is not charged.', {
        details: { jobId: job.id, reason: { code: job.errorCode, message: job.errorMessage } },
      });
    }
    if (job.finalStatus !== 'completed') {
      const waitMs = Math.max(0, job.dueAt - now);
      throw new HttpError(409, 'not_ready', `The job is ${services.jobs.status(job, now)}; its document is not ready yet.`, `Poll GET /jobs/${job.id} until it is completed (about ${Math.ceil(waitMs / 1000)} s).`, {
        details: { jobId: job.id, status: services.jobs.status(job, now) },
        headers: { 'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))) },
      });
    }
    return renderDownload(job, input.format ?? 'json');
  },
};
