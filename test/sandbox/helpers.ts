/** Test helpers: a sandbox on a free loopback port and a small HTTP client that returns everything. */
import type { ComplianceApi } from '../../api/clientTypes.js';
import { ComplianceClient } from '../../api/node/index.js';
import { createNodeTransport } from '../../api/node/transport.js';
import type { Transport, TransportRequest, TransportResponse } from '../../api/transport.js';
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../sandbox/index.js';

export const LIVE_KEY = 'csk_live_testkey_0001';
export const SANDBOX_KEY = 'csk_sandbox_testkey_0001';
export const OTHER_KEY = 'csk_sandbox_testkey_0002';

/** A clock tests move by hand, so job states and windows never depend on real time. */
export class ManualClock {
  constructor(public nowMs = Date.UTC(2026, 0, 5, 9, 0, 0)) {}
  now = () => this.nowMs;
  advance(ms: number) {
    this.nowMs += ms;
  }
}

export async function sandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, jobSeconds: 0, keys: [`${LIVE_KEY}:live:5000000`, SANDBOX_KEY, OTHER_KEY], ...options });
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
  text: string;
  bytes: Uint8Array;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  rawBody?: string | Uint8Array | FormData;
  headers?: Record<string, string>;
  via?: 'bearer' | 'x-api-key';
}

export function client(box: RunningSandbox, defaultKey: string | null = SANDBOX_KEY) {
  return async function call(method: string, path: string, options: RequestOptions = {}): Promise<Answer> {
    const key = options.key === undefined ? defaultKey : options.key;
    const headers: Record<string, string> = { ...options.headers };
    if (key) {
      if (options.via === 'x-api-key') headers['x-api-key'] = key;
      else headers.authorization = `Bearer ${key}`;
    }
    let body: string | Uint8Array | FormData | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(path.startsWith('http') ? path : `${box.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text, bytes };
  };
}

/** Asserts the error envelope shape and returns its error object. */
export function envelope(answer: Answer, status: number, code: string) {
  const error = answer.body?.error;
  if (answer.status !== status || error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${answer.status} ${answer.text.slice(0, 300)}`);
  }
  for (const field of ['code', 'message', 'hint', 'requestId']) {
    if (typeof error[field] !== 'string' || error[field] === '') throw new Error(`envelope lacks ${field}: ${answer.text}`);
  }
  if (answer.headers.get('x-request-id') !== error.requestId) throw new Error('X-Request-Id differs from the envelope requestId');
  if (/\bat .+:\d+:\d+/.test(answer.text)) throw new Error('stack trace in a response');
  return error as { code: string; message: string; hint: string; requestId: string } & Record<string, unknown>;
}

/** A realistic policy text of at least 200 characters, distinct per seed. */
export function policyText(seed: string): string {
  return [
    `# ${seed} policy`,
    `This ${seed} policy sets out how the organisation protects information assets. Access to systems is granted on the principle of least privilege and reviewed quarterly by system owners.`,
    'Multi-factor authentication is required for remote access and for all administrative accounts. Security incidents are reported to the security team within one hour and handled under the incident response plan.',
    `Backups are encrypted, tested monthly and kept for ninety days. Reference: ${seed}.`,
  ].join('\n\n');
}

/** Two policy documents of a repository, as the review tests map and sync them. */
export const POLICY_PAIR = [
  { path: 'policies/access.md', content: policyText('access control') },
  { path: 'policies/backup.md', content: policyText('backup') },
] as const;

/** The real API client for `key` against `box`, without retries, so a test sees every answer. */
export function apiClient(box: RunningSandbox, key: string): ComplianceClient {
  return new ComplianceClient({ apiKey: key, baseUrl: box.baseUrl, maxRetries: 0 });
}

/** `key`'s client against `box` whose every request goes through `route`, which may pass it on (`send`) changed or answer it itself. */
export function faultyClient(box: RunningSandbox, key: string, route: (request: TransportRequest, send: Transport) => Promise<TransportResponse>): ComplianceClient {
  const send = createNodeTransport();
  return new ComplianceClient({ apiKey: key, baseUrl: box.baseUrl, maxRetries: 0, transport: (request) => route(request, send) });
}

export const isMapUpload = (request: TransportRequest): boolean => request.method === 'POST' && new URL(request.url).pathname.endsWith('/documents/map');

/** The service's 404 for a job it does not hold: what faultyClient's route answers where the sandbox would not. */
export function jobNotFoundAnswer(): TransportResponse {
  const envelope = { error: { code: 'job_not_found', message: 'No such job.', hint: 'Check the job id.', requestId: 'req_test' } };
  return { status: 404, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode(JSON.stringify(envelope)) };
}

/** What a recording client was asked: each method called, with its arguments. */
export interface RecordedCall {
  method: string;
  args: unknown[];
}

/**
 * `key`'s real client against `box`, recording each method called and its arguments, so a test can
 * say what a step asked for; `replace` swaps one method's answer (a fault the sandbox cannot produce).
 */
export function recordingClient(box: RunningSandbox, key: string, replace: Partial<Record<keyof ComplianceApi, (...args: unknown[]) => unknown>> = {}) {
  const calls: RecordedCall[] = [];
  const real = apiClient(box, key);
  const client = new Proxy(real, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push({ method: String(name), args });
        const swapped = replace[name as keyof ComplianceApi];
        return swapped ? swapped(...args) : (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  }) as ComplianceApi;
  return { client, calls, real, methods: () => calls.map((call) => call.method) };
}

/** The live test key's token balance on `box`: what a test compares before and after a charged call. */
export async function liveBalance(box: RunningSandbox): Promise<number> {
  return (await apiClient(box, LIVE_KEY).getBilling()).balanceTokens;
}

/** The error a call rejects with (fails the test when it resolves). */
export async function failure<T extends Error>(promise: Promise<unknown>): Promise<T> {
  try {
    await promise;
  } catch (error) {
    return error as T;
  }
  throw new Error('expected the call to fail');
}
