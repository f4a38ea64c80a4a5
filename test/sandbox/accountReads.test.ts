/**
 * The account row is read once per request (by authentication), and read again only when an account
 * was written while the request waited for its body: the read-only gate still sees a balance that
 * another request spent meanwhile.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { API_PREFIX } from '../../api/schemas/common.js';
import { hashKey } from '../../sandbox/server/keys.js';
import { resolveOptions } from '../../sandbox/server/options.js';
import { createSandboxServer } from '../../sandbox/server/server.js';
import { createServices, type Services } from '../../sandbox/server/services.js';
import { LIVE_KEY, ManualClock, SANDBOX_KEY } from './helpers.js';

const BODY = JSON.stringify({ query: 'health data privacy in the US' });
let closeServer: (() => Promise<void>) | undefined;

afterEach(async () => {
  await closeServer?.();
  closeServer = undefined;
});

/** The server over services the test can reach, on a free loopback port. */
async function serve(): Promise<{ services: Services; port: number }> {
  const services = createServices(resolveOptions({ port: 0, jobSeconds: 0, clock: new ManualClock().now }), () => '');
  services.accounts.register({ key: LIVE_KEY, mode: 'live', balance: 5_000_000, plan: 'api' }, services.clock.now());
  services.accounts.register({ key: SANDBOX_KEY, mode: 'sandbox', balance: 0, plan: 'api' }, services.clock.now());
  const server = createSandboxServer(services);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closeServer = () =>
    new Promise<void>((resolve) => {
      services.jobs.close();
      server.close(() => void Promise.all([services.uploads.close(), services.mapping.close()]).then(() => resolve()));
      server.closeAllConnections();
    });
  return { services, port: (server.address() as AddressInfo).port };
}

/**
 * POST /frameworks/suggest with its body sent in two parts: `between` runs once the server has
 * authenticated the request and before the rest of the body is sent.
 */
function suggest(services: Services, port: number, key: string, between: () => void): Promise<{ status: number; code?: string }> {
  const authenticate = services.auth.authenticate.bind(services.auth);
  let signal = () => {};
  const authenticated = new Promise<void>((resolve) => (signal = resolve));
  vi.spyOn(services.auth, 'authenticate').mockImplementation((...args) => {
    const account = authenticate(...args);
    signal();
    return account;
  });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: `${API_PREFIX}/frameworks/suggest`, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) } },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, code: (JSON.parse(text) as { error?: { code: string } }).error?.code }));
      },
    );
    req.on('error', reject);
    req.flushHeaders();
    req.write(BODY.slice(0, 10));
    void authenticated.then(() => {
      between();
      req.end(BODY.slice(10));
    });
  });
}

describe('the account row per request', () => {
  it('is read once when nothing writes an account meanwhile (a sandbox key: nothing charged)', async () => {
    const { services, port } = await serve();
    const reads = vi.spyOn(services.accounts, 'byHash');
    const answer = await suggest(services, port, SANDBOX_KEY, () => {});
    expect(answer.status).toBe(200);
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('is read again when the balance was spent while the body arrived, so the read-only gate refuses', async () => {
    const { services, port } = await serve();
    const reads = vi.spyOn(services.accounts, 'byHash');
    const answer = await suggest(services, port, LIVE_KEY, () => services.accounts.setBalance(hashKey(LIVE_KEY), 0));
    expect(answer).toEqual({ status: 402, code: 'account_read_only' });
    expect(reads).toHaveBeenCalledTimes(2);
  });
});
