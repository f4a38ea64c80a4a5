/**
 * Waiting for jobs (generation, mapping, library ingest and refresh) and the submit-wait-download
 * helpers. Polling starts at once, then aims at the job's expected end: the 202 answer's
 * `estimatedSeconds`, moved by the time left that each status reports (its `estimatedSeconds`, as
 * the sandbox gives it). Before that end a wait covers at most half the estimate (an early finish is
 * seen that late at worst); past it (the job overran) waits start at a tenth of the estimate and grow
 * by half, so a finish is seen within about a fifth of the job's time. Figures: bench/jobWaiting.ts.
 */
import { sleepUnlessAborted, throwIfAborted } from './abort.js';
import type { CallOptions, ComplianceApi, Download, JobStatusModel, MappingReportModel, SubmitAndWaitOptions, WaitOptions } from './clientTypes.js';
import { ComplianceApiError, ComplianceJobError, ComplianceJobTimeoutError } from './errors.js';
import { normalizeMappingReport } from './normalize/mappingReport.js';
import type { OperationInput } from './operations.js';
import type { DownloadFormat } from './schemas/common.js';
import type { Clock, Sleep } from './transport.js';

const POLL_SCHEDULE = {
  /** Used when neither the 202 answer nor the job gave an estimate. */
  defaultEstimatedSeconds: 10,
  minDelayMs: 1_000,
  /** Before the expected end, one wait is at most this share of the estimate. */
  earlyShare: 0.5,
  /** Past the expected end, the first wait is this share of the estimate, growing by `growth`… */
  overdueShare: 0.1,
  growth: 1.5,
  /** …up to the larger of this share of the estimate and maxDelayMs. */
  overdueCapShare: 0.2,
  maxDelayMs: 30_000,
} as const;

/** Default overall limit of a wait. */
const DEFAULT_WAIT_TIMEOUT_MS = 15 * 60_000;

interface PollPlan {
  /** The job's expected duration in ms (the estimate the wait started with). */
  estimateMs: number;
  /** Time left until the expected end; 0 or less once it has passed. */
  untilDueMs: number;
  /** Polls already made at or after the expected end. */
  overduePolls: number;
}

/** How long to wait before the next poll. */
export function pollDelayMs(plan: PollPlan): number {
  const { estimateMs, untilDueMs, overduePolls } = plan;
  const { minDelayMs } = POLL_SCHEDULE;
  if (untilDueMs > 0) return Math.round(Math.max(minDelayMs, Math.min(untilDueMs, estimateMs * POLL_SCHEDULE.earlyShare)));
  const cap = Math.max(estimateMs * POLL_SCHEDULE.overdueCapShare, POLL_SCHEDULE.maxDelayMs);
  return Math.round(Math.max(minDelayMs, Math.min(estimateMs * POLL_SCHEDULE.overdueShare * POLL_SCHEDULE.growth ** overduePolls, cap)));
}

/** Seconds as ms when they are a usable estimate (finite, above 0). */
function usableMs(seconds: number | undefined): number | undefined {
  return seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : undefined;
}

interface JobWaitDependencies {
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
  const { signal, onProgress } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const started = dependencies.now();
  const deadline = started + timeoutMs;
  // The expected end, in the client's clock; the first status sets it when the 202 answer gave none.
  let estimateMs = usableMs(options.estimatedSeconds);
  let dueAt = estimateMs === undefined ? undefined : started + estimateMs;
  let overduePolls = 0;
  let last: JobStatusModel | undefined;
  for (let poll = 0; ; poll++) {
    if (poll > 0) {
      const now = dependencies.now();
      const remaining = deadline - now;
      if (remaining <= 0) throw timeoutError(jobId, timeoutMs, last);
      estimateMs ??= POLL_SCHEDULE.defaultEstimatedSeconds * 1000;
      dueAt ??= started + estimateMs;
      const delay = pollDelayMs({ estimateMs, untilDueMs: dueAt - now, overduePolls });
      if (dueAt <= now) overduePolls++;
      await sleepUnlessAborted(dependencies.sleep, Math.min(delay, remaining), signal, 'waitForJob');
    }
    throwIfAborted(signal, 'waitForJob');
    last = await dependencies.getJob({ jobId }, { signal });
    onProgress?.(last);
    if (last.status === 'completed') return last;
    if (last.status === 'failed') throw failedError(jobId, last);
    // A status's estimate is the time the job still needs (the sandbox's reading; the spec leaves it
    // open): it moves the expected end. Were it a constant total instead, the end would keep moving
    // and polls would come every half estimate: slower to notice, never more polls.
    const leftMs = usableMs(last.estimatedSeconds);
    if (leftMs !== undefined) {
      const polledAt = dependencies.now();
      estimateMs ??= polledAt - started + leftMs;
      dueAt = polledAt + leftMs;
    }
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
  options: SubmitAndWaitOptions & { format?: DownloadFormat } = {},
): Promise<{ job: JobStatusModel; download: Download }> {
  const { format = 'json', onAccepted, ...wait } = options;
  const accepted = await api.generateDocument(input, { signal: wait.signal });
  onAccepted?.(accepted);
  const job = await api.waitForJob(accepted.jobId, { estimatedSeconds: accepted.estimatedSeconds, ...wait });
  const download = await api.downloadDocument({ jobId: accepted.jobId, format }, { signal: wait.signal });
  return { job, download };
}

/** Submits a mapping, waits for it and returns the report in the normalised model. */
export async function mapAndDownload(
  api: JobApi,
  input: OperationInput<'mapDocument'>,
  options: SubmitAndWaitOptions = {},
): Promise<{ job: JobStatusModel; report: MappingReportModel }> {
  const { onAccepted, ...wait } = options;
  const accepted = await api.mapDocument(input, { signal: wait.signal });
  onAccepted?.(accepted);
  const job = await api.waitForJob(accepted.jobId, { estimatedSeconds: accepted.estimatedSeconds, ...wait });
  return { job, report: await downloadMappingReport(api, accepted.jobId, { signal: wait.signal }) };
}

/** The mapping report of a finished job as the service holds it (a download: free), in the normalised model. */
export async function downloadMappingReport(api: Pick<ComplianceApi, 'downloadDocument'>, jobId: string, options: { signal?: AbortSignal | undefined } = {}): Promise<MappingReportModel> {
  const download = await api.downloadDocument({ jobId, format: 'json' }, { signal: options.signal });
  if (download.kind !== 'json') {
    throw new ComplianceApiError({
      code: 'unexpected_response',
      operationId: 'downloadDocument',
      message: `downloadDocument: the mapping report of job ${jobId} did not come back as JSON`,
      hint: 'Report it with the job id.',
    });
  }
  return normalizeMappingReport(download.data, { operationId: 'downloadDocument', input: { jobId } });
}
