/**
 * Failures of Node's HTTP clients (undici, node:http) without a response, classified into
 * TransportError kinds, with `sent` telling the retry policy whether the service may have received
 * the request. Apart from transport.ts so a transport on node:http (the GitHub Actions') shares it
 * without loading undici.
 */
import { TransportError, type TransportFailureKind } from '../transport.js';

/** Nothing was written: the connection never came up. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_PRX_TLS', 'UND_ERR_PRX_CONN',
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The codes and names along an error's cause chain (undici wraps system errors). */
function chainOf(error: unknown): Array<{ code?: string; name?: string }> {
  const chain: Array<{ code?: string; name?: string }> = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const { code, name } = current as { code?: unknown; name?: unknown };
    chain.push({ code: typeof code === 'string' ? code : undefined, name: typeof name === 'string' ? name : undefined });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

/** Maps a failure of undici's `request` or node:http to a TransportError kind and whether the request may have been sent. */
export function classifyNodeError(error: unknown, state: { callerAborted: boolean; timedOut: boolean }): TransportError {
  const message = error instanceof Error ? error.message : String(error);
  const chain = chainOf(error);
  const codes = chain.map((link) => link.code).filter((code): code is string => code !== undefined);
  let kind: TransportFailureKind;
  let sent: boolean;
  if (state.callerAborted) [kind, sent] = ['aborted', true];
  else if (state.timedOut || codes.some((code) => TIMEOUT_CODES.has(code)) || chain.some((link) => link.name === 'TimeoutError')) {
    // A connect timeout is the exception: nothing was written yet.
    [kind, sent] = codes.includes('UND_ERR_CONNECT_TIMEOUT') ? ['connect', false] : ['timeout', true];
  } else if (codes.some((code) => NOT_SENT_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))) [kind, sent] = ['connect', false];
  else if (codes.some((code) => RESET_CODES.has(code))) [kind, sent] = ['reset', true];
  else if (codes.includes('UND_ERR_ABORTED') || chain.some((link) => link.name === 'AbortError')) [kind, sent] = ['aborted', true];
  else [kind, sent] = ['other', true];
  const code = codes[0];
  return new TransportError(kind, sent, code && !message.includes(code) ? `${message} (${code})` : message, error);
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

