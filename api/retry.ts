/**
 * The one place that decides whether a failed attempt is tried again, and after how long.
 *
 * The decision follows the operation's retry class from the operation table, so no call can spend
 * the user's tokens twice:
 * - `safe` retries 429, 5xx, network errors and timeouts;
 * - `charged` retries only where nothing can have been admitted (429, a connection that failed
 *   before the request was sent); an ambiguous failure (5xx, timeout, reset after sending) becomes
 *   `outcome_unknown` with a hint saying what to check, and is never re-sent;
 * - `replayable` (library ingest) retries like `safe`; a `duplicate_document` answer to a replay
 *   after an attempt that may have been admitted resolves to the document that attempt created.
 *
 * Delays: the service's `Retry-After` (or a delay in its hint) when given, else exponential
 * backoff with full jitter; bounded by `maxRetries` (429s excepted: they admitted nothing) and an
 * overall deadline `maxElapsedMs`.
 */
import { sleepUnlessAborted } from './abort.js';
import { ComplianceApiError, ComplianceError } from './errors.js';
import type { RetryNotice } from './clientTypes.js';
import { isOperationId, operations, type OperationSpec, type RetryClass } from './operations.js';
import { settle } from './settle.js';
import { TransportError, type Clock, type Sleep } from './transport.js';

export interface RetrySettings {
  /** Retries after failed attempts; a 429 (nothing admitted, waited out) does not count. 0: no retry at all. */
  maxRetries: number;
  /** No retry is started when its delay would end later than this after the first attempt began. */
  maxElapsedMs: number;
  /** Backoff ceiling of the first retry; doubles per retry. */
  baseDelayMs: number;
  /** Backoff ceiling of any retry. */
  maxDelayMs: number;
}

/** A 429 asking for no delay (or none given) still waits this long, so a broken limiter cannot spin the loop. */
const MIN_RATE_LIMIT_WAIT_MS = 1_000;

export const DEFAULT_RETRY_SETTINGS: RetrySettings = {
  maxRetries: 3,
  maxElapsedMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
};

/** What a failed attempt tells about the request's fate. */
export type FailureKind =
  /** 429: refused before admission. */
  | 'rate_limited'
  /** 5xx: the service (or a gateway) failed; the request may have been admitted. */
  | 'server_error'
  /** No connection was made: nothing was sent. */
  | 'not_sent'
  /** Timeout or a connection lost after sending: the request may have been admitted. */
  | 'maybe_sent'
  | 'aborted'
  /** Any other answer (4xx, validation): retrying would give the same. */
  | 'final';

function classifyFailure(error: unknown): FailureKind {
  if (!(error instanceof ComplianceError)) return 'final';
  if (error.code === 'aborted') return 'aborted';
  if (!(error instanceof ComplianceApiError)) return 'final';
  if (error.status === 429) return 'rate_limited';
  if (error.status !== undefined) return error.status >= 500 ? 'server_error' : 'final';
  if (error.cause instanceof TransportError) {
    if (error.cause.kind === 'aborted') return 'maybe_sent';
    return error.cause.sent ? 'maybe_sent' : 'not_sent';
  }
  return 'final';
}

type RetryVerdict = 'retry' | 'ambiguous' | 'give_up';

/** The retry matrix: rows are retry classes, columns failure kinds. */
export function retryVerdict(retryClass: RetryClass, failure: FailureKind): RetryVerdict {
  if (failure === 'final' || failure === 'aborted') return 'give_up';
  if (retryClass !== 'charged') return 'retry';
  return failure === 'rate_limited' || failure === 'not_sent' ? 'retry' : 'ambiguous';
}

/** Full jitter: uniform in [0, min(maxDelayMs, baseDelayMs · 2^(retry-1))). `retry` counts from 1. */
export function backoffDelayMs(retry: number, settings: RetrySettings, random: () => number): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** (retry - 1));
  return Math.floor(random() * ceiling);
}

/** The service's requested delay wins over backoff. */
function retryDelayMs(error: unknown, retry: number, settings: RetrySettings, random: () => number): number {
  const asked = error instanceof ComplianceApiError ? error.retryAfterMs : undefined;
  return asked !== undefined ? asked : backoffDelayMs(retry, settings, random);
}

