/** Jobs: the 202 answer that creates one, and a job's status with its failure reason. */
import type { z } from 'zod/v4/mini';
import type { jobAccepted, jobStatus } from '../schemas/responses.js';
import type { JobStatus } from '../schemas/common.js';
import {
  type JsonObject,
  type NormalizeContext,
  isRecord,
  objectOf,
  pickNumber,
  pickText,
  token,
  toText,
  unexpected,
  defined,
} from './read.js';

type JobAcceptedModel = z.output<typeof jobAccepted>;
type JobStatusModel = z.output<typeof jobStatus>;

const JOB_ID_NAMES = ['jobId', 'job_id', 'job.id', 'job.jobId', 'id'];
const STATUS_NAMES = ['status', 'state', 'job.status', 'job.state'];

const STATUS_ALIASES: Record<string, JobStatus> = {
  queued: 'queued', pending: 'queued', waiting: 'queued', accepted: 'queued', created: 'queued', submitted: 'queued',
  running: 'running', processing: 'running', in_progress: 'running', started: 'running', active: 'running', working: 'running',
  completed: 'completed', complete: 'completed', done: 'completed', succeeded: 'completed', success: 'completed', finished: 'completed', ready: 'completed',
  failed: 'failed', failure: 'failed', error: 'failed', errored: 'failed', cancelled: 'failed', canceled: 'failed',
};

function normalizeJobState(value: string | undefined): JobStatus | undefined {
  return value === undefined ? undefined : STATUS_ALIASES[token(value)];
}

/** `progress` as 0..1, whether the service reports a fraction or a percentage. */
function progressOf(object: JsonObject): number | undefined {
  const progress = pickNumber(object, ['progress', 'percentComplete', 'percent', 'progressPercent']);
  if (progress === undefined) return undefined;
  return progress > 1 ? Math.min(progress / 100, 1) : Math.max(progress, 0);
}

/**
 * The reason a job failed, wherever the service puts it: `error` (object or string),
 * `failureReason`, `failure`, `reason`, `message`, `errorMessage`…
 */
function jobFailureReason(raw: unknown): { code: string; message: string } | undefined {
  if (!isRecord(raw)) return undefined;
  const object = isRecord(raw.job) ? { ...raw.job, ...raw } : raw;
  for (const name of ['error', 'failure', 'failureReason', 'failure_reason', 'reason', 'errorMessage', 'error_message', 'message', 'detail']) {
    const value = object[name];
    if (isRecord(value)) {
      const message = pickText(value, ['message', 'reason', 'detail', 'description', 'text']);
      const code = pickText(value, ['code', 'type', 'kind']);
      if (message !== undefined || code !== undefined) {
        return { code: code ?? 'job_failed', message: message ?? code ?? 'the job failed' };
      }
    }
    const text = toText(value);
    if (text) {
      const code = pickText(object, ['errorCode', 'error_code', 'failureCode', 'code']);
      return { code: code ?? 'job_failed', message: text };
    }
  }
  return undefined;
}

export function normalizeJobStatus(raw: unknown, context: NormalizeContext): JobStatusModel {
  const object = objectOf(raw, context, 'job status');
  const state = pickText(object, STATUS_NAMES);
  const status = normalizeJobState(state);
  if (status === undefined) {
    throw unexpected(context, state === undefined ? 'job status' : `known job status (got "${state}")`, STATUS_NAMES, object);
  }
  const jobId = pickText(object, JOB_ID_NAMES) ?? toText(context.input?.jobId);
  if (jobId === undefined) throw unexpected(context, 'job id', JOB_ID_NAMES, object);
  const failure = status === 'failed' ? (jobFailureReason(object) ?? { code: 'job_failed', message: 'the job failed without a reason' }) : undefined;
  return defined({
    ...object,
    jobId,
    status,
    progress: progressOf(object),
    estimatedSeconds: pickNumber(object, ['estimatedSeconds', 'estimated_seconds', 'etaSeconds', 'eta']),
    documentId: pickText(object, ['documentId', 'document_id', 'libraryDocumentId', 'document.id']),
    error: failure,
  }) as JobStatusModel;
}

export function normalizeJobAccepted(raw: unknown, context: NormalizeContext): JobAcceptedModel {
  const object = objectOf(raw, context, 'job');
  const jobId = pickText(object, JOB_ID_NAMES);
  if (jobId === undefined) throw unexpected(context, 'job id', JOB_ID_NAMES, object);
  const documentValue = object.document;
  return defined({
    ...object,
    jobId,
    status: normalizeJobState(pickText(object, STATUS_NAMES)) ?? 'queued',
    poll: pickText(object, ['poll', 'pollUrl', 'poll_url', 'statusUrl', 'links.poll', 'links.status']) ?? `/jobs/${jobId}`,
    document:
      typeof documentValue === 'string'
        ? documentValue
        : pickText(object, ['documentUrl', 'downloadUrl', 'download', 'links.document', 'links.download']),
    estimatedSeconds: pickNumber(object, ['estimatedSeconds', 'estimated_seconds', 'etaSeconds', 'eta']) ?? 0,
    documentId: pickText(object, ['documentId', 'document_id', 'libraryDocumentId', 'document.id']),
    version: pickNumber(object, ['version', 'document.version']),
  }) as JobAcceptedModel;
}
