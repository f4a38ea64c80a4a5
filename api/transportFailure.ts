/**
 * The one classifier of transport failures (no response): undici and node:http in api/node and
 * the actions, n8n's request helper (axios) in the nodes. It names the TransportError kind and
 * `sent`, which tells the retry policy whether the service may have received the request. Pure:
 * it reads only the error's cause chain (codes, names, messages).
 */
import { TransportError, type TransportFailureKind } from './transport.js';

/** Nothing was written: the connection never came up. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_PRX_TLS', 'UND_ERR_PRX_CONN', 'ERR_PROXY_TUNNEL',
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_SOCKET_CLOSED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
/** axios reports its own timeout as ECONNABORTED with the first message; others say "timed out". */
const TIMEOUT_MESSAGE = /timeout of \d+ms exceeded|timed? ?out/i;

interface Link {
  code?: string;
  name?: string;
  message?: string;
}

/** The codes, names and messages along an error's cause chain (undici and n8n wrap the system error). */
function chainOf(error: unknown): Link[] {
  const chain: Link[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 6 && typeof current === 'object' && current !== null; depth++) {
    const { code, name, message } = current as Record<string, unknown>;
    chain.push({
      code: typeof code === 'string' ? code : undefined,
      name: typeof name === 'string' ? name : undefined,
      message: typeof message === 'string' ? message : undefined,
    });
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

export interface FailureState {
  /** The caller's signal fired. */
  callerAborted: boolean;
  /** The transport's own per-attempt timer fired. */
  timedOut: boolean;
}

interface ClassifyOptions {
  /**
   * Keep only the innermost message and no cause: n8n's request helper puts the request
   * configuration, the key's header included, on its error.
   */
  messagesOnly?: boolean;
}

export function classifyTransportFailure(error: unknown, state: FailureState, options: ClassifyOptions = {}): TransportError {
  const chain = chainOf(error);
  const codes = chain.map((link) => link.code).filter((code): code is string => code !== undefined);
  const messages = chain.map((link) => link.message).filter((message): message is string => message !== undefined);
  let kind: TransportFailureKind;
  let sent: boolean;
  if (state.callerAborted || codes.includes('ERR_CANCELED')) [kind, sent] = ['aborted', true];
  else if (
    state.timedOut ||
    codes.some((code) => TIMEOUT_CODES.has(code)) ||
    chain.some((link) => link.name === 'TimeoutError') ||
    messages.some((message) => TIMEOUT_MESSAGE.test(message))
  ) {
    // A connect timeout is the exception: nothing was written yet.
    [kind, sent] = codes.includes('UND_ERR_CONNECT_TIMEOUT') ? ['connect', false] : ['timeout', true];
  } else if (codes.some((code) => NOT_SENT_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_'))) [kind, sent] = ['connect', false];
  else if (codes.some((code) => RESET_CODES.has(code))) [kind, sent] = ['reset', true];
  else if (codes.includes('UND_ERR_ABORTED') || chain.some((link) => link.name === 'AbortError')) [kind, sent] = ['aborted', true];
  else [kind, sent] = ['other', true];
  if (options.messagesOnly) {
    const code = codes.find((candidate) => !messages.some((message) => message.includes(candidate)));
    const message = messages[messages.length - 1] ?? 'request failed';
    return new TransportError(kind, sent, code ? `${message} (${code})` : message);
  }
  const message = error instanceof Error ? error.message : String(error);
  const code = codes[0];
  return new TransportError(kind, sent, code && !message.includes(code) ? `${message} (${code})` : message, error);
}
