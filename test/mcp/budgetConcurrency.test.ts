/**
 * The MCP session budget is a reservation: concurrent charged calls, over Streamable HTTP, over stdio
 * and while the user is being asked to confirm, never spend past --max-tokens. Proven with the SDK's
 * Client against a live-mode sandbox key, by the key's own ledger.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedPrice } from '../../api/operations.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, liveSandbox } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, httpClient, httpServer, stdioClient, textOf } from './helpers.js';

const INGEST = fixedPrice('ingestLibraryDocument');
let built: BuiltCli;
let box: RunningSandbox;
let serial = 0;

async function balance(): Promise<number> {
  const response = await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } });
  return ((await response.json()) as { balanceTokens: number }).balanceTokens;
}

/** A distinct policy per call: the library would refuse a duplicate (not charged, and so not what is tested). */
function ingestArguments(): Record<string, unknown> {
  serial += 1;
  return { title: `Policy ${serial}`, content: `Policy ${serial}: access to systems holding customer data is reviewed every quarter by the system owner. `.repeat(4) };
}

/** `count` ingests at once; the answers, split into charged and refused. */
async function concurrentIngests(client: Client, count: number): Promise<{ charged: CallToolResult[]; refused: CallToolResult[] }> {
  const results = (await Promise.all(Array.from({ length: count }, () => client.callTool({ name: 'ingestLibraryDocument', arguments: ingestArguments() })))) as CallToolResult[];
  return { charged: results.filter((result) => !result.isError), refused: results.filter((result) => result.isError) };
}

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox(20_000_000);
}, 120_000);

afterAll(async () => {
  await box?.close();
  built?.remove();
});

