/** The Node adapters: failure classification, proxy selection, sleep, the Node client and clientFromEnv. */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer } from 'node:net';
import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { ComplianceClient, clientFromEnv } from '../../api/node/index.js';
import { envClient } from '../../api/node/env.js';
import { flattenHeaders } from '../../api/node/errors.js';
import { proxySettings } from '../../api/node/proxy.js';
import { nodeSleep } from '../../api/node/sleep.js';
import { classifyNodeError, createNodeTransport, transportFetch } from '../../api/node/transport.js';
import { TransportError } from '../../api/transport.js';
import { ComplianceClient as CoreComplianceClient } from '../../api/client.js';
import { API_KEY, FakeTime, MockService, systemError } from './helpers.js';

const plain = { callerAborted: false, timedOut: false };

describe('classifyNodeError', () => {
  it.each([
    ['ECONNREFUSED', systemError('ECONNREFUSED'), 'connect', false],
    ['ENOTFOUND', systemError('ENOTFOUND'), 'connect', false],
    ['EAI_AGAIN', systemError('EAI_AGAIN'), 'connect', false],
    ['a connect timeout', new undiciErrors.ConnectTimeoutError(), 'connect', false],
    ['a TLS failure', systemError('CERT_HAS_EXPIRED'), 'connect', false],
    ['ECONNRESET', systemError('ECONNRESET'), 'reset', true],
    ['a socket error', new undiciErrors.SocketError('other side closed'), 'reset', true],
    ['a headers timeout', new undiciErrors.HeadersTimeoutError(), 'timeout', true],
    ['a body timeout', new undiciErrors.BodyTimeoutError(), 'timeout', true],
    ['a wrapped refusal', Object.assign(new Error('fetch failed'), { cause: systemError('ECONNREFUSED') }), 'connect', false],
    ['something else', new Error('weird'), 'other', true],
  ])('%s → %s (sent=%s)', (_, error, kind, sent) => {
    const classified = classifyNodeError(error, plain);
    expect(classified).toBeInstanceOf(TransportError);
    expect({ kind: classified.kind, sent: classified.sent }).toEqual({ kind, sent });
    expect(classified.cause).toBe(error);
  });

  it('the caller aborting wins, and the overall timeout is a timeout', () => {
    expect(classifyNodeError(new DOMException('x', 'AbortError'), { callerAborted: true, timedOut: false }).kind).toBe('aborted');
    expect(classifyNodeError(new DOMException('x', 'TimeoutError'), { callerAborted: false, timedOut: true }).kind).toBe('timeout');
  });

  it('a real refused connection to a closed local port is connect, not sent', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const address = server.address();
        server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
      });
    });
    const transport = createNodeTransport();
    const error = await transport({ method: 'GET', url: `http://127.0.0.1:${port}/api/public/v1/ping`, headers: {}, timeoutMs: 5_000 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ kind: 'connect', sent: false });
  });
});

