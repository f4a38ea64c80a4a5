/**
 * The Node transport (api/node/transport.ts) against real loopback sockets, over http and https:
 * which failures tell the retry policy the request was not sent (a timeout before the connection,
 * TLS included, came up; a proxy refusing the tunnel) and which that it may have been (a timeout
 * waiting for the answer, on a new or a kept-alive connection; a connection lost mid-answer); the
 * caller's abort, before and after connecting.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server, type Socket } from 'node:net';
import tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeTransport } from '../../api/node/transport.js';
import type { TransportRequest } from '../../api/transport.js';

const certificate = readFileSync(new URL('../fixtures/tls/loopback.crt', import.meta.url), 'utf8');
const key = readFileSync(new URL('../fixtures/tls/loopback.key', import.meta.url), 'utf8');

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

/** Listens on loopback; every server and connection is closed after the file. */
const servers: Server[] = [];
const accepted: Socket[] = [];
async function listen(server: Server, scheme: 'http' | 'https'): Promise<{ origin: string; server: Server; connections: () => number }> {
  servers.push(server);
  let connections = 0;
  server.on('connection', (socket: Socket) => {
    accepted.push(socket);
    connections++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { origin: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`, server, connections: () => connections };
}

/** A server that accepts TCP connections and never says a word: a TLS handshake with it never completes. */
const silentServer = () => listen(createTcpServer(), 'https');

/** An http and an https server on loopback, both running `handler`. */
const servePlainAndSecure = (handler: Handler) =>
  Promise.all([listen(createHttpServer(handler), 'http'), listen(createHttpsServer({ cert: certificate, key }, handler), 'https')]);

const get = (url: string, timeoutMs: number, signal?: AbortSignal): TransportRequest => ({ method: 'GET', url, headers: {}, timeoutMs, signal });
const failureOf = (answer: Promise<unknown>) => answer.then(() => undefined, (error: unknown) => error);

// The https servers' certificate is trusted for this file only.
const defaultAuthorities = tls.getCACertificates('default');
beforeAll(() => tls.setDefaultCACertificates([...defaultAuthorities, certificate]));
afterAll(() => {
  tls.setDefaultCACertificates(defaultAuthorities);
  for (const socket of accepted) socket.destroy();
  for (const server of servers) server.close();
});

describe('the Node transport: timeouts', () => {
  it('a timeout before the connection is up is a connect failure, not sent, even with TCP connected and TLS pending', async () => {
    const silent = await silentServer();
    const failure = failureOf(createNodeTransport({ env: {} })({ ...get(`${silent.origin}/x`, 50), method: 'POST', body: '{}' }));
    await once(silent.server, 'connection');
    expect(await failure).toMatchObject({ kind: 'connect', sent: false, message: 'connect timeout after 50 ms' });
  });

  it('a timeout waiting for the answer may have been sent, on a new connection and on a kept-alive one, with the caller\'s signal not fired', async () => {
    const { signal } = new AbortController();
    const origins = await servePlainAndSecure((request, response) => {
      if (request.url === '/answer') response.end('ok');
    });
    for (const { origin, connections } of origins) {
      const transport = createNodeTransport({ env: {} });
      expect(await failureOf(transport(get(`${origin}/hold`, 200, signal)))).toMatchObject({ kind: 'timeout', sent: true });
      expect(new TextDecoder().decode((await transport(get(`${origin}/answer`, 5_000))).body)).toBe('ok');
      expect(await failureOf(transport(get(`${origin}/hold`, 50, signal)))).toMatchObject({ kind: 'timeout', sent: true });
      // The timed-out connection was closed; the answered one was kept and used again.
      expect(connections()).toBe(2);
    }
  });
});

describe('the Node transport: the caller aborting', () => {
  // A deadline of the caller's own (AbortSignal.timeout) is still the caller's abort, not this attempt's timeout.
  const deadline = () => new DOMException('the caller\'s deadline passed', 'TimeoutError');

  it('before the connection is up is an abort', async () => {
    const silent = await silentServer();
    const controller = new AbortController();
    const failure = failureOf(createNodeTransport({ env: {} })(get(`${silent.origin}/x`, 5_000, controller.signal)));
    const [socket] = (await once(silent.server, 'connection')) as [Socket];
    controller.abort(deadline());
    socket.destroy();
    expect(await failure).toMatchObject({ kind: 'aborted', sent: true });
  });

  it('while waiting for the answer is an abort, and an answer arriving after it is not taken', async () => {
    const { origin, server } = await listen(createHttpServer(), 'http');
    const controller = new AbortController();
    const failure = failureOf(createNodeTransport({ env: {} })(get(`${origin}/hold`, 5_000, controller.signal)));
    const [, response] = (await once(server, 'request')) as [IncomingMessage, ServerResponse];
    controller.abort(deadline());
    response.end('too late');
    expect(await failure).toMatchObject({ kind: 'aborted', sent: true });
  });
});

describe('the Node transport: lost connections and proxies', () => {
  it('a connection lost in the middle of the answer is a reset that may have been sent', async () => {
    const { origin } = await listen(
      createHttpServer((_, response) => {
        response.writeHead(200, { 'content-length': '100' });
        response.write('the first bytes of a hundred', () => response.socket?.destroy());
      }),
      'http',
    );
    expect(await failureOf(createNodeTransport({ env: {} })(get(`${origin}/x`, 5_000)))).toMatchObject({ kind: 'reset', sent: true });
  });

  it('an https request goes through the proxy HTTPS_PROXY names; a proxy refusing the tunnel is a connect failure, not sent', async () => {
    const tunnels: string[] = [];
    const proxy = createHttpServer();
    proxy.on('connect', (request: IncomingMessage, socket: Socket) => {
      tunnels.push(request.url ?? '');
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    });
    const { origin: proxyUrl } = await listen(proxy, 'http');
    const error = await failureOf(createNodeTransport({ env: { HTTPS_PROXY: proxyUrl } })(get('https://api.example.test/api/public/v1/ping', 5_000)));
    expect(tunnels).toEqual(['api.example.test:443']);
    expect(error).toMatchObject({ kind: 'connect', sent: false, message: expect.stringContaining('403 Forbidden') });
  });
});