describe('concurrent charged calls never pass --max-tokens', () => {
  it('over --http: six ingests at once under a budget of one are charged once', async () => {
    const server = await httpServer(built.cli, ['--max-tokens', String(INGEST)], connectionEnv(box));
    const client = await httpClient(server.url);
    try {
      const before = await balance();
      const { charged, refused } = await concurrentIngests(client, 6);
      expect(charged).toHaveLength(1);
      expect(refused).toHaveLength(5);
      expect(before - (await balance())).toBe(INGEST);
      for (const result of refused) {
        expect(textOf(result)).toMatch(/^budget_exceeded: refused before spending anything: ingestLibraryDocument \(1 × ingestLibraryDocument at 400,000 tokens\) costs 400,000 tokens/);
        // The refusal says what the cap allows: never a negative "left".
        expect(textOf(result)).toMatch(/the cap of 400,000 tokens allows 0 tokens more \(400,000 tokens of it already spent or reserved\): enough for 0 of the 1 call/);
      }
      const after = (await client.callTool({ name: 'ingestLibraryDocument', arguments: ingestArguments() })) as CallToolResult;
      expect(textOf(after)).toContain('Session spend: 400,000 tokens charged; budget 400,000 tokens, 0 tokens left.');
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);

  it('over stdio: three ingests at once under a budget of two are charged twice', async () => {
    const { client } = await stdioClient(built.cli, ['--max-tokens', String(2 * INGEST)], connectionEnv(box));
    try {
      const before = await balance();
      const { charged, refused } = await concurrentIngests(client, 3);
      expect(charged).toHaveLength(2);
      expect(refused).toHaveLength(1);
      expect(before - (await balance())).toBe(2 * INGEST);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('while the user confirms: four confirmed ingests under a budget of two are charged twice, each prompt counting the others', async () => {
    const server = await httpServer(built.cli, ['--max-tokens', String(2 * INGEST), '--confirm-above', '0'], connectionEnv(box));
    const client = new Client({ name: 'compliance-tests', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const prompts: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      prompts.push(request.params.message);
      return { action: 'accept', content: { confirm: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const before = await balance();
      const { charged, refused } = await concurrentIngests(client, 4);
      expect(charged).toHaveLength(2);
      expect(refused).toHaveLength(2);
      expect(before - (await balance())).toBe(2 * INGEST);
      // Asked only for the calls that were reserved; the second prompt already counts the first call's claim.
      expect(prompts).toHaveLength(2);
      expect(prompts.some((prompt) => prompt.includes('0 tokens left, 800,000 tokens held by calls still running'))).toBe(true);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);

  it('a call the service refuses (nothing charged) gives its reservation back', async () => {
    const { client } = await stdioClient(built.cli, ['--max-tokens', String(INGEST)], connectionEnv(box));
    try {
      const before = await balance();
      const refused = (await client.callTool({ name: 'refreshLibraryDocument', arguments: { id: 'doc_does_not_exist', content: ingestArguments().content } })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('Session spend: 0 tokens charged; budget 400,000 tokens, 400,000 tokens left.');
      const { charged } = await concurrentIngests(client, 2);
      expect(charged).toHaveLength(1);
      expect(before - (await balance())).toBe(INGEST);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('a confirmation the user does not give spends nothing and is reported as what it is', () => {
  it('declined, cancelled and unreadable answers: their own codes, nothing sent, every reservation released', async () => {
    const server = await httpServer(built.cli, ['--max-tokens', String(INGEST), '--confirm-above', '0'], connectionEnv(box));
    const client = new Client({ name: 'compliance-tests', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    const answers: Array<() => Record<string, unknown>> = [
      () => ({ action: 'decline' }),
      () => ({ action: 'cancel' }),
      // Not a yes or no: the answer cannot be read (whether the SDK or the server notices it).
      () => ({ action: 'accept', content: { confirm: 'yes' } }),
      () => {
        throw new Error('the client could not show the prompt');
      },
      () => ({ action: 'accept', content: { confirm: true } }),
    ];
    client.setRequestHandler(ElicitRequestSchema, async () => answers.shift()!() as never);
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
    try {
      const before = await balance();
      const call = async () => (await client.callTool({ name: 'ingestLibraryDocument', arguments: ingestArguments() })) as CallToolResult;
      const declined = await call();
      expect(declined.isError).toBe(true);
      expect(textOf(declined)).toMatch(/^declined: the user declined ingestLibraryDocument: nothing was sent or spent\nhint: Ask the user before trying again\./);
      expect(textOf(await call())).toMatch(/^declined: the user cancelled the confirmation of ingestLibraryDocument: nothing was sent or spent/);
      for (let unreadable = 0; unreadable < 2; unreadable += 1) {
        const result = await call();
        expect(result.isError).toBe(true);
        expect(textOf(result)).toMatch(/^confirmation_unreadable: the answer to the confirmation of ingestLibraryDocument could not be read \(.+\): nothing was sent or spent/);
        expect(textOf(result)).not.toContain('bug');
        // The cap was never claimed: nothing counted as spent, nothing held.
        expect(textOf(result)).toContain('Session spend: 0 tokens charged; budget 400,000 tokens, 400,000 tokens left.');
        expect(result.structuredContent).toMatchObject({ error: { code: 'confirmation_unreadable' }, spend: { spentTokens: 0, reservedTokens: 0 } });
      }
      expect(await balance()).toBe(before);
      // The whole budget is still there for the call the user confirms.
      const confirmed = await call();
      expect(confirmed.isError, textOf(confirmed)).toBeFalsy();
      expect(before - (await balance())).toBe(INGEST);
    } finally {
      await client.close();
      await server.stop();
    }
  }, 60_000);

  it('planReview is checked against the session cap: a live key without --max-tokens would be refused, and it says so', async () => {
    const { client } = await stdioClient(built.cli, [], connectionEnv(box));
    try {
      const plan = (await client.callTool({ name: 'planReview', arguments: { directory: fileURLToPath(new URL('../../examples', import.meta.url)) } })) as CallToolResult;
      expect(plan.isError, textOf(plan)).toBeFalsy();
      const result = (plan.structuredContent as { result: { status: string; budget: { allowed: boolean; reasons: string[] } } }).result;
      expect(result.status).toBe('dry-run');
      expect(result.budget.allowed).toBe(false);
      expect(result.budget.reasons.join('\n')).toContain('and no token cap was set, so nothing charged is allowed');
    } finally {
      await client.close();
    }
  }, 60_000);
});
