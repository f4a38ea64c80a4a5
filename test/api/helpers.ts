/**
 * Test scaffolding: the real undici transport over a MockAgent that records what was sent and
 * answers from a script, plus a fake clock whose sleep advances time instead of waiting.
 */
import { MockAgent } from 'undici';
import { ComplianceClient, type ComplianceClientOptions } from '../../api/client.js';
import { createNodeTransport } from '../../api/node/transport.js';
import type { Sleep, TransportRequest } from '../../api/transport.js';

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

/** A scripted service on a MockAgent: each `reply`/`fail` answers one request, in order. */
export class MockService {
  readonly agent = new MockAgent();
  /** What reached the service (as undici sent it). */
  readonly received: RecordedRequest[] = [];
  /** What the client handed to the transport, including attempts that failed to connect. */
  readonly attempts: TransportRequest[] = [];
  readonly #pool;

  constructor(origin = ORIGIN) {
    this.agent.disableNetConnect();
    this.#pool = this.agent.get(origin);
  }

  reply(status: number, body?: unknown, headers: Record<string, string> = {}): this {
    this.#pool.intercept({ path: () => true, method: () => true }).reply((request) => {
      this.received.push({
        method: request.method,
        path: request.path,
        headers: headerRecord(request.headers),
        body: bodyText(request.body),
      });
      const isBytes = body instanceof Uint8Array;
      const data = body === undefined ? '' : typeof body === 'string' ? body : isBytes ? Buffer.from(body) : JSON.stringify(body);
      const contentType = typeof body === 'string' || isBytes || body === undefined ? {} : { 'content-type': 'application/json' };
      return { statusCode: status, data, responseOptions: { headers: { ...contentType, ...headers } } };
    });
    return this;
  }

  /** The next request fails without a response (the error goes through the transport's classifier). */
  fail(error: Error): this {
    this.#pool.intercept({ path: () => true, method: () => true }).replyWithError(error);
    return this;
  }

  transport(): ComplianceClientOptions['transport'] {
    const node = createNodeTransport({ dispatcher: this.agent });
    return (request) => {
      this.attempts.push(request);
      return node(request);
    };
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
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
