/**
 * Reading what came back: JSON bodies, the service's error envelope, non-JSON error pages (an
 * HTML 502 from a proxy), retry delays (`Retry-After`, a delay in `hint`) and transport failures.
 * Every failure becomes a ComplianceApiError (or an `aborted` ComplianceError).
 */
import { abortedError } from './abort.js';
import { ComplianceApiError, type ComplianceError } from './errors.js';
import { settleSync } from './settle.js';
import { TransportError, type TransportResponse } from './transport.js';

/** What response reading needs to know about the call it belongs to. */
export interface ResponseContext {
  operationId: string;
  /** Epoch ms, to turn an HTTP-date Retry-After into a delay. */
  nowMs: number;
  /** Removes the API key from any text that ends up in an error. */
  redact: (text: string) => string;
  signal?: AbortSignal;
}

const utf8 = new TextDecoder('utf-8');

export function decodeText(body: Uint8Array): string {
  return utf8.decode(body);
}

/** `Retry-After` as delta-seconds or an HTTP date, in ms from now; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // Only strings with letters can be dates: Date.parse('7') would read a year.
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

const HINT_DELAY =
  /\b(?:retry|try again|wait)\b\D{0,24}?(\d+(?:\.\d+)?)\s*(milliseconds?|ms|seconds?|secs?|s|minutes?|mins?|m)\b/i;

/** A delay stated in a hint ("retry in 12 s", "Retry after 3 seconds", "try again in 2 minutes"), in ms. */
export function delayFromHint(hint: string | undefined): number | undefined {
  const match = hint ? HINT_DELAY.exec(hint) : null;
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2]!.toLowerCase();
  const factor = unit === 'ms' || unit.startsWith('milli') ? 1 : unit.startsWith('m') ? 60_000 : 1000;
  return Math.round(amount * factor);
}

