/**
 * `compliance mcp` over stdio stops when it is told to (issue 36): within a second of SIGTERM or
 * SIGINT, stdin still open, the embedded sandbox started; and a charged call running at that moment
 * is cancelled, answered (not dropped), and settled as the service's ledger says: a mapping the
 * service had accepted is charged, and the answer's spend says so. The SDK's Client over stdio
 * against the built CLI.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { balance, LIVE_KEY, liveSandbox } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, stdioClient, textOf } from './helpers.js';

const POLICY = 'Access to customer data is granted by role and reviewed quarterly by each system owner. Every user has a unique account. '.repeat(3);

let built: BuiltCli;
let box: RunningSandbox;

beforeAll(async () => {
  built = copyOfBuiltCli();
  // Jobs take 20 s: a mapping is surely still running when the server is stopped.
  box = await liveSandbox(10_000_000, { jobSeconds: 20 });
}, 120_000);

afterAll(async () => {
  await box?.close();
  built?.remove();
});

/** The server's pid and a promise of its end, with the milliseconds from `signal` to it. */
async function started(args: string[], env: Record<string, string>): Promise<{ client: Client; stop(signal: NodeJS.Signals): Promise<number> }> {
  const { client } = await stdioClient(built.cli, args, env);
  const pid = (client.transport as unknown as { pid: number }).pid;
  const closed = new Promise<number>((resolvePromise) => (client.onclose = () => resolvePromise(performance.now())));
  return {
    client,
    async stop(signal) {
      const sent = performance.now();
      process.kill(pid, signal);
      return (await closed) - sent;
    },
  };
}

describe('compliance mcp over stdio, stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('exits within a second of %s with stdin open and the embedded sandbox running', async (signal) => {
    const server = await started([], connectionEnv());
    expect((await server.client.callTool({ name: 'ping' })).isError).toBeFalsy();
    expect(await server.stop(signal)).toBeLessThan(1_000);
  }, 60_000);

  it('cancels a charged call in flight, answers it, and counts what the service charged', async () => {
    const prices = ((await (await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } })).json()) as { prices: Record<string, number> }).prices;
    const server = await started(['--max-tokens', '1000000'], connectionEnv(box));
    const before = await balance(box);
    let accepted: () => void = () => undefined;
    const admitted = new Promise<void>((resolvePromise) => (accepted = resolvePromise));
    const answer = server.client.callTool({ name: 'mapDocument', arguments: { framework: 'hipaa-security', content: POLICY } }, undefined, { onprogress: () => accepted(), timeout: 60_000 }) as Promise<CallToolResult>;
    await admitted;
    const exit = server.stop('SIGTERM');
    const result = await answer;
    expect(await exit).toBeLessThan(1_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^cancelled: mapDocument was cancelled: the server is stopping\. Its job \S+ had been accepted by the service, so it is charged and still completes\./);
    const charged = before - (await balance(box));
    expect(charged).toBe(prices.mapDocument);
    expect(result.structuredContent).toMatchObject({ spend: { spentTokens: charged, reservedTokens: 0 } });
  }, 60_000);
});
