/**
 * An error the server answers with the envelope `{error: {code, message, hint, requestId, ...}}`.
 * Handlers throw it; the dispatcher renders it. Anything else thrown becomes a 500 `internal_error`
 * without details (never a stack trace in a response).
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly hint: string;
  /** Extra envelope fields beside code/message/hint/requestId (e.g. documentId, jobId). */
  readonly details: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    hint: string,
    extra: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.hint = hint;
    this.details = extra.details ?? {};
    this.headers = extra.headers ?? {};
  }
}

/** A 429 with Retry-After in whole seconds (at least 1) and a hint that says when to retry. */
export function tooManyRequests(code: string, message: string, retryAfterMs: number, advice = ''): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new HttpError(429, code, message, `retry in ${seconds} s${advice ? `; ${advice}` : ''}`, {
    headers: { 'retry-after': String(seconds) },
  });
}
