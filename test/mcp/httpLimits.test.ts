/**
 * The MCP HTTP transport's state stays bounded (issue 25) and fair (issue 37): sessions capped (one
 * nobody used goes first, one in use never), per client too, closed when idle, a refusal that says
 * when to retry, bodies refused over the limit, the bytes of bodies held at once capped, and browser
 * origins other than loopback pages refused unless allowed. Real SDK servers over loopback; the
 * clock is moved by hand.
 */
import { request } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHttp } from '../../cli/mcp/http.js';

const initializeAs = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name, version: '1' } } });
const INITIALIZE = initializeAs('limits-test');
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

async function initialize(url: string, client = 'limits-test'): Promise<string> {
  const answer = await post(url, initializeAs(client));
  expect(answer.status).toBe(200);
  return answer.sessionId!;
}

/** A session its client has used (a request beyond initialize). */
async function used(url: string, client?: string): Promise<string> {
  const id = await initialize(url, client);
  expect((await post(url, PING, id)).status).toBe(200);
  return id;
}

/** The session's GET stream of server messages, held open as the SDK's client holds it; abort() ends it. */
async function holdStream(url: string, sessionId: string): Promise<AbortController> {
  const stop = new AbortController();
  const answer = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' }, signal: stop.signal });
  expect(answer.status).toBe(200);
  return stop;
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

  it('never closes a session in use for new ones: a flood of fresh sessions closes its own', async () => {
    running = await serveHttp(0, newServer, { maxSessions: 3 });
    const assistant = await used(running.url, 'assistant');
    for (let i = 0; i < 10; i++) await initialize(running.url, `flood-${i}`);
    expect(running.sessionCount()).toBe(3);
    expect((await post(running.url, PING, assistant)).status).toBe(200);
  });

  it('counts a client holding its stream open as in use however quiet; a quiet one without goes first', async () => {
    let now = 1_000_000;
    running = await serveHttp(0, newServer, { maxSessions: 2, activeMs: 60_000, now: () => now });
    const listening = await used(running.url, 'listening');
    const stream = await holdStream(running.url, listening);
    const quiet = await used(running.url, 'quiet');
    now += 61_000; // both quiet for over a minute; only one is connected
    await initialize(running.url, 'newcomer');
    expect((await post(running.url, PING, quiet)).status).toBe(404);
    expect((await post(running.url, PING, listening)).status).toBe(200);
    stream.abort();
  });

  it('answers when every session is in use with 503 and a Retry-After saying when one may free up, then admits', async () => {
    let now = 1_000_000;
    running = await serveHttp(0, newServer, { maxSessions: 2, activeMs: 60_000, now: () => now });
    await used(running.url, 'a');
    now += 20_000;
    await used(running.url, 'b');
    const refused = await fetch(running.url, { method: 'POST', headers: HEADERS, body: initializeAs('c') });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('40');
    expect(await refused.text()).toContain('all 2 sessions are in use (their clients connected, or active within the last minute): retry in 40 s');
    now += 40_000;
    expect((await post(running.url, initializeAs('c'))).status).toBe(200);
  });

  it('lets no client hold every slot: its next session closes its own oldest, or is refused while all of its own are connected', async () => {
    running = await serveHttp(0, newServer, { maxSessions: 10, maxSessionsPerClient: 2 });
    const other = await used(running.url, 'other');
    const [first, second] = [await used(running.url, 'greedy'), await used(running.url, 'greedy')];
    await used(running.url, 'greedy');
    expect((await post(running.url, PING, first)).status).toBe(404);
    expect((await post(running.url, PING, second)).status).toBe(200);
    expect((await post(running.url, PING, other)).status).toBe(200);
    const streams = [await holdStream(running.url, second), await holdStream(running.url, (await used(running.url, 'greedy')))];
    const refused = await fetch(running.url, { method: 'POST', headers: HEADERS, body: initializeAs('greedy') });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(await refused.text()).toContain('this client holds 2 sessions, each still connected');
    for (const stream of streams) stream.abort();
  });

  it('refuses a browser origin other than a loopback page, unless allowed', async () => {
    running = await serveHttp(0, newServer, { allowedOrigins: ['https://app.example.com'] });
    const from = async (origin: string) => (await fetch(running!.url, { method: 'POST', headers: { ...HEADERS, origin }, body: INITIALIZE })).status;
    expect(await from('http://localhost:5173')).toBe(200);
    expect(await from('http://127.0.0.1:8080')).toBe(200);
    expect(await from('https://app.example.com')).toBe(200);
    const evil = await fetch(running.url, { method: 'POST', headers: { ...HEADERS, origin: 'https://evil.example' }, body: INITIALIZE });
    expect(evil.status).toBe(403);
    expect(await evil.text()).toContain('origin \\"https://evil.example\\" is not allowed: only loopback pages may call this server, unless it is started with --allow-origin');
    expect(await from('null')).toBe(403);
    expect(await from('http://localhost.evil.example')).toBe(403);
  });
});
