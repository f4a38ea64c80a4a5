/**
 * The /_sandbox control endpoints: open on a loopback bind, behind the start-up control token on any
 * other. The non-loopback case binds 0.0.0.0 (every interface, so not loopback-only) and connects
 * through 127.0.0.1. The built CLI prints the token in its --json line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { isLoopbackAddress } from '../../sandbox/server/controlToken.js';
import { copyOfBuiltCli, startCliSandbox } from './builtCli.js';
import { client, envelope, LIVE_KEY, sandbox } from './helpers.js';

describe('control endpoints on a loopback bind', () => {
  let box: RunningSandbox;
  beforeAll(async () => {
    box = await sandbox();
  });
  afterAll(() => box.close());

  it('stay open without a token, and no token is made', async () => {
    expect(box.controlToken).toBeUndefined();
    expect((await fetch(`${box.origin}/_sandbox/outbox`)).status).toBe(200);
    expect((await fetch(`${box.origin}/_sandbox/clock`, { method: 'POST', body: '{"advanceSeconds": 1}' })).status).toBe(200);
  });
});

describe('control endpoints on a non-loopback bind (0.0.0.0)', () => {
  let box: RunningSandbox;
  beforeAll(async () => {
    box = await sandbox({ host: '0.0.0.0' });
  });
  afterAll(() => box.close());

  it('refuse requests without the token (401, envelope) and accept it in X-Sandbox-Token or as a bearer', async () => {
    const token = box.controlToken!;
    expect(token).toMatch(/^cst_[\w-]{32}$/);
    const call = client(box, null);
    const missing = envelope(await call('GET', `${box.origin}/_sandbox/outbox`), 401, 'control_token_required');
    expect(missing.hint).toContain('x-sandbox-token');
    envelope(await call('POST', `${box.origin}/_sandbox/clock`, { body: { advanceSeconds: 86_400 } }), 401, 'control_token_required');
    envelope(await call('GET', `${box.origin}/_sandbox/outbox`, { headers: { 'x-sandbox-token': `${token}x` } }), 401, 'invalid_control_token');
    // An API key is not the control token.
    envelope(await call('GET', `${box.origin}/_sandbox/outbox`, { key: LIVE_KEY }), 401, 'invalid_control_token');

    expect((await call('GET', `${box.origin}/_sandbox/outbox`, { headers: { 'x-sandbox-token': token } })).status).toBe(200);
    const moved = await call('POST', `${box.origin}/_sandbox/clock`, { body: { advanceSeconds: 60 }, headers: { authorization: `Bearer ${token}` } });
    expect(moved.status).toBe(200);
  });

  it('open a checkout page and its pay button through the signed link only, for that session only', async () => {
    const call = client(box, LIVE_KEY);
    const first = (await call('POST', '/billing/checkout', { body: { pack: 'pack10' } })).body;
    const second = (await call('POST', '/billing/checkout', { body: { pack: 'pack10' } })).body;
    const url = new URL(first.url);
    const signature = url.searchParams.get('sig');
    expect(signature).toBeTruthy();

    const page = await fetch(first.url);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`/pay?sig=${signature}`);
    envelope(await call('GET', `${box.origin}${url.pathname}`, { key: null }), 401, 'control_token_required');
    // One session's signature does not open another.
    envelope(await call('POST', `${box.origin}/_sandbox/checkout/${second.sessionId}/pay?sig=${signature}`, { key: null }), 401, 'control_token_required');

    const paid = await fetch(`${box.origin}${url.pathname}/pay?sig=${signature}`, { method: 'POST' });
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ sessionId: first.sessionId, paid: true });
  });
});

describe('isLoopbackAddress', () => {
  it('is true for 127.0.0.0/8, ::1 and IPv4-mapped loopback, false for wildcards and other addresses', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackAddress(address), address).toBe(true);
    for (const address of ['0.0.0.0', '::', '192.168.1.10', '10.0.0.1', '::ffff:10.0.0.1', 'fe80::1']) expect(isLoopbackAddress(address), address).toBe(false);
  });
});

describe('compliance sandbox --host 0.0.0.0 --json', () => {
  it('prints the control token the control endpoints then require', async () => {
    const built = copyOfBuiltCli();
    const { child, announced } = await startCliSandbox(built.cli, ['--host', '0.0.0.0']);
    try {
      expect(announced.controlToken).toMatch(/^cst_/);
      const outbox = new URL('/_sandbox/outbox', announced.baseUrl);
      expect((await fetch(outbox)).status).toBe(401);
      expect((await fetch(outbox, { headers: { 'x-sandbox-token': announced.controlToken! } })).status).toBe(200);
    } finally {
      child.kill('SIGTERM');
      built.remove();
    }
  }, 120_000);
});
