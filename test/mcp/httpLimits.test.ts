/**
 * The MCP HTTP transport's state stays bounded (issue 25): sessions capped (the least recently used
 * idle one goes) and closed when idle, bodies refused over the limit, and the bytes of bodies read
 * at once capped. Real SDK servers over loopback; the clock is moved by hand.
 */
import { request } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../cli/mcp/http.js';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits-test', version: '1' } } });
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

let running: Awaited<ReturnType<typeof serveHttp>> | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const newServer = () => new Server({ name: 'limits-test', version: '1.0.0' }, { capabilities: {} });

async function post(url: string, body: string, sessionId?: string): Promise<{ status: number; sessionId: string | null; text: string }> {
  const answer = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...(sessionId ? { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' } : {}) }, body });
  return { status: answer.status, sessionId: answer.headers.get('mcp-session-id'), text: await answer.text() };
}

async function initialize(url: string): Promise<string> {
  const answer = await post(url, INITIALIZE);
  expect(answer.status).toBe(200);
  return answer.sessionId!;
}

describe('MCP over HTTP keeps bounded state', () => {
  it('caps sessions: a new one beyond the cap closes the least recently used', async () => {
    running = await serveHttp(0, newServer, { maxSessions: 3 });
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push(await initialize(running.url));
    expect(running.sessionCount()).toBe(3);
    expect((await post(running.url, PING, ids[0])).status).toBe(404);
    expect((await post(running.url, PING, ids[1])).status).toBe(404);
    const kept = await post(running.url, PING, ids[4]);
    expect(kept.status).toBe(200);
    expect(kept.text).toContain('"result"');
  });

  it('closes a session idle longer than the limit; an active one stays', async () => {
    let now = 1_000_000;
    running = await serveHttp(0, newServer, { idleMs: 60_000, unusedIdleMs: 60_000, now: () => now });
    const idle = await initialize(running.url);
    const active = await initialize(running.url);
    now += 40_000;
    expect((await post(running.url, PING, active)).status).toBe(200);
    now += 30_000; // idle: 70 s since its last request; active: 30 s
    expect((await post(running.url, PING, idle)).status).toBe(404);
    expect((await post(running.url, PING, active)).status).toBe(200);
    expect(running.sessionCount()).toBe(1);
  });

  it('closes a session that sent nothing after its initialize sooner than a used one', async () => {
    let now = 1_000_000;
    running = await serveHttp(0, newServer, { idleMs: 30 * 60_000, unusedIdleMs: 60_000, now: () => now });
    const unused = await initialize(running.url);
    const used = await initialize(running.url);
    const initialized = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await post(running.url, initialized, unused)).status).toBe(202);
    expect((await post(running.url, PING, used)).status).toBe(200);
    now += 61_000; // both quiet for 61 s: past the unused limit, far from the 30 minutes
    expect((await post(running.url, PING, unused)).status).toBe(404);
    expect((await post(running.url, PING, used)).status).toBe(200);
    expect(running.sessionCount()).toBe(1);
  });

  it('refuses a body over the limit at once, and bodies over the in-flight cap with 503', async () => {
    running = await serveHttp(0, newServer, { maxBodyBytes: 600_000, maxBodyBytesInFlight: 1_000_000 });
    const session = await initialize(running.url);
    const inSession = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' };
    const declared = await fetch(running.url, { method: 'POST', headers: inSession, body: ' '.repeat(600_001) });
    expect(declared.status).toBe(413);
    // Without a session (an initialize, which the session keeps) the limit is 64 KB.
    const bigInitialize = INITIALIZE.replace('"limits-test"', JSON.stringify('x'.repeat(65_536)));
    expect((await fetch(running.url, { method: 'POST', headers: HEADERS, body: bigInitialize })).status).toBe(413);

    // A slow client holds 500 KB of a body open; a second 600 KB body crosses the shared cap.
    const held = request(running.url, { method: 'POST', headers: { ...inSession, 'transfer-encoding': 'chunked' } });
    held.on('error', () => undefined);
    held.write(' '.repeat(500_000));
    while (running.bodyBytesInFlight() < 500_000) await new Promise((resolve) => setImmediate(resolve));
    const crowded = await fetch(running.url, { method: 'POST', headers: inSession, body: ' '.repeat(599_000) });
    expect(crowded.status).toBe(503);
    expect(crowded.headers.get('retry-after')).toBe('1');
    held.destroy();
    while (running.bodyBytesInFlight() > 0) await new Promise((resolve) => setImmediate(resolve));
    expect((await post(running.url, INITIALIZE)).status).toBe(200);
  });
});
