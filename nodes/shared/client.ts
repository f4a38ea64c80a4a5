/**
 * The shared API core inside n8n: a ComplianceClient whose transport is n8n's
 * `httpRequestWithAuthentication` (the credential's `authenticate` adds the key; the client never
 * sees it) and whose sleep is n8n-workflow's `sleep`. No second HTTP client, no timers of our own.
 */
import type {
  IExecuteFunctions,
  IHttpRequestOptions,
  ILoadOptionsFunctions,
  IPollFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { ComplianceClient } from '../../api/client.js';
import { ComplianceValidationError } from '../../api/errors.js';
import type { RetryNotice } from '../../api/clientTypes.js';
import { retryNoticeText } from '../../api/retry.js';
import {
  TransportError,
  type Sleep,
  type Transport,
} from '../../api/transport.js';
import { classifyTransportFailure } from '../../api/transportFailure.js';

const CREDENTIAL_TYPE = 'complianceApi';
const USER_AGENT = 'n8n-nodes-compliance (n8n)';

type ComplianceContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

interface FullResponse {
  body?: unknown;
  headers?: unknown;
  statusCode?: number;
}

/**
 * Classifies a failure of n8n's request helper with no response. Only the message is kept: the
 * helper's error carries the request configuration, headers (and so the key) included.
 */
function classifyRequestFailure(error: unknown, aborted: boolean): TransportError {
  return classifyTransportFailure(error, { callerAborted: aborted, timedOut: false }, { messagesOnly: true });
}

function headersOf(raw: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  if (typeof raw !== 'object' || raw === null) return headers;
  const source =
    typeof (raw as { toJSON?: unknown }).toJSON === 'function'
      ? ((raw as { toJSON: () => unknown }).toJSON() as Record<string, unknown>)
      : (raw as Record<string, unknown>);
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || value === null) continue;
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}

function bytesOf(body: unknown): Uint8Array {
  if (body === undefined || body === null) return new Uint8Array(0);
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (typeof body === 'string') return new TextEncoder().encode(body);
  // A helper that parsed JSON despite the arraybuffer encoding: re-serialise it.
  return new TextEncoder().encode(JSON.stringify(body));
}

/** A Transport over `this.helpers.httpRequestWithAuthentication` with the Compliance API credential. */
function n8nTransport(context: ComplianceContext): Transport {
  return async (request) => {
    const options: IHttpRequestOptions = {
      method: request.method,
      url: request.url,
      headers: { ...request.headers },
      returnFullResponse: true,
      ignoreHttpStatusErrors: true,
      encoding: 'arraybuffer',
      json: false,
      timeout: request.timeoutMs,
    };
    if (request.body !== undefined) {
      options.body = typeof request.body === 'string' ? request.body : Buffer.from(request.body);
    }
    let response: FullResponse;
    try {
      response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options)) as FullResponse;
    } catch (error) {
      throw classifyRequestFailure(error, request.signal?.aborted === true);
    }
    if (typeof response !== 'object' || response === null || typeof response.statusCode !== 'number') {
      throw new TransportError('other', true, 'the n8n request helper returned no status code');
    }
    return { status: response.statusCode, headers: headersOf(response.headers), body: bytesOf(response.body) };
  };
}

/** n8n-workflow's sleep; an abort is noticed by the client right after the sleep. */
const n8nSleep: Sleep = async (ms) => {
  await sleep(ms);
};

interface ClientSettings {
  /** Per-attempt timeout in ms. */
  timeoutMs?: number;
}

/**
 * Refuses a missing or malformed API Key before any request: n8n's request helper would send an
 * empty key to the service (a 401 that does not say what is wrong) or fail on a key with a line
 * break with an HTTP library message. Never echoes the value.
 */
function checkApiKey(apiKey: unknown): void {
  if (typeof apiKey === 'string' && apiKey.trim() !== '' && ![...apiKey].some((char) => /\s/.test(char) || char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return;
  throw new ComplianceValidationError({
    code: 'invalid_api_key',
    field: 'apiKey',
    message: `The API Key of the Compliance API credential is ${typeof apiKey === 'string' && apiKey.trim() !== '' ? 'malformed (it contains spaces or line breaks)' : 'missing'}`,
    hint: 'Open the credential and paste the key exactly as issued (it is shown once), without spaces or line breaks.',
  });
}

/**
 * Each wait before a retry as a hint in the node's output pane (a run that paused a minute for the
 * service's rate limit says why); only an execution has hints, so pickers and the trigger stay quiet.
 */
function retryHints(context: ComplianceContext): ((notice: RetryNotice) => void) | undefined {
  if (!('addExecutionHints' in context) || typeof context.addExecutionHints !== 'function') return undefined;
  return (notice) => context.addExecutionHints({ message: `Waited for the service: ${retryNoticeText(notice)}`, type: 'info', location: 'outputPane' });
}

export async function createClient(context: ComplianceContext, settings: ClientSettings = {}): Promise<ComplianceClient> {
  const credentials = await context.getCredentials(CREDENTIAL_TYPE);
  checkApiKey(credentials.apiKey);
  const onRetry = retryHints(context);
  return new ComplianceClient({
    baseUrl: String(credentials.baseUrl ?? ''),
    transport: n8nTransport(context),
    sleep: n8nSleep,
    now: () => Date.now(),
    userAgent: USER_AGENT,
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...(onRetry ? { onRetry } : {}),
  });
}
