/**
 * Test scaffolding: a scripted service in place of the transport, which records what the client
 * sent and answers from a script (failures go through the Node transport's own classifier), plus
 * a fake clock whose sleep advances time instead of waiting. The Node transport itself is tested
 * against real sockets (node.test.ts) and the sandbox.
 */
import { ComplianceClient, type ComplianceClientOptions } from '../../api/client.js';
import { classifyNodeError } from '../../api/node/errors.js';
import type { Sleep, TransportRequest, TransportResponse } from '../../api/transport.js';

export const ORIGIN = 'https://api.example.test';
export const BASE = '/api/public/v1';
export const API_KEY = 'cmp_live_S3cr3tK3yValue0123456789';
export const JOB_ID = '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

function headerRecord(headers: unknown): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  const entries =
    typeof (headers as Headers).forEach === 'function' && !(headers instanceof Array)
      ? (() => {
          const list: Array<[string, string]> = [];
          (headers as Headers).forEach((value, name) => list.push([name, value]));
          return list;
        })()
      : Object.entries(headers as Record<string, string>);
  for (const [name, value] of entries) record[name.toLowerCase()] = String(value);
  return record;
}

function bodyText(body: unknown): string | undefined {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('latin1');
  return String(body);
}

type Step = { reply: (request: TransportRequest) => TransportResponse } | { fail: Error };

/** A scripted service: each `reply`/`fail` answers one request, in order. */
export class MockService {
  /** What reached the service. */
  readonly received: RecordedRequest[] = [];
  /** What the client handed to the transport, including attempts that failed to connect. */
  readonly attempts: TransportRequest[] = [];
  readonly #script: Step[] = [];

  reply(status: number, body?: unknown, headers: Record<string, string> = {}): this {
    this.#script.push({
      reply: (request) => {
        const url = new URL(request.url);
        this.received.push({ method: request.method, path: `${url.pathname}${url.search}`, headers: headerRecord(request.headers ?? {}), body: bodyText(request.body) });
        const isBytes = body instanceof Uint8Array;
        const data = body === undefined ? '' : typeof body === 'string' ? body : isBytes ? body : JSON.stringify(body);
        const contentType: Record<string, string> = typeof body === 'string' || isBytes || body === undefined ? {} : { 'content-type': 'application/json' };
        return { status, headers: { ...contentType, ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value])) }, body: typeof data === 'string' ? new TextEncoder().encode(data) : data };
      },
    });
    return this;
  }

  /** The next request fails without a response (the error goes through the transport's classifier). */
  fail(error: Error): this {
    this.#script.push({ fail: error });
    return this;
  }

  transport(): ComplianceClientOptions['transport'] {
    return async (request) => {
      this.attempts.push(request);
      const step = this.#script.shift();
      if (!step) throw new Error(`no scripted answer left for ${request.method} ${request.url}`);
      if ('fail' in step) throw classifyNodeError(step.fail, { callerAborted: request.signal?.aborted === true, timedOut: false });
      return step.reply(request);
    };
  }

  /** Fails when a scripted answer was never asked for. */
  assertNoPendingInterceptors(): void {
    if (this.#script.length > 0) throw new Error(`${this.#script.length} scripted answer(s) never requested`);
  }

  async close(): Promise<void> {}
}

/** A clock that only moves when the code under test sleeps. */
export class FakeTime {
  current: number;
  readonly sleeps: number[] = [];

  constructor(start = Date.UTC(2026, 0, 1, 12, 0, 0)) {
    this.current = start;
  }

  now = (): number => this.current;

  sleep: Sleep = async (ms, signal) => {
    if (signal?.aborted) throw signal.reason;
    this.sleeps.push(ms);
    this.current += ms;
    // Let other tasks run, as a real timer would.
    await Promise.resolve();
    if (signal?.aborted) throw signal.reason;
  };
}

/** `{a: {b: value}}` from `a.b`: an answer holding `value` under a dotted name the adapters read. */
export const at = (path: string, value: unknown): Record<string, unknown> =>
  path.split('.').reduceRight<unknown>((inner, key) => ({ [key]: inner }), value) as Record<string, unknown>;

/** An error carrying a system error code, as node's net module raises. */
export function systemError(code: string, message = `${code} test`): Error {
  return Object.assign(new Error(message), { code });
}

export function makeClient(
  service: MockService,
  time: FakeTime,
  overrides: Partial<ComplianceClientOptions> = {},
): ComplianceClient {
  return new ComplianceClient({
    apiKey: API_KEY,
    baseUrl: ORIGIN,
    transport: service.transport(),
    sleep: time.sleep,
    now: time.now,
    random: () => 0.5,
    ...overrides,
  });
}

export const LIBRARY_TEXT = 'Our access control policy requires multi-factor authentication for every administrator. '.repeat(4);

export const JOB_ACCEPTED = {
  jobId: JOB_ID,
  status: 'queued',
  poll: `/jobs/${JOB_ID}`,
  document: `/documents/${JOB_ID}`,
  estimatedSeconds: 8,
};
