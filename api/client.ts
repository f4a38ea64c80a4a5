/**
 * The client: one method per operation id (generated from the operation table), `call`, job
 * waiting and the submit-wait-download helpers. Pure: transport, sleep and clock are injected, so
 * the same class serves Node (api/node), n8n and tests.
 */
import { sleepUnlessAborted, throwIfAborted } from './abort.js';
import { normalizeBaseUrl } from './baseUrl.js';
import type {
  CallOptions,
  ComplianceApi,
  Download,
  JobStatusModel,
  MappingReportModel,
  OperationOutput,
  RateLimitState,
  RetryNotice,
  SubmitAndWaitOptions,
  WaitOptions,
} from './clientTypes.js';
import { OperationMethodsBase } from './generated/clientMethods.js';
import { FORMAT_CONTENT_TYPES, readDownload } from './download.js';
import { ComplianceApiError, ComplianceError, ComplianceValidationError } from './errors.js';
import { errorFromResponse, errorFromTransport, readJsonBody, type ResponseContext } from './http.js';
import { generateAndDownload, mapAndDownload, waitForJob } from './jobs.js';
import { iterateLibrary, listAllLibraryDocuments, type LibraryFilter } from './library.js';
import type { LibraryDocumentModel } from './normalize/library.js';
import { normalizers, type JsonOperationId } from './normalize/index.js';
import { normalizeJobAccepted } from './normalize/job.js';
import { isOperationId, operationIds, operations, type OperationId, type OperationInput, type OperationSpec } from './operations.js';
import { RateLimitPacer, type PacerOptions } from './rateLimit.js';
import { prepareRequest, type PreparedRequest } from './request.js';
import { DEFAULT_RETRY_SETTINGS, withRetries, type RetrySettings } from './retry.js';
import { settle, settleSync } from './settle.js';
import type { DownloadFormat } from './schemas/common.js';
import type { Clock, Sleep, Transport, TransportResponse } from './transport.js';
import { validateInput } from './validation.js';

export type AuthHeader = 'bearer' | 'x-api-key';

export interface ComplianceClientOptions {
  /**
   * The API key. Optional only for transports that authenticate themselves (n8n credentials);
   * when given, the client sends it as `Authorization: Bearer …` or `X-API-Key`.
   */
  apiKey?: string;
  /** `https://<host>` or `https://<host>/api/public/v1`; plain http only for loopback hosts. */
  baseUrl: string;
  /** Header carrying the key: `bearer` (default) or `x-api-key`. */
  authHeader?: AuthHeader;
  transport: Transport;
  sleep: Sleep;
  now?: Clock;
  /** Uniform in [0, 1): backoff jitter and multipart boundaries. */
  random?: () => number;
  /** Per-attempt timeout; default 30 s. */
  timeoutMs?: number;
  /** Retries after failed attempts, 429s not counted (they are waited out); 0 turns retrying off; default 3. */
  maxRetries?: number;
  /** No retry starts after this long since the first attempt; default 120 s. */
  maxElapsedMs?: number;
  /** Told before each retry's wait (a 429 waited out, a 5xx backed off), so a surface can say why it pauses. */
  onRetry?: (notice: RetryNotice) => void;
  /** Sent as User-Agent; each surface names itself (the CLI, each action, the n8n node). */
  userAgent?: string;
  /** Rate-limit pacing from X-RateLimit-* headers; `false` turns it off. */
  pacing?: PacerOptions | false;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
/** For programs that use the API module directly (the compliance-engine-cli package exports it). */
export const DEFAULT_USER_AGENT = 'compliance-engine-api';
const REDACTED = '[redacted]';

function invalidOption(field: string, message: string, hint: string): ComplianceValidationError {
  return new ComplianceValidationError({ code: 'invalid_option', field, message: `ComplianceClient: ${message}`, hint });
}

function checkPositive(field: string, value: number | undefined, integer: boolean): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw invalidOption(field, `${field} must be a ${integer ? 'whole ' : ''}number of at least 0`, `Pass for example ${field}: ${integer ? 3 : 30000}.`);
  }
}