/** A retry notice in words, for a log line: what failed and how long the wait is. */
export function retryNoticeText(notice: RetryNotice): string {
  // The code comes from the service's answer: only a plain identifier is repeated.
  const code = /^[a-z][a-z0-9_]{0,63}$/i.test(notice.code) ? notice.code : 'error';
  const what = notice.status !== undefined ? `HTTP ${notice.status} ${code}` : code;
  return `${notice.operationId}: ${what}; trying again in ${Math.max(1, Math.round(notice.delayMs / 1000))} s`;
}

/** The error for a charged operation whose fate is unknown: it was not re-sent. */
function outcomeUnknownError(operationId: string, error: ComplianceApiError): ComplianceApiError {
  const what = error.status !== undefined ? `HTTP ${error.status} ${error.code}` : error.code;
  return new ComplianceApiError({
    code: 'outcome_unknown',
    status: error.status,
    operationId,
    requestId: error.requestId,
    message: `${operationId}: the outcome is unknown (${what}); the request may have been admitted and charged, so it was not sent again`,
    hint:
      (isOperationId(operationId) ? (operations[operationId] as OperationSpec).ambiguityHint : undefined) ??
      'Check the ledger (getBilling().ledger) for a charge at this time before re-running.',
    details: { ...error.details, serviceCode: error.code },
    cause: error,
  });
}

interface RetryContext<T> {
  operationId: string;
  retryClass: RetryClass;
  settings: RetrySettings;
  sleep: Sleep;
  now: Clock;
  random: () => number;
  signal?: AbortSignal;
  /** Told before each wait for a retry. */
  onRetry?: ((notice: RetryNotice) => void) | undefined;
  /**
   * `replayable` only: resolves a `duplicate_document` answer to a replay into the result the
   * earlier (ambiguous) attempt produced.
   */
  resolveReplayDuplicate?: (duplicate: ComplianceApiError) => Promise<T>;
}

/** Runs `attempt` (numbered from 1) until it succeeds or the policy says stop; throws the last error. */
export async function withRetries<T>(context: RetryContext<T>, attempt: (attemptNumber: number) => Promise<T>): Promise<T> {
  const { settings, operationId } = context;
  const startedAt = context.now();
  let mayHaveBeenAdmitted = false;
  /** Failed attempts other than 429s: what maxRetries counts. */
  let failures = 0;
  for (let attemptNumber = 1; ; attemptNumber++) {
    const outcome = await settle(() => attempt(attemptNumber));
    if (outcome.ok) return outcome.value;
    const { error } = outcome;
    if (
      mayHaveBeenAdmitted &&
      context.resolveReplayDuplicate &&
      error instanceof ComplianceApiError &&
      error.code === 'duplicate_document'
    ) {
      return await context.resolveReplayDuplicate(error);
    }
    const failure = classifyFailure(error);
    const verdict = retryVerdict(context.retryClass, failure);
    if (verdict === 'ambiguous') throw outcomeUnknownError(operationId, error as ComplianceApiError);
    // A 429 admitted nothing and says when to come back, so waiting it out costs no retry: only
    // the deadline bounds it (a key shared by many CI runs can stay busy for several windows).
    const rateLimited = failure === 'rate_limited';
    if (!rateLimited) failures++;
    // maxRetries 0 turns retrying off altogether, 429s included.
    if (verdict === 'give_up' || failures > settings.maxRetries || settings.maxRetries === 0) throw error;
    if (failure === 'server_error' || failure === 'maybe_sent') mayHaveBeenAdmitted = true;
    const asked = retryDelayMs(error, failures || 1, settings, context.random);
    const delay = rateLimited ? Math.max(asked, MIN_RATE_LIMIT_WAIT_MS) : asked;
    if (context.now() - startedAt + delay > settings.maxElapsedMs) throw error;
    context.onRetry?.({
      operationId,
      attempt: attemptNumber,
      delayMs: delay,
      status: error instanceof ComplianceApiError ? error.status : undefined,
      code: error instanceof ComplianceError ? error.code : 'unknown',
    });
    await sleepUnlessAborted(context.sleep, delay, context.signal, operationId);
  }
}
