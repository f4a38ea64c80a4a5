/**
 * The client's public surface as types: one method per operation id, `call`, job waiting and the
 * submit-wait-download helpers. `review/` is written against this interface, so it works with the
 * Node client, an n8n-backed client or a test double alike.
 */
import type { z } from 'zod/v4/mini';
import type { OperationId, OperationInput, Operations } from './operations.js';
import type { BinaryDownload, TextDownload, jobAccepted, jobStatus, mappingReport, generatedDocument } from './schemas/responses.js';
import type { DownloadFormat } from './schemas/common.js';

/** The 202 answer of a job-creating operation (generate, map, library ingest and refresh). */
export type JobAcceptedModel = z.output<typeof jobAccepted>;
export type JobStatusModel = z.output<typeof jobStatus>;
export type MappingReportModel = z.output<typeof mappingReport>;
export type GeneratedDocumentModel = z.output<typeof generatedDocument>;

/** A parsed JSON download (format `json`): a generated document or a mapping report. */
export interface JsonDownload {
  kind: 'json';
  data: Record<string, unknown>;
  contentType: string;
  filename: string;
}

export type Download = JsonDownload | TextDownload | BinaryDownload;

/** The normalised result of each operation. */
export type OperationOutput<Id extends OperationId> = Id extends 'downloadDocument'
  ? Download
  : z.output<Operations[Id]['output']>;

export interface CallOptions {
  signal?: AbortSignal;
  /** Overrides the client's per-attempt timeout. */
  timeoutMs?: number;
}

/** One documented method per operation, generated from the operation table. */
export type { OperationMethods } from './generated/clientMethods.js';
import type { OperationMethods } from './generated/clientMethods.js';

export interface WaitOptions {
  /** Overall limit for the wait; a `job_timeout` ComplianceJobTimeoutError carries the last status. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called after every poll. */
  onProgress?: (job: JobStatusModel) => void;
  /** From the 202 answer; shapes the polling schedule. */
  estimatedSeconds?: number;
}

/** Options of the submit, wait and download helpers (generateAndDownload, mapAndDownload). */
export interface SubmitAndWaitOptions extends WaitOptions {
  /**
   * Called once, when the service admits the job (its 202): from then on the job is charged, whatever
   * happens to the wait or the download, so a caller counting its spend counts it.
   */
  onAccepted?: (accepted: JobAcceptedModel) => void;
}

/** A retry about to wait: given to the client's `onRetry` before the wait, so a caller can say why it pauses. */
export interface RetryNotice {
  operationId: string;
  /** The attempt that failed, counted from 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** The HTTP status of the failed attempt; undefined when no answer came (network, timeout). */
  status: number | undefined;
  /** The service's error code (`rate_limited`, `internal_error`, …) or the transport's (`timeout`, …). */
  code: string;
}

export interface RateLimitState {
  limit: number | undefined;
  remaining: number | undefined;
  /** Epoch ms of the last response that reported the headers. */
  observedAt: number | undefined;
}

export interface ComplianceApi extends OperationMethods {
  call<Id extends OperationId>(operationId: Id, input?: OperationInput<Id>, options?: CallOptions): Promise<OperationOutput<Id>>;
  /** Polls until `completed` (resolves) or `failed` (rejects with ComplianceJobError). */
  waitForJob(jobId: string, options?: WaitOptions): Promise<JobStatusModel>;
  /** Submit, wait and download a generated document in one call. */
  generateAndDownload(
    input: OperationInput<'generateDocument'>,
    options?: SubmitAndWaitOptions & { format?: DownloadFormat },
  ): Promise<{ job: JobStatusModel; download: Download }>;
  /** Submit, wait and download a mapping report (json parsed into the normalised model). */
  mapAndDownload(
    input: OperationInput<'mapDocument'>,
    options?: SubmitAndWaitOptions,
  ): Promise<{ job: JobStatusModel; report: MappingReportModel }>;
  readonly rateLimit: RateLimitState;
}
