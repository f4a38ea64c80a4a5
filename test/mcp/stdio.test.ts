/**
 * `compliance mcp` over stdio, driven by the MCP SDK's own Client against the built CLI and a
 * live-mode sandbox: tools derived from the operation table, the budget (a refusal leaves the
 * ledger unchanged), resources, prompts, errors, and the key in no answer.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import { operationIds, operations } from '../../api/operations.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, liveSandbox } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, stdioClient, textOf } from './helpers.js';

const SEARCH_PRICE = operations.searchLibrary.cost.kind === 'fixed' ? operations.searchLibrary.cost.tokens : NaN;
const BUDGET = SEARCH_PRICE + SEARCH_PRICE / 2;
// The OpenAPI document is a resource (too large for a tool result); getMappingReport reads a report
// again part by part; planReview is the review loop's dry run.
const TOOLS = [...operationIds.filter((id) => id !== 'getOpenApi'), 'getMappingReport', 'planReview'];
// Tools whose description is the server's own: they wait for their job, page, or show less than the service answers.
const OWN_DESCRIPTIONS = new Set(['getServiceCard', 'generateDocument', 'mapDocument', 'downloadDocument', 'getLibraryDocument', 'createCheckout']);

let built: BuiltCli;
let box: RunningSandbox;
let client: Client;
let stderr: () => string;
let documentId: string;
const answers: unknown[] = [];

async function billing(): Promise<{ balanceTokens: number; ledger: Array<{ id: string }> }> {
  const response = await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } });
  return (await response.json()) as { balanceTokens: number; ledger: Array<{ id: string }> };
}

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  answers.push(result);
  return result;
}

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox();
  const api = new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl });
  const accepted = await api.ingestLibraryDocument({ title: 'Access control policy', content: 'Access to systems holding protected health information is reviewed quarterly by each system owner. '.repeat(4), tags: ['access'] });
  const job = await api.waitForJob(accepted.jobId);
  documentId = String((job as { documentId?: string; result?: { documentId?: string } }).documentId ?? (job as { result?: { documentId?: string } }).result?.documentId);
  ({ client, stderr } = await stdioClient(built.cli, ['--max-tokens', String(BUDGET)], connectionEnv(box)));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await box?.close();
  built?.remove();
});

describe('compliance mcp over stdio (live-mode key, budget of 1.5 searches)', () => {
  it('says in its instructions which service and budget it works with', () => {
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toContain(`Connected to ${box.baseUrl}; ping tells whether the key is a sandbox key`);
    expect(instructions).toContain(`Token budget for this server session: ${BUDGET.toLocaleString('en-US')} tokens`);
  });

  it('lists one tool per operation of the table, with its description and annotations, plus getMappingReport and planReview', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOLS].sort());
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const id of operationIds.filter((operation) => operation !== 'getOpenApi' && !OWN_DESCRIPTIONS.has(operation))) expect(byName.get(id)!.description).toContain(operations[id].description);
    expect(byName.get('listLibrary')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    expect(byName.get('deleteLibraryDocument')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: true });
    expect(byName.get('mapDocument')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get('ingestLibraryDocument')!.annotations).toMatchObject({ idempotentHint: true });
    // Every call makes a new checkout session: repeating it is not without effect.
    expect(byName.get('createCheckout')!.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(byName.get('setCalendar')!.annotations).toMatchObject({ idempotentHint: true });
    // The cost line comes from the price list: the service's /billing prices for listed operations.
    const prices = (await billing() as unknown as { prices: Record<string, number> }).prices;
    expect(byName.get('mapDocument')!.description).toContain(`Cost: ${prices.mapDocument!.toLocaleString('en-US')} tokens`);
    expect(byName.get('searchLibrary')!.description).toContain(`Cost: ${SEARCH_PRICE.toLocaleString('en-US')} tokens`);
    expect(byName.get('getBilling')!.description).not.toContain('Cost:');
    expect(byName.get('getFramework')!.inputSchema).toMatchObject({ type: 'object', required: ['slug'] });
    expect(Object.keys(byName.get('mapDocument')!.inputSchema.properties ?? {})).not.toContain('file');
  });

  it('calls a free tool', async () => {
    const result = await call('ping');
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ result: { mode: 'live' } });
  });

  it('calls a charged tool inside the budget and reports the running spend', async () => {
    const before = await billing();
    const result = await call('searchLibrary', { query: 'access reviews' });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('Access control policy');
    expect(textOf(result)).toContain(`Session spend: ${SEARCH_PRICE.toLocaleString('en-US')} tokens charged; budget ${BUDGET.toLocaleString('en-US')} tokens`);
    expect(result.structuredContent).toMatchObject({ spend: { spentTokens: SEARCH_PRICE, maxTokens: BUDGET, remainingTokens: BUDGET - SEARCH_PRICE } });
    expect((await billing()).balanceTokens).toBe(before.balanceTokens - SEARCH_PRICE);
  });

  it('refuses a charged call that would cross the budget, with the ledger unchanged', async () => {
    const before = await billing();
    const result = await call('searchLibrary', { query: 'incident response' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^budget_exceeded: refused before spending anything: searchLibrary \(1 × searchLibrary at 5,000 tokens\) costs 5,000 tokens, but the cap of 7,500 tokens allows 2,500 tokens more \(5,000 tokens of it already spent or reserved\): enough for 0 of the 1 call/);
    expect(textOf(result)).toContain('hint: ');
    const after = await billing();
    expect(after.balanceTokens).toBe(before.balanceTokens);
    expect(after.ledger.map((entry) => entry.id)).toEqual(before.ledger.map((entry) => entry.id));
  });

  it('returns service errors as tool errors with the code, hint and request id', async () => {
    const result = await call('getLibraryDocument', { id: 'no-such-document' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^document_not_found: /);
    expect(textOf(result)).toMatch(/request id: \S+/);
    // The service words its hint for HTTP callers (GET /library); the assistant reads the tool's name.
    expect(textOf(result)).toContain('hint: listLibrary lists your documents.');
    expect(textOf(result)).not.toMatch(/\b(GET|POST|PUT|DELETE) \//);
    const wrongSlug = await call('getFramework', { slug: 'no such slug!' });
    expect(textOf(wrongSlug)).toContain('getCapabilities lists the verified ones');
    expect(textOf(wrongSlug)).not.toContain('compliance frameworks list');
    const invalid = await call('getFramework', {});
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('slug');
  });

  it('lists and reads library documents as library:// resources, with their content', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual(expect.arrayContaining([expect.objectContaining({ uri: `library://${documentId}`, title: 'Access control policy' })]));
    expect(resources.some((resource) => resource.uri === 'framework://hipaa-security')).toBe(true);
    const read = await client.readResource({ uri: `library://${documentId}` });
    answers.push(read);
    expect(read.contents[0]).toMatchObject({ uri: `library://${documentId}`, mimeType: 'text/plain' });
    expect((read.contents[0] as { text: string }).text).toContain('reviewed quarterly by each system owner');
    const framework = await client.readResource({ uri: 'framework://hipaa-security' });
    expect(JSON.parse((framework.contents[0] as { text: string }).text)).toMatchObject({ slug: 'hipaa-security' });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.uriTemplate)).toEqual(['library://{id}', 'framework://{slug}', 'report://{jobId}', 'document://{jobId}.{format}']);
  });

  it('runs the review prompts', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(['quarterly_review', 'draft_policy_for_gap']);
    const prompt = await client.getPrompt({ name: 'quarterly_review', arguments: { directory: 'examples' } });
    answers.push(prompt);
    expect(prompt.messages[0]!.content).toMatchObject({ type: 'text', text: expect.stringContaining('Call planReview with directory "examples"') });
  });

  it('never puts the key in an answer or on stderr', () => {
    expect(answers.length).toBeGreaterThan(5);
    expect(JSON.stringify(answers)).not.toContain(LIVE_KEY);
    expect(stderr()).not.toContain(LIVE_KEY);
  });
});
