/**
 * The built CLI goes through HTTP_PROXY (or http_proxy) when it is set and straight to a host
 * NO_PROXY lists, through the one Node transport (api/node/transport.ts) the actions use too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { startForwardProxy, type ForwardProxy } from '../forwardProxy.js';
import { buildCli, cli, liveSandbox } from './helpers.js';

describe('the CLI behind a proxy', () => {
  let box: RunningSandbox;
  let proxy: ForwardProxy;
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    proxy = await startForwardProxy();
  });
  afterAll(async () => {
    await proxy?.close();
    await box?.close();
  });

  it('sends every request through the proxy a variable names, and none when NO_PROXY lists the host', { timeout: 60_000 }, async () => {
    for (const name of ['HTTP_PROXY', 'http_proxy']) {
      const before = proxy.seen.length;
      const run = await cli(['billing', '--json'], { box, env: { [name]: proxy.url } });
      expect(run.code, run.stderr).toBe(0);
      expect(typeof run.json.balanceTokens).toBe('number');
      expect(proxy.seen.slice(before).some((line) => line === `GET ${box.baseUrl}/billing`), proxy.seen.join('\n')).toBe(true);
    }
    const before = proxy.seen.length;
    const bypassed = await cli(['billing', '--json'], { box, env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } });
    expect(bypassed.code, bypassed.stderr).toBe(0);
    expect(proxy.seen).toHaveLength(before);
  });
});
