/**
 * Every connection is closed once its headers, its body or its idleness exceed their limits (issue
 * 37.8): a client that stalls, and never closes its own side, holds no socket of the sandbox; a
 * client whose upload is slow but keeps coming is answered however long it takes. Raw sockets over
 * loopback against the real server, its limits set small.
 */
import { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { sandbox, SANDBOX_KEY } from './helpers.js';

const LIMITS = { headersSeconds: 0.5, bodyStallSeconds: 1, idleSeconds: 0.5 };

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ connectionLimits: LIMITS });
});
afterAll(async () => {
  await box?.close();
});

/**
 * Connects, writes `sent`, and never closes its own side, as a stalled client would not: resolves
 * with what came back and when the server really closed the connection. A server that only ends its
 * side (half-close) accepts the bytes this client keeps writing after the server's FIN; one that
 * closed the connection answers them with a reset.
 */
function stall(sent: string): Promise<{ received: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(box.origin);
  return new Promise((resolve) => {
    const started = performance.now();
    let received = '';
    let probe: NodeJS.Timeout | undefined;
    const socket: Socket = connect({ port: Number(port), host: hostname, allowHalfOpen: true }, () => {
      if (sent) socket.write(sent);
    });
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => {
      probe = setInterval(() => socket.write('x'), 50);
    });
    socket.on('error', () => undefined); // the reset that says the server closed it
    socket.on('close', () => {
      clearInterval(probe);
      resolve({ received, closedAfterMs: performance.now() - started });
    });
  });
}

describe('connection limits', () => {
  const head = (method: string, extra = '') => `${method} /api/public/v1/ping HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${SANDBOX_KEY}\r\n${extra}`;

  it('closes a connection whose headers never finish, with 408, after the headers limit', async () => {
    const { received, closedAfterMs } = await stall(head('GET'));
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4))).toMatchObject({ error: { code: 'request_timeout' } });
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersSeconds * 1000 - 50);
    expect(closedAfterMs).toBeLessThan(10_000);
  });

  it('closes a connection that sends no bytes at all after the headers limit', async () => {
    const { closedAfterMs } = await stall('');
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.headersSeconds * 1000 - 50);
    expect(closedAfterMs).toBeLessThan(10_000);
  });

  it('closes a connection whose body stops short, with 408, after the body-stall limit', async () => {
    const { received, closedAfterMs } = await stall(`${head('POST').replace('/ping', '/frameworks/suggest')}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"query":`);
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.bodyStallSeconds * 1000 - 50);
    expect(closedAfterMs).toBeLessThan(10_000);
  });

  it('answers a request, then closes the connection once it is idle past the idle limit', async () => {
    const { received, closedAfterMs } = await stall(`${head('GET')}\r\n`);
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(closedAfterMs).toBeGreaterThanOrEqual(LIMITS.idleSeconds * 1000 - 50);
    expect(closedAfterMs).toBeLessThan(10_000);
  });

  it('answers an upload whose body keeps arriving, slower in total than three body-stall limits', async () => {
    const form = new FormData();
    form.set('framework', 'hipaa-security');
    form.set('file', new Blob(['Access to production systems is reviewed every quarter by the system owner. '.repeat(40)]), 'policy.md');
    const encoded = new Response(form);
    const body = Buffer.from(await encoded.arrayBuffer());
    const { port, hostname } = new URL(box.origin);
    // Twelve pieces, one every third of the stall limit: the body takes four limits in all.
    const pieces = 12;
    const everyMs = (LIMITS.bodyStallSeconds * 1000) / 3;
    const answer = await new Promise<{ received: string; tookMs: number }>((resolve, reject) => {
      const started = performance.now();
      let received = '';
      let sent = 0;
      let pacing: NodeJS.Timeout | undefined;
      const socket = connect({ port: Number(port), host: hostname }, () => {
        socket.write(`${head('POST').replace('/ping', '/documents/map')}Content-Type: ${encoded.headers.get('content-type')}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
        pacing = setInterval(() => {
          const size = Math.ceil(body.length / pieces);
          socket.write(body.subarray(sent * size, (sent + 1) * size));
          if (++sent === pieces) clearInterval(pacing);
        }, everyMs);
      });
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        clearInterval(pacing);
        resolve({ received, tookMs: performance.now() - started });
      });
    });
    expect(answer.received).toMatch(/^HTTP\/1\.1 202 /);
    expect(answer.tookMs).toBeGreaterThan(LIMITS.bodyStallSeconds * 1000 * 3);
  });
  it('answers a request that arrived on a kept-alive connection while the event loop was held past the idle limit', async () => {
    // A CPU-starved sandbox runs its timers before it reads the sockets: the idle timer of a kept-alive
    // connection fires late, after the client's next request has arrived unread. Holding this process's
    // event loop (the server's and the client's) past the idle limit, and Node's grace beyond it
    // (keepAliveTimeoutBuffer), replays that on demand.
    const heldMs = LIMITS.idleSeconds * 1000 + new Server().keepAliveTimeoutBuffer + 300;
    const { port, hostname } = new URL(box.origin);
    const received = await new Promise<string>((resolve, reject) => {
      let text = '';
      let asked = false;
      const socket = connect({ port: Number(port), host: hostname }, () => socket.write(`${head('GET')}\r\n`));
      socket.on('data', (chunk) => {
        text += chunk.toString();
        if (asked || !/\r\n\r\n\{.*\}$/s.test(text)) return;
        asked = true;
        // The first answer is in and the connection idle: the next request is sent, then the loop held.
        setImmediate(() => {
          socket.write(`${head('GET')}Connection: close\r\n\r\n`);
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, heldMs);
        });
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(received.match(/HTTP\/1\.1 200 /g)).toHaveLength(2);
  });
});
