/** The Node adapters: failure classification, proxy selection, sleep, the Node client and clientFromEnv. */
import { createServer } from 'node:net';
import { Agent, EnvHttpProxyAgent, errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { ComplianceClient, clientFromEnv } from '../../api/node/index.js';
import { nodeSleep } from '../../api/node/sleep.js';
import { createDefaultDispatcher, createNodeTransport } from '../../api/node/transport.js';
import { classifyNodeError } from '../../api/node/transport.js';
import { TransportError } from '../../api/transport.js';
import { API_KEY, MockService, systemError } from './helpers.js';

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

describe('dispatcher selection', () => {
  it('uses a keep-alive Agent without proxy variables', async () => {
    const dispatcher = createDefaultDispatcher({ env: {} });
    expect(dispatcher).toBeInstanceOf(Agent);
    await dispatcher.close();
  });

  it.each([{ HTTPS_PROXY: 'http://proxy.internal:3128' }, { http_proxy: 'http://proxy.internal:3128', NO_PROXY: 'localhost' }])('uses EnvHttpProxyAgent with %o', async (env) => {
    const dispatcher = createDefaultDispatcher({ env });
    expect(dispatcher).toBeInstanceOf(EnvHttpProxyAgent);
    await dispatcher.close();
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
    const client = new ComplianceClient({ apiKey: API_KEY, baseUrl: 'https://api.example.test', transport: createNodeTransport({ dispatcher: service.agent }) });
    expect((await client.ping()).mode).toBe('live');
    expect(new ComplianceClient({ apiKey: API_KEY, baseUrl: 'https://api.example.test' }).baseUrl).toBe('https://api.example.test/api/public/v1');
    await service.close();
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
});
