/** Fault injection with --faults, and the header ignored without it. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, LIVE_KEY, sandbox } from './helpers.js';

let faulty: RunningSandbox;
let plain: RunningSandbox;

beforeAll(async () => {
  faulty = await sandbox({ faults: true });
  plain = await sandbox();
});
afterAll(async () => {
  await faulty.close();
  await plain.close();
});

const fault = (value: string) => ({ headers: { 'x-sandbox-fault': value } });

describe('X-Sandbox-Fault', () => {
  it('answers 503, 500 and 429 with the envelope and retry hints', async () => {
    const call = client(faulty);
    const unavailable = await call('GET', '/ping', fault('503'));
    envelope(unavailable, 503, 'service_unavailable');
    expect(unavailable.headers.get('retry-after')).toBe('1');
    envelope(await call('GET', '/ping', fault('500')), 500, 'internal_error');
    envelope(await call('GET', '/ping', fault('429')), 429, 'rate_limited');
  });

  it('answers html502 with an HTML page, as a proxy would', async () => {
    const answer = await client(faulty)('GET', '/ping', fault('html502'));
    expect(answer.status).toBe(502);
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(answer.text).toContain('502 Bad Gateway');
  });

  it('drops the connection on reset, before anything is admitted', async () => {
    const call = client(faulty, LIVE_KEY);
    await expect(call('POST', '/frameworks/suggest', { body: { query: 'x' }, ...fault('reset') })).rejects.toThrow();
    expect((await call('GET', '/billing')).body.ledger).toEqual([]);
  });

  it('drops the connection on reset-after, after the request was processed and charged', async () => {
    const call = client(faulty, LIVE_KEY);
    const before = (await call('GET', '/billing')).body.ledger.length;
    await expect(call('POST', '/frameworks/suggest', { body: { query: 'x' }, ...fault('reset-after') })).rejects.toThrow();
    expect((await call('GET', '/billing')).body.ledger.length).toBe(before + 1);
  });

  it('still answers normally when slow', async () => {
    expect((await client(faulty)('GET', '/ping', fault('slow:50'))).status).toBe(200);
  });

  it('refuses an unknown fault name', async () => {
    envelope(await client(faulty)('GET', '/ping', fault('meteor')), 400, 'unknown_fault');
  });

  it('ignores the header without --faults', async () => {
    expect((await client(plain)('GET', '/ping', fault('503'))).status).toBe(200);
    expect((await client(plain)('GET', '/ping', fault('meteor'))).status).toBe(200);
  });
});