function lowerCaseHeaders(headers: Record<string, string>): Record<string, string> {
  const lower: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
  return lower;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The per-operation methods come from OperationMethodsBase, generated from the operation table
 * (api/generated/clientMethods.ts): each is a documented call of `call`.
 */
export class ComplianceClient extends OperationMethodsBase implements ComplianceApi {
  readonly #apiKey: string | undefined;
  readonly #baseUrl: string;
  readonly #authHeader: AuthHeader;
  readonly #transport: Transport;
  readonly #sleep: Sleep;
  readonly #now: Clock;
  readonly #random: () => number;
  readonly #timeoutMs: number;
  readonly #retry: RetrySettings;
  readonly #userAgent: string;
  readonly #pacer: RateLimitPacer | undefined;
  readonly #onRetry: ((notice: RetryNotice) => void) | undefined;

  constructor(options: ComplianceClientOptions) {
    super();
    if (typeof options !== 'object' || options === null) {
      throw invalidOption('options', 'options are required', 'Pass { apiKey, baseUrl, transport, sleep }.');
    }
    const { apiKey, authHeader = 'bearer' } = options;
    if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === '' || /\s/.test(apiKey) || hasControlCharacter(apiKey))) {
      // Never echo the value: it is a secret even when malformed.
      throw new ComplianceValidationError({
        code: 'invalid_api_key',
        field: 'apiKey',
        message: 'ComplianceClient: apiKey must be a non-empty string without spaces or line breaks',
        hint: 'Copy the key exactly as issued (it is shown once), for example from COMPLIANCE_API_KEY.',
      });
    }
    if (authHeader !== 'bearer' && authHeader !== 'x-api-key') {
      throw invalidOption('authHeader', `authHeader must be "bearer" or "x-api-key" (got ${JSON.stringify(authHeader)})`, 'Omit it for Authorization: Bearer.');
    }
    if (typeof options.transport !== 'function') {
      throw invalidOption('transport', 'transport is required', 'Use the Node entry (compliance-engine-cli), which supplies one, or pass createNodeTransport().');
    }
    if (typeof options.sleep !== 'function') {
      throw invalidOption('sleep', 'sleep is required', 'Use the Node entry (compliance-engine-cli), which supplies one, or pass nodeSleep.');
    }
    checkPositive('timeoutMs', options.timeoutMs, false);
    checkPositive('maxRetries', options.maxRetries, true);
    checkPositive('maxElapsedMs', options.maxElapsedMs, false);
    this.#apiKey = apiKey;
    this.#baseUrl = normalizeBaseUrl(options.baseUrl);
    this.#authHeader = authHeader;
    this.#transport = options.transport;
    this.#sleep = options.sleep;
    this.#now = options.now ?? Date.now;
    this.#random = options.random ?? Math.random;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#retry = {
      ...DEFAULT_RETRY_SETTINGS,
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
      ...(options.maxElapsedMs !== undefined ? { maxElapsedMs: options.maxElapsedMs } : {}),
    };
    this.#userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.#pacer = options.pacing === false ? undefined : new RateLimitPacer(options.pacing);
    if (options.onRetry !== undefined && typeof options.onRetry !== 'function') {
      throw invalidOption('onRetry', 'onRetry must be a function', 'Pass (notice) => { … } or leave it out.');
    }
    this.#onRetry = options.onRetry;
  }

  /** The normalised base URL, ending in /api/public/v1. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /** The last X-RateLimit-Limit / X-RateLimit-Remaining seen. */
  get rateLimit(): RateLimitState {
    return this.#pacer?.state ?? { limit: undefined, remaining: undefined, observedAt: undefined };
  }

  /** Calls any operation by id with the `call` input convention. */
  async call<Id extends OperationId>(operationId: Id, input?: OperationInput<Id>, options: CallOptions = {}): Promise<OperationOutput<Id>> {
    if (typeof operationId !== 'string' || !isOperationId(operationId)) {
      throw new ComplianceValidationError({
        code: 'unknown_operation',
        field: 'operationId',
        message: `unknown operation ${JSON.stringify(operationId)}`,
        hint: `Use one of: ${operationIds.join(', ')}.`,
      });
    }
    const operation: OperationSpec = operations[operationId];
    throwIfAborted(options.signal, operationId);
    const validated = validateInput(operationId, operation.input, input ?? {}) as Record<string, unknown>;
    const prepared = await prepareRequest(operation, validated, this.#random);
    const result = await withRetries<unknown>(
      {
        operationId,
        retryClass: operation.retry,
        settings: this.#retry,
        sleep: this.#sleep,
        now: this.#now,
        random: this.#random,
        signal: options.signal,
        onRetry: this.#onRetry,
        resolveReplayDuplicate:
          operation.retry === 'replayable' ? (duplicate) => this.#resolveReplayDuplicate(operationId, duplicate, options) : undefined,
      },
      () => this.#attempt(operation, prepared, validated, options),
    );
    return result as OperationOutput<Id>;
  }

  waitForJob(jobId: string, options: WaitOptions = {}): Promise<JobStatusModel> {
    return waitForJob({ getJob: (input, callOptions) => this.getJob(input, callOptions), sleep: this.#sleep, now: this.#now }, jobId, options);
  }

  generateAndDownload(
    input: OperationInput<'generateDocument'>,
    options: SubmitAndWaitOptions & { format?: DownloadFormat } = {},
  ): Promise<{ job: JobStatusModel; download: Download }> {
    return generateAndDownload(this, input, options);
  }

  mapAndDownload(input: OperationInput<'mapDocument'>, options: SubmitAndWaitOptions = {}): Promise<{ job: JobStatusModel; report: MappingReportModel }> {
    return mapAndDownload(this, input, options);
  }

  /** Every library document matching `filter`, following the listing's pages. */
  iterateLibrary(filter: LibraryFilter = {}, options: CallOptions = {}): AsyncGenerator<LibraryDocumentModel, void, undefined> {
    return iterateLibrary(this, filter, options);
  }

  listAllLibraryDocuments(filter: LibraryFilter = {}, options: CallOptions = {}): Promise<LibraryDocumentModel[]> {
    return listAllLibraryDocuments(this, filter, options);
  }

  toJSON(): Record<string, unknown> {
    return { baseUrl: this.#baseUrl, authHeader: this.#authHeader, apiKey: this.#apiKey === undefined ? undefined : REDACTED };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `ComplianceClient { baseUrl: '${this.#baseUrl}', authHeader: '${this.#authHeader}', apiKey: ${this.#apiKey === undefined ? 'none' : REDACTED} }`;
  }

  #redact = (text: string): string => (this.#apiKey ? text.split(this.#apiKey).join(REDACTED) : text);

  #headers(operation: OperationSpec, prepared: PreparedRequest, validated: Record<string, unknown>): Record<string, string> {
    const format = validated.format as DownloadFormat | undefined;
    const headers: Record<string, string> = {
      accept: operation.response === 'download' && format && format !== 'json' ? `${FORMAT_CONTENT_TYPES[format]}, application/json;q=0.5` : 'application/json',
      'user-agent': this.#userAgent,
    };
    if (prepared.contentType) headers['content-type'] = prepared.contentType;
    // Public operations need no key: do not send it where it is not needed.
    if (this.#apiKey !== undefined && !operation.public) {
      if (this.#authHeader === 'bearer') headers.authorization = `Bearer ${this.#apiKey}`;
      else headers['x-api-key'] = this.#apiKey;
    }
    return headers;
  }

  async #attempt(operation: OperationSpec, prepared: PreparedRequest, validated: Record<string, unknown>, options: CallOptions): Promise<unknown> {
    const operationId = operation.id as OperationId;
    const { signal } = options;
    if (this.#pacer) {
      await sleepUnlessAborted(this.#sleep, this.#pacer.reserve(this.#now()), signal, operationId);
    }
    throwIfAborted(signal, operationId);
    const context = (): ResponseContext => ({ operationId, nowMs: this.#now(), redact: this.#redact, signal });
    let response: TransportResponse;
    try {
      response = await this.#transport({
        method: prepared.method,
        url: `${this.#baseUrl}${prepared.path}`,
        headers: this.#headers(operation, prepared, validated),
        ...(prepared.body !== undefined ? { body: prepared.body } : {}),
        timeoutMs: options.timeoutMs ?? this.#timeoutMs,
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      throw errorFromTransport(error, context());
    }
    response = { ...response, headers: lowerCaseHeaders(response.headers ?? {}) };
    this.#pacer?.observe(response.headers, this.#now());
    if (response.status < 200 || response.status > 299) throw errorFromResponse(response, context());
    if (operation.response === 'download') {
      return readDownload(response, { jobId: String(validated.jobId), format: (validated.format as DownloadFormat | undefined) ?? 'json' }, context());
    }
    const raw = response.body.length === 0 ? undefined : readJsonBody(response, context());
    const normalized = settleSync(() => normalizers[operationId as JsonOperationId](raw, { operationId, input: validated }));
    if (normalized.ok) return normalized.value;
    const { error } = normalized;
    if (!(error instanceof ComplianceApiError)) throw error;
    // The adapters do not see the response: add its status and request id for support.
    throw new ComplianceApiError({
      code: error.code,
      message: error.message,
      hint: error.hint,
      operationId,
      status: response.status,
      requestId: response.headers['x-request-id'],
      details: error.details,
    });
  }

  /**
   * An ingest replay answered `duplicate_document`: the earlier attempt created the document. The
   * envelope names it (`documentId`, `jobId`); answer as the first attempt would have.
   */
  async #resolveReplayDuplicate(operationId: OperationId, duplicate: ComplianceApiError, options: CallOptions): Promise<unknown> {
    const jobId = textOf(duplicate.details.jobId);
    const documentId = textOf(duplicate.details.documentId);
    if (jobId === undefined) {
      throw new ComplianceApiError({
        code: 'duplicate_document',
        status: duplicate.status,
        operationId,
        requestId: duplicate.requestId,
        message: `${operationId}: a retried ingest was answered duplicate_document${documentId ? ` for document ${documentId}` : ''}; an earlier attempt most likely created it`,
        hint: documentId
          ? `Do not ingest again: read it with getLibraryDocument({ id: "${documentId}" }).`
          : 'Do not ingest again: find the document in listLibrary (same title and content hash).',
        details: { ...duplicate.details, replay: true },
        cause: duplicate,
      });
    }
    const read = await settle(() => this.getJob({ jobId }, options));
    if (!read.ok && read.error instanceof ComplianceError && read.error.code === 'aborted') throw read.error;
    // The document exists; its job status is a courtesy, so any other failure to read it is left out.
    const job: JobStatusModel | undefined = read.ok ? read.value : undefined;
    // The normaliser fills what the job did not say: status queued, the poll path, no estimate.
    return normalizeJobAccepted(
      { jobId, status: job?.status, estimatedSeconds: job?.estimatedSeconds, kind: 'library_ingest', documentId: documentId ?? job?.documentId, replayed: true },
      { operationId },
    );
  }
}

