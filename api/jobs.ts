/**
 * Waiting for jobs (generation, mapping, library ingest and refresh) and the submit-wait-download
 * helpers. Polling starts at once, then follows a schedule derived from the job's
 * `estimatedSeconds`, growing by half each poll up to a cap.
 */
import { sleepUnlessAborted, throwIfAborted } from './abort.js';
import type { CallOptions, ComplianceApi, Download, JobStatusModel, MappingReportModel, WaitOptions } from './clientTypes.js';
import { ComplianceApiError, ComplianceJobError, ComplianceJobTimeoutError } from './errors.js';
import { normalizeMappingReport } from './normalize/mappingReport.js';
import type { OperationInput } from './operations.js';
import type { DownloadFormat } from './schemas/common.js';
import type { Clock, Sleep } from './transport.js';

export const POLL_SCHEDULE = {
  /** Used when the job gave no estimate. */
  defaultEstimatedSeconds: 10,
  minDelayMs: 1_000,
  /** The first wait is this share of the estimate, within [minDelayMs, firstDelayCapMs]. */
  firstDelayShare: 0.25,
  firstDelayCapMs: 10_000,
  growth: 1.5,
  maxDelayMs: 30_000,
} as const;

/** Default overall limit of a wait. */
export const DEFAULT_WAIT_TIMEOUT_MS = 15 * 60_000;

/** How long to wait before poll number `poll` (counted from 0): 0 for the first, then growing to a cap. */
export function pollDelayMs(poll: number, estimatedSeconds?: number): number {
  if (poll <= 0) return 0;
  const estimateMs =
    (estimatedSeconds !== undefined && Number.isFinite(estimatedSeconds) && estimatedSeconds > 0
      ? estimatedSeconds
      : POLL_SCHEDULE.defaultEstimatedSeconds) * 1000;
  const first = Math.min(Math.max(estimateMs * POLL_SCHEDULE.firstDelayShare, POLL_SCHEDULE.minDelayMs), POLL_SCHEDULE.firstDelayCapMs);
  return Math.round(Math.min(first * POLL_SCHEDULE.growth ** (poll - 1), POLL_SCHEDULE.maxDelayMs));
}

export interface JobWaitDependencies {
  getJob: (input: { jobId: string }, options?: CallOptions) => Promise<JobStatusModel>;
  sleep: Sleep;
  now: Clock;
}

function failedError(jobId: string, job: JobStatusModel): ComplianceJobError {
  const reason = job.error ?? { code: 'job_failed', message: 'no reason given' };
  const refunded = job.kind === 'library_ingest' || job.kind === 'library_refresh';
  return new ComplianceJobError({
    code: 'job_failed',
    operationId: 'waitForJob',
    jobId,
    job,
    message: `job ${jobId}${job.kind ? ` (${job.kind})` : ''} failed: ${reason.message}${reason.code !== 'job_failed' ? ` [${reason.code}]` : ''}`,
    hint: refunded
      ? 'The charge for a library job that fails after admission is refunded automatically; fix the input and submit it again.'
      : 'Fix the input named in the reason and submit a new job; quote the job id in support requests.',
  });
}

/** Polls until `completed` (resolves), `failed` (ComplianceJobError) or `timeoutMs` (ComplianceJobTimeoutError). */
export async function waitForJob(
  dependencies: JobWaitDependencies,
  jobId: string,
  options: WaitOptions = {},
): Promise<JobStatusModel> {
  const { signal, onProgress, estimatedSeconds } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const deadline = dependencies.now() + timeoutMs;
  let last: JobStatusModel | undefined;
  for (let poll = 0; ; poll++) {
    if (poll > 0) {
      const remaining = deadline - dependencies.now();
      if (remaining <= 0) throw timeoutError(jobId, timeoutMs, last);
      await sleepUnlessAborted(dependencies.sleep, Math.min(pollDelayMs(poll, estimatedSeconds ?? last?.estimatedSeconds), remaining), signal, 'waitForJob');
    }
    throwIfAborted(signal, 'waitForJob');
    last = await dependencies.getJob({ jobId }, { signal });
    onProgress?.(last);
    if (last.status === 'completed') return last;
    if (last.status === 'failed') throw failedError(jobId, last);
  }
}

function timeoutError(jobId: string, timeoutMs: number, last: JobStatusModel | undefined): ComplianceJobTimeoutError {
  return new ComplianceJobTimeoutError({
    code: 'job_timeout',
    operationId: 'waitForJob',
    jobId,
    job: last,
    message: `job ${jobId} did not finish within ${Math.round(timeoutMs / 1000)} s (last status: ${last?.status ?? 'unknown'})`,
    hint: `The job continues on the service: wait again with waitForJob("${jobId}") or a longer timeoutMs, then download it.`,
  });
}

type JobApi = Pick<ComplianceApi, 'generateDocument' | 'mapDocument' | 'downloadDocument' | 'waitForJob'>;

/** Submits a generation, waits for it and downloads the result (json by default). */
export async function generateAndDownload(
  api: JobApi,
  input: OperationInput<'generateDocument'>,
  options: WaitOptions & { format?: DownloadFormat } = {},
): Promise<{ job: JobStatusModel; download: Download }> {
  const { format = 'json', ...wait } = options;
  const accepted = await api.generateDocument(input, { signal: wait.signal });
  const job = await api.waitForJob(accepted.jobId, { estimatedSeconds: accepted.estimatedSeconds, ...wait });
  const download = await api.downloadDocument({ jobId: accepted.jobId, format }, { signal: wait.signal });
  return { job, download };
}

/** Submits a mapping, waits for it and returns the report in the normalised model. */
export async function mapAndDownload(
  api: JobApi,
  input: OperationInput<'mapDocument'>,
  options: WaitOptions = {},
): Promise<{ job: JobStatusModel; report: MappingReportModel }> {
  const accepted = await api.mapDocument(input, { signal: options.signal });
  const job = await api.waitForJob(accepted.jobId, { estimatedSeconds: accepted.estimatedSeconds, ...options });
  const download = await api.downloadDocument({ jobId: accepted.jobId, format: 'json' }, { signal: options.signal });
  if (download.kind !== 'json') {
    throw new ComplianceApiError({
      code: 'unexpected_response',
      operationId: 'downloadDocument',
      message: `downloadDocument: the mapping report of job ${accepted.jobId} did not come back as JSON`,
      hint: 'Report it with the job id.',
    });
  }
  return { job, report: normalizeMappingReport(download.data, { operationId: 'downloadDocument', input: { jobId: accepted.jobId } }) };
}