describe('proxies (HTTPS_PROXY / HTTP_PROXY / NO_PROXY), through Node\'s own agents', () => {
  /** A loopback HTTP server answering `name` and recording the request line it saw. */
  async function listen(name: string, seen: string[]): Promise<{ server: Server; port: number }> {
    const server = createHttpServer((request, response) => {
      seen.push(`${request.method} ${request.url}`);
      response.end(name);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    return { server, port: typeof address === 'object' && address ? address.port : 0 };
  }
  const text = (body: Uint8Array) => new TextDecoder().decode(body);

  it('sends through the proxy a variable names, and directly to a host NO_PROXY lists', async () => {
    const seenByProxy: string[] = [];
    const seenByService: string[] = [];
    const proxy = await listen('proxy', seenByProxy);
    const service = await listen('service', seenByService);
    try {
      for (const env of [{ HTTP_PROXY: `http://127.0.0.1:${proxy.port}` }, { http_proxy: `http://127.0.0.1:${proxy.port}` }]) {
        const via = await createNodeTransport({ env })({ method: 'GET', url: `http://service.example.test:${service.port}/api/public/v1/ping`, headers: {}, timeoutMs: 5_000 });
        expect(text(via.body)).toBe('proxy');
      }
      expect(seenByProxy).toEqual([`GET http://service.example.test:${service.port}/api/public/v1/ping`, `GET http://service.example.test:${service.port}/api/public/v1/ping`]);
      const direct = await createNodeTransport({ env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}`, NO_PROXY: '127.0.0.1' } })({ method: 'GET', url: `http://127.0.0.1:${service.port}/x`, headers: {}, timeoutMs: 5_000 });
      expect(text(direct.body)).toBe('service');
      expect(seenByService).toEqual(['GET /x']);
      expect(seenByProxy).toHaveLength(2);
    } finally {
      proxy.server.close();
      service.server.close();
    }
  });

  it('reads each variable upper case first, then lower case; HTTPS falls back to the HTTP proxy', () => {
    expect(proxySettings({ NO_PROXY: 'internal' })).toBeUndefined();
    expect(proxySettings({ HTTP_PROXY: 'http://upper', http_proxy: 'http://lower', NO_PROXY: 'a', no_proxy: 'b' })).toEqual({ httpProxy: 'http://upper', httpsProxy: 'http://upper', noProxy: 'a' });
    expect(proxySettings({ http_proxy: 'http://lower', no_proxy: 'b' })).toEqual({ httpProxy: 'http://lower', httpsProxy: 'http://lower', noProxy: 'b' });
    expect(proxySettings({ HTTPS_PROXY: 'http://secure', https_proxy: 'http://secure-lower', HTTP_PROXY: 'http://plain' })).toEqual({ httpProxy: 'http://plain', httpsProxy: 'http://secure', noProxy: undefined });
    expect(proxySettings({ https_proxy: 'http://secure-lower', HTTP_PROXY: 'http://plain' })?.httpsProxy).toBe('http://secure-lower');
  });

  it('refuses, before connecting, to ignore a proxy on a Node.js without proxy support (before 24.5), and needs none without a proxy', async () => {
    for (const nodeVersion of ['24.4.0', '23.11.0']) {
      const transport = createNodeTransport({ env: { HTTPS_PROXY: 'http://proxy.internal:3128' }, nodeVersion });
      const error = await transport({ method: 'GET', url: 'https://api.example.test/api/public/v1/ping', headers: {}, timeoutMs: 5_000 }).catch((caught: unknown) => caught);
      expect(error).toMatchObject({ kind: 'connect', sent: false, message: `HTTPS_PROXY / HTTP_PROXY is set, but Node.js ${nodeVersion} cannot use a proxy here (Node.js 24.5 or newer can)` });
    }
    const seenByProxy: string[] = [];
    const proxy = await listen('proxy', seenByProxy);
    const service = await listen('service', []);
    try {
      for (const nodeVersion of ['24.5.0', '25.0.0']) {
        const via = await createNodeTransport({ env: { HTTP_PROXY: `http://127.0.0.1:${proxy.port}` }, nodeVersion })({ method: 'GET', url: `http://service.example.test:${service.port}/x`, headers: {}, timeoutMs: 5_000 });
        expect(text(via.body)).toBe('proxy');
      }
      const direct = await createNodeTransport({ env: {}, nodeVersion: '20.0.0' })({ method: 'GET', url: `http://127.0.0.1:${service.port}/x`, headers: {}, timeoutMs: 5_000 });
      expect(text(direct.body)).toBe('service');
      expect(seenByProxy).toHaveLength(2);
    } finally {
      proxy.server.close();
      service.server.close();
    }
  });
});

describe('transportFetch (Octokit\'s fetch over the transport)', () => {
  it('sends headers as `new Headers()` would name them, in every form fetch takes, and answers what Octokit reads of a Response', async () => {
    const seen: Array<Record<string, string | string[] | undefined>> = [];
    const server = createHttpServer((request, response) => {
      seen.push(request.headers);
      if (request.url === '/empty') response.writeHead(204).end();
      else response.writeHead(201, { 'content-type': 'application/json', 'x-ratelimit-remaining': '4999' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    const fetchOver = transportFetch(createNodeTransport({ env: {} }));
    const forms: Array<ConstructorParameters<typeof Headers>[0]> = [
      { Accept: 'application/vnd.github+json', accept: 'text/plain', 'X-GitHub-Api-Version': '2022-11-28', Constructor: 'a name Object.prototype has' },
      [['Accept', 'application/vnd.github+json'], ['accept', 'text/plain'], ['X-GitHub-Api-Version', '2022-11-28'], ['Constructor', 'a name Object.prototype has']],
      new Headers([['Accept', 'application/vnd.github+json'], ['accept', 'text/plain'], ['X-GitHub-Api-Version', '2022-11-28'], ['Constructor', 'a name Object.prototype has']]),
    ];
    try {
      for (const headers of forms) {
        const response = await fetchOver(`${url}/issues`, { method: 'post', headers, body: '{"title":"x"}' });
        expect(response).toMatchObject({ status: 201, ok: true, url: `${url}/issues` });
        expect(response.headers.get('X-RateLimit-Remaining')).toBe('4999');
        // What Octokit reads: every header by iteration, then the body as text.
        expect(Object.fromEntries(response.headers)).toMatchObject({ 'content-type': 'application/json', 'x-ratelimit-remaining': '4999' });
        expect(await response.json()).toEqual({ ok: true });
      }
      for (const received of seen) {
        expect(received).toMatchObject({ accept: 'application/vnd.github+json, text/plain', 'x-github-api-version': '2022-11-28', constructor: 'a name Object.prototype has', 'content-length': '13' });
      }
      const empty = await fetchOver(`${url}/empty`, { headers: { Accept: 'application/json' } });
      expect(empty.status).toBe(204);
      expect(await empty.text()).toBe('');
      expect((await empty.arrayBuffer()).byteLength).toBe(0);
    } finally {
      server.close();
    }
  });
});

describe('nodeSleep', () => {
  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(nodeSleep(60_000, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('resolves after a zero wait', async () => {
    await expect(nodeSleep(0)).resolves.toBeUndefined();
  });
});

describe('the Node ComplianceClient', () => {
  it('needs only apiKey and baseUrl', async () => {
    const service = new MockService().reply(200, { ok: true, client: 'CI', mode: 'live' });
    const client = new ComplianceClient({ apiKey: API_KEY, baseUrl: 'https://api.example.test', transport: service.transport() });
    expect((await client.ping()).mode).toBe('live');
    expect(new ComplianceClient({ apiKey: API_KEY, baseUrl: 'https://api.example.test' }).baseUrl).toBe('https://api.example.test/api/public/v1');
    await service.close();
  });

  it('called from JavaScript without options, names the option missing (no TypeError)', () => {
    expect(() => new ComplianceClient(undefined as never)).toThrow(expect.objectContaining({ name: 'ComplianceValidationError', field: 'baseUrl' }));
  });

  it('keeps the clock it is given: a Retry-After date is read against it', async () => {
    const time = new FakeTime();
    const service = new MockService()
      .reply(429, { error: { code: 'rate_limited', message: 'Slow down' } }, { 'retry-after': 'Thu, 01 Jan 2026 12:00:07 GMT' })
      .reply(200, { ok: true, client: 'CI', mode: 'live' });
    const client = new ComplianceClient({ apiKey: API_KEY, baseUrl: 'https://api.example.test', transport: service.transport(), sleep: time.sleep, now: time.now, pacing: false });
    expect((await client.ping()).mode).toBe('live');
    expect(time.sleeps).toContain(7_000);
    await service.close();
  });
});

describe('flattenHeaders', () => {
  it('names each header in lower case, joins repeated values and leaves out absent ones', () => {
    expect(flattenHeaders({ 'Set-Cookie': ['a=1', 'b=2'], 'Content-Type': 'text/plain', 'X-Absent': undefined })).toStrictEqual({ 'set-cookie': 'a=1, b=2', 'content-type': 'text/plain' });
  });
});

describe('envClient (the rule clientFromEnv and the actions share)', () => {
  const transport = new MockService().transport();

  it('builds the core client unless told how', () => {
    expect(envClient({ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: 'https://api.example.test' }, { transport })).toBeInstanceOf(CoreComplianceClient);
  });

  it('takes a base URL of spaces only as not set', () => {
    expect(() => envClient({ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: '   ' }, { transport })).toThrow(expect.objectContaining({ code: 'missing_base_url', field: 'COMPLIANCE_BASE_URL' }));
  });
});

describe('clientFromEnv', () => {
  it('builds a client from COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL', () => {
    const client = clientFromEnv({ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: 'http://localhost:4010/' });
    expect(client.baseUrl).toBe('http://localhost:4010/api/public/v1');
    expect(JSON.stringify(client)).not.toContain(API_KEY);
  });

  it.each([
    [{ COMPLIANCE_BASE_URL: 'https://api.example.test' }, 'missing_api_key', 'COMPLIANCE_API_KEY'],
    [{ COMPLIANCE_API_KEY: '  ' , COMPLIANCE_BASE_URL: 'https://api.example.test' }, 'missing_api_key', 'COMPLIANCE_API_KEY'],
    [{ COMPLIANCE_API_KEY: API_KEY }, 'missing_base_url', 'COMPLIANCE_BASE_URL'],
    [{ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: 'http://api.example.test' }, 'invalid_base_url', 'COMPLIANCE_BASE_URL'],
  ])('refuses %o with %s', (env, code, field) => {
    expect(() => clientFromEnv(env)).toThrow(expect.objectContaining({ code, field }));
  });

  it('trims the variables, says which one to set and how, and names the variable only for a base URL it read', async () => {
    const sent: string[] = [];
    const transport = async (request: { url: string }) => {
      sent.push(request.url);
      return { status: 200, headers: { 'content-type': 'application/json' }, body: new TextEncoder().encode('{"mode":"sandbox"}') };
    };
    const client = clientFromEnv({ COMPLIANCE_API_KEY: ` ${API_KEY} `, COMPLIANCE_BASE_URL: ' http://127.0.0.1:4010 ' }, { transport });
    expect(client.baseUrl).toBe('http://127.0.0.1:4010/api/public/v1');
    await client.ping();
    expect(sent).toEqual(['http://127.0.0.1:4010/api/public/v1/ping']);

    expect(() => clientFromEnv({ COMPLIANCE_BASE_URL: 'https://api.example.test' })).toThrow(
      expect.objectContaining({ message: 'COMPLIANCE_API_KEY is not set', hint: expect.stringMatching(/^Set COMPLIANCE_API_KEY to your API key/) }),
    );
    expect(() => clientFromEnv({ COMPLIANCE_API_KEY: API_KEY })).toThrow(
      expect.objectContaining({ message: 'COMPLIANCE_BASE_URL is not set', hint: expect.stringMatching(/^Set COMPLIANCE_BASE_URL to https:\/\/<host>\/api\/public\/v1/) }),
    );
    const fromEnv = (() => { try { clientFromEnv({ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: 'http://api.example.test' }); } catch (error) { return error; } })();
    expect(fromEnv).toMatchObject({ field: 'COMPLIANCE_BASE_URL', message: expect.stringMatching(/^COMPLIANCE_BASE_URL: baseUrl /), cause: { field: 'baseUrl' } });
    // Given by the caller, not read from the environment: the caller's own field name stays.
    expect(() => clientFromEnv({ COMPLIANCE_API_KEY: API_KEY }, { baseUrl: 'http://api.example.test' })).toThrow(expect.objectContaining({ field: 'baseUrl' }));
    // Another field's error is not the base URL's.
    expect(() => clientFromEnv({ COMPLIANCE_API_KEY: API_KEY, COMPLIANCE_BASE_URL: 'https://api.example.test' }, { timeoutMs: -1 })).toThrow(expect.objectContaining({ field: 'timeoutMs' }));
  });
});
