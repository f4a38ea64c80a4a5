/** actions/suggest and actions/call against the sandbox. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { API_KEY, leakedSecrets, LIVE_API_KEY, runAction } from './harness.js';

let sandbox: RunningSandbox;
let workspace: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY, `${LIVE_API_KEY}:live:1000000`] });
  workspace = mkdtempSync(join(tmpdir(), 'action-workspace-'));
});
afterAll(async () => {
  await sandbox?.close();
});

const run = (name: string, inputs: Record<string, string>) => runAction(name, { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, ...inputs } });

describe('actions/suggest', () => {
  it('outputs ranked candidates and writes a ranked table', async () => {
    const result = await run('suggest', { query: 'health data privacy for a US telehealth app', jurisdiction: 'US', limit: '3' });
    expect(result.code, result.stdout).toBe(0);
    const candidates = JSON.parse(result.outputs.candidates as string);
    expect(candidates).toHaveLength(3);
    expect(candidates.map((candidate: { rank: number }) => candidate.rank)).toEqual([1, 2, 3]);
    expect(result.outputs.top).toBe(candidates[0].slug ?? candidates[0].name);
    expect(result.summary).toContain('| # | Framework | Regulator |');
    expect(result.summary).toContain(`| 1 | [${candidates[0].name}](`);
    expect(leakedSecrets(result, [API_KEY])).toEqual([]);
  });

  it('prices the query first with a live key: max-tokens refuses before sending, dry-run sends nothing, tokens-spent is what the ledger drew', async () => {
    const live = (name: string, inputs: Record<string, string>) => run(name, { 'api-key': LIVE_API_KEY, ...inputs });
    const balance = async () => (JSON.parse((await live('call', { operation: 'getBilling' })).outputs.result as string) as { balanceTokens: number }).balanceTokens;
    const query = { query: 'health data privacy for a US telehealth app' };
    const before = await balance();

    const refused = await live('suggest', { ...query, 'max-tokens': '19999' });
    expect(refused.code).toBe(1);
    expect(refused.annotations.at(-1)?.message).toBe('refused before spending anything: one discovery query (1 × suggestFrameworks at 20,000 tokens) costs 20,000 tokens, but the cap of 19,999 tokens allows 19,999 tokens more: enough for 0 of the 1 call');
    expect(refused.outputs['tokens-spent']).toBe('0');
    expect(refused.outputs.candidates).toBeUndefined();
    expect(refused.summary).toContain('Refused before spending anything: one discovery query (1 × suggestFrameworks at 20,000 tokens) costs 20,000 tokens');

    const dry = await live('suggest', { ...query, 'dry-run': 'true' });
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.outputs['planned-tokens']).toBe('20000');
    expect(dry.outputs['tokens-spent']).toBe('0');
    expect(dry.outputs.candidates).toBeUndefined();
    expect(dry.summary).toContain('Dry run, nothing sent: one discovery query (1 × suggestFrameworks at 20,000 tokens), 20,000 tokens at live prices.');
    // A dry run the cap would refuse is still a dry run: it succeeds and says what a real run would meet.
    const dryOverCap = await live('suggest', { ...query, 'dry-run': 'true', 'max-tokens': '19999' });
    expect(dryOverCap.code, dryOverCap.stdout).toBe(0);
    expect(dryOverCap.annotations.filter((annotation) => annotation.kind === 'error')).toEqual([]);
    expect(dryOverCap.summary).toContain('20,000 tokens at live prices. A real run would be refused before spending anything: one discovery query (1 × suggestFrameworks at 20,000 tokens) costs 20,000 tokens, but the cap of 19,999 tokens allows 19,999 tokens more');
    expect(await balance()).toBe(before);

    const spent = await live('suggest', { ...query, 'max-tokens': '20000' });
    expect(spent.code, spent.stdout).toBe(0);
    expect(spent.outputs['tokens-spent']).toBe('20000');
    expect(spent.summary).toContain('Tokens spent: **20,000 tokens**.');
    expect(await balance()).toBe(before - 20_000);
    expect(leakedSecrets(spent, [LIVE_API_KEY])).toEqual([]);
  });

  it('needs a question', async () => {
    const result = await run('suggest', {});
    expect(result.code).toBe(1);
    expect(result.annotations.at(-1)?.message).toContain('input query: is required');
  });
});

describe('actions/call', () => {
  it('calls operations by id: JSON results as output, jobs waited for, binary downloads written to a path', async () => {
    const billing = await run('call', { operation: 'getBilling' });
    expect(billing.code, billing.stdout).toBe(0);
    expect(JSON.parse(billing.outputs.result as string)).toHaveProperty('balanceTokens');

    const calendar = await run('call', { operation: 'setCalendar', input: '{"cadence": "quarterly"}' });
    expect(JSON.parse(calendar.outputs.result as string)).toMatchObject({ cadence: 'quarterly' });

    const generated = await run('call', { operation: 'generateDocument', input: JSON.stringify({ framework: 'gdpr', organisation: { name: 'Acme Ltd' } }), wait: 'true' });
    expect(generated.code, generated.stdout).toBe(0);
    const jobId = generated.outputs['job-id'] as string;
    expect(JSON.parse(generated.outputs.job as string)).toMatchObject({ jobId, status: 'completed' });

    const pdf = await run('call', { operation: 'downloadDocument', input: JSON.stringify({ jobId, format: 'pdf' }), 'output-path': 'out/policy.pdf' });
    expect(pdf.code, pdf.stdout).toBe(0);
    expect(pdf.outputs.path).toBe(join(workspace, 'out', 'policy.pdf'));
    expect(readFileSync(join(workspace, 'out', 'policy.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(JSON.parse(pdf.outputs.result as string)).toMatchObject({ kind: 'binary', contentType: 'application/pdf' });
    expect(pdf.summary).toContain('## compliance call downloadDocument');
    for (const result of [billing, calendar, generated, pdf]) expect(leakedSecrets(result, [API_KEY])).toEqual([]);
  });

  it('prices a spending call first: max-tokens refuses before sending, dry-run sends nothing, tokens-spent says what was drawn', async () => {
    const live = (inputs: Record<string, string>) => run('call', { 'api-key': LIVE_API_KEY, ...inputs });
    const balance = async () => JSON.parse((await live({ operation: 'getBilling' })).outputs.result as string) as { balanceTokens: number; prices: Record<string, number> };
    const before = await balance();

    const refused = await live({ operation: 'searchLibrary', input: '{"query": "access review"}', 'max-tokens': '4999' });
    expect(refused.code).toBe(1);
    expect(refused.annotations.at(-1)?.message).toBe('refused before spending anything: 1 × searchLibrary at 5,000 tokens costs 5,000 tokens, but the cap of 4,999 tokens allows 4,999 tokens more: enough for 0 of the 1 call');
    expect(refused.outputs['tokens-spent']).toBe('0');
    expect(refused.outputs.result).toBeUndefined();

    const dry = await live({ operation: 'generateDocument', input: JSON.stringify({ framework: 'gdpr', organisation: { name: 'Acme Ltd' } }), 'dry-run': 'true' });
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.outputs['planned-tokens']).toBe(String(before.prices.generateDocument));
    expect(dry.outputs['tokens-spent']).toBe('0');
    expect(dry.outputs['job-id']).toBeUndefined();
    expect(dry.summary).toContain(`Dry run, nothing sent: 1 × generateDocument at ${before.prices.generateDocument?.toLocaleString('en-US')} tokens`);
    const dryOverCap = await live({ operation: 'searchLibrary', input: '{"query": "access review"}', 'max-tokens': '4999', 'dry-run': 'true' });
    expect(dryOverCap.code, dryOverCap.stdout).toBe(0);
    expect(dryOverCap.summary).toContain('A real run would be refused before spending anything: 1 × searchLibrary at 5,000 tokens costs 5,000 tokens, but the cap of 4,999 tokens allows 4,999 tokens more');
    expect((await balance()).balanceTokens).toBe(before.balanceTokens);

    const searched = await live({ operation: 'searchLibrary', input: '{"query": "access review"}', 'max-tokens': '5000' });
    expect(searched.code, searched.stdout).toBe(0);
    expect(searched.outputs['tokens-spent']).toBe('5000');
    expect(searched.summary).toContain('Tokens spent: **5,000 tokens**.');
    expect((await balance()).balanceTokens).toBe(before.balanceTokens - 5000);
  });

  it('fails clearly on an unknown operation, bad JSON and a service error', async () => {
    const unknown = await run('call', { operation: 'getBalance' });
    expect(unknown.annotations.at(-1)?.message).toMatch(/^input operation: unknown operation "getBalance" \(Use one of: getServiceCard, /);
    const badJson = await run('call', { operation: 'setCalendar', input: '{cadence: quarterly}' });
    expect(badJson.annotations.at(-1)?.message).toContain('input input: is not valid JSON');
    const missing = await run('call', { operation: 'getJob', input: '{"jobId": "00000000-0000-4000-8000-000000000000"}' });
    expect(missing.code).toBe(1);
    expect(missing.annotations.at(-1)?.message).toMatch(/^getJob: .*\| request id: /);
  });
});