/** Visible text of an HTML or plain-text body, shortened for an error message. */
export function textExcerpt(text: string, maxChars = 160): string {
  const visible = text
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return visible.length > maxChars ? `${visible.slice(0, maxChars - 1)}…` : visible;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a 2xx JSON body; anything else is `unexpected_response`. */
export function readJsonBody(response: TransportResponse, context: ResponseContext): unknown {
  const text = decodeText(response.body);
  const parsed = settleSync((): unknown => JSON.parse(text));
  if (parsed.ok) return parsed.value;
  throw new ComplianceApiError({
    code: 'unexpected_response',
    status: response.status,
    operationId: context.operationId,
    requestId: response.headers['x-request-id'],
    message: context.redact(
      `${context.operationId}: HTTP ${response.status} answer is not JSON (${response.headers['content-type'] ?? 'no content type'}): "${textExcerpt(text)}"`,
    ),
    hint: 'Check that the base URL points at the API (it ends in /api/public/v1) and not at a web page or proxy.',
    cause: parsed.error,
  });
}

/** Codes for envelopes that omit one, and hints for envelopes that give none. */
const STATUS_DEFAULTS: Record<number, { code: string; hint: string }> = {
  400: { code: 'invalid_request', hint: 'Check the request fields against the operation description.' },
  401: { code: 'unauthorized', hint: 'Check the API key (COMPLIANCE_API_KEY); a rotated or disabled key stops at once.' },
  403: { code: 'forbidden', hint: 'This key may not use this operation; check its mode and limits with getCapabilities.' },
  404: { code: 'not_found', hint: 'Check the id or path; job and document ids come from the answers that created them.' },
  409: { code: 'conflict', hint: 'The resource is not in a state that allows this yet; check it and try again.' },
  413: { code: 'payload_too_large', hint: 'Send a smaller request or file.' },
  429: { code: 'rate_limited', hint: 'Slow down; the client retries after the delay the service asks for.' },
};

function defaultsFor(status: number): { code: string; hint: string } {
  return (
    STATUS_DEFAULTS[status] ??
    (status >= 500
      ? { code: 'server_error', hint: 'A service-side fault; safe operations are retried with backoff.' }
      : { code: `http_${status}`, hint: 'Unexpected status; quote the request id when asking for support.' })
  );
}

/** Turns a non-2xx answer into a ComplianceApiError: the envelope when there is one, else an excerpt. */
export function errorFromResponse(response: TransportResponse, context: ResponseContext): ComplianceApiError {
  const { status, headers } = response;
  const text = decodeText(response.body);
  const retryAfterHeader = parseRetryAfter(headers['retry-after'], context.nowMs);
  let parsed: unknown;
  try {
    parsed = text.trim() ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const fallback = defaultsFor(status);

  if (isRecord(parsed) && (isRecord(parsed.error) || typeof parsed.error === 'string' || typeof parsed.code === 'string')) {
    // Documented: {error: {code, message, hint, requestId, ...}}; tolerated: {error: "code", message} and {code, message}.
    const { error: inner, ...siblings } = parsed;
    const envelope: Record<string, unknown> = isRecord(inner) ? inner : { ...siblings, code: inner ?? siblings.code };
    const { code, message, hint, requestId, details: nested, ...rest } = envelope;
    const details = { ...(isRecord(inner) ? siblings : {}), ...(isRecord(nested) ? nested : {}), ...rest };
    delete details.message;
    delete details.hint;
    delete details.requestId;
    delete details.code;
    const hintText = typeof hint === 'string' && hint ? hint : undefined;
    const codeText = typeof code === 'string' && code ? code : fallback.code;
    const messageText = typeof message === 'string' && message ? message : `HTTP ${status} ${codeText}`;
    return new ComplianceApiError({
      code: codeText,
      status,
      operationId: context.operationId,
      message: context.redact(`${context.operationId}: ${messageText}`),
      hint: context.redact(hintText ?? fallback.hint),
      requestId: typeof requestId === 'string' && requestId ? requestId : headers['x-request-id'],
      retryAfterMs: retryAfterHeader ?? delayFromHint(hintText),
      details: redactValues(details, context.redact),
    });
  }

  const contentType = headers['content-type'] ?? 'no content type';
  const excerpt = textExcerpt(text);
  return new ComplianceApiError({
    code: status >= 500 ? 'bad_gateway' : 'unexpected_response',
    status,
    operationId: context.operationId,
    message: context.redact(
      `${context.operationId}: HTTP ${status} with a non-JSON body (${contentType})${excerpt ? `: "${excerpt}"` : ''}`,
    ),
    hint:
      status >= 500
        ? 'A proxy or gateway between you and the service failed; safe operations are retried, charged ones are not re-sent.'
        : 'Check that the base URL points at the API (it ends in /api/public/v1) and not at a web page or proxy.',
    requestId: headers['x-request-id'],
    retryAfterMs: retryAfterHeader,
  });
}

function redactValues(details: Record<string, unknown>, redact: (text: string) => string): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(details).map(([key, value]) => [key, typeof value === 'string' ? redact(value) : value]),
  );
}

const TRANSPORT_MESSAGES: Record<TransportError['kind'], string> = {
  connect: 'could not connect to the service (the request was not sent)',
  timeout: 'timed out waiting for the service',
  reset: 'the connection failed after the request was sent',
  aborted: 'the request was aborted',
  other: 'the request failed',
};

/**
 * A failure with no response: `timeout` or `network_error` (cause kept; `details.sent` tells
 * whether the service may have received the request), or `aborted` when the caller's signal fired.
 */
export function errorFromTransport(error: unknown, context: ResponseContext): ComplianceError {
  if (context.signal?.aborted) return abortedError(context.operationId, context.signal);
  // A transport that throws something else (an n8n helper, a custom fetch) may have sent the request.
  const failure =
    error instanceof TransportError
      ? error
      : new TransportError('other', true, error instanceof Error ? error.message : String(error), error);
  const reason = failure.message ? `: ${failure.message}` : '';
  return new ComplianceApiError({
    code: failure.kind === 'timeout' ? 'timeout' : 'network_error',
    operationId: context.operationId,
    message: context.redact(`${context.operationId}: ${TRANSPORT_MESSAGES[failure.kind]}${reason}`),
    hint:
      failure.kind === 'timeout'
        ? 'Raise timeoutMs for slow networks or large uploads; safe operations are retried.'
        : 'Check the network, proxy settings (HTTPS_PROXY, NO_PROXY) and the base URL.',
    details: { transportKind: failure.kind, sent: failure.sent },
    cause: failure,
  });
}
