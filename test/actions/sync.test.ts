/** actions/sync: only what changed is sent; budgets refuse before spending; dry runs send nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ComplianceClient } from '../../api/node/index.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { API_KEY, HIPAA_CONFIG, leakedSecrets, LIVE_API_KEY, makeWorkspace, pullRequestEvent, runAction } from './harness.js';

// One key (one library) per test: each starts from an empty library.
const PATHS_KEY = 'csk_sandbox_actions_sync_paths_0001';
const BUDGET_KEY = 'csk_sandbox_actions_sync_budget_0001';
const PR_KEY = 'csk_sandbox_actions_sync_pull_0001';
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY, PATHS_KEY, BUDGET_KEY, PR_KEY, `${LIVE_API_KEY}:live:1000000`] });
});
afterAll(async () => {
  await sandbox?.close();
});

const sync = (workspace: string, inputs: Record<string, string> = {}, key = API_KEY) =>
  runAction('sync', { workspace, inputs: { 'api-key': key, 'base-url': sandbox.baseUrl, ...inputs } });

describe('actions/sync', () => {
  it('ingests new documents once, then only what changed; deletes only with delete-removed', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const first = await sync(workspace);
    expect(first.code, first.stdout).toBe(0);
    expect(first.outputs).toMatchObject({ ingested: '13', refreshed: '0', unchanged: '0', failed: '0', 'tokens-spent': '0', 'planned-tokens': '5200000' });
    expect(JSON.parse(first.outputs['changed-paths'] as string)).toHaveLength(13);
    expect(first.summary).toContain('## Library sync');
    expect(first.summary).toContain('sandbox key: never charged');

    const second = await sync(workspace);
    expect(second.outputs).toMatchObject({ ingested: '0', refreshed: '0', unchanged: '13', 'planned-tokens': '0' });

    appendFileSync(join(workspace, 'policies', 'hr-security-policy.md'), '\nContractors are supervised by their sponsoring manager at all times.\n');
    rmSync(join(workspace, 'policies', 'acceptable-use-policy.md'));
    const third = await sync(workspace);
    expect(third.outputs).toMatchObject({ ingested: '0', refreshed: '1', unchanged: '11', deleted: '0', kept: '12' });
    expect(JSON.parse(third.outputs['changed-paths'] as string)).toEqual(['policies/hr-security-policy.md']);

    const fourth = await sync(workspace, { 'delete-removed': 'true' });
    expect(fourth.outputs).toMatchObject({ deleted: '1', refreshed: '0' });
    for (const run of [first, second, third, fourth]) expect(leakedSecrets(run, [API_KEY])).toEqual([]);
  });

  it('syncs the paths input without a compliance.yml; a dry run sends nothing', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    rmSync(join(workspace, 'compliance.yml'));
    const client = new ComplianceClient({ apiKey: PATHS_KEY, baseUrl: sandbox.baseUrl });
    const paths = { paths: 'policies/access-*.md\npolicies/hr-*.md', category: 'Policies', tags: 'hr, access' };
    const dry = await sync(workspace, { ...paths, 'dry-run': 'true' }, PATHS_KEY);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.outputs).toMatchObject({ planned: '2', ingested: '0' });
    expect(dry.summary).toContain('dry run: nothing sent');
    expect(await client.listAllLibraryDocuments()).toHaveLength(0);

    const real = await sync(workspace, paths, PATHS_KEY);
    expect(real.outputs).toMatchObject({ ingested: '2' });
    const library = await client.listAllLibraryDocuments();
    expect(library.map((doc) => doc.filename).sort()).toEqual(['policies/access-control-policy.md', 'policies/hr-security-policy.md']);
    expect(library[0]?.tags).toEqual(expect.arrayContaining(['repo:acme/policies', 'hr', 'access']));

    const none = await sync(workspace, { paths: 'docs/*.md' }, PATHS_KEY);
    expect(none.code).toBe(1);
    expect(none.annotations.at(-1)?.message).toContain('these globs match no file');
  });

  it('never writes the library from a pull request (it mirrors the default branch); a dry run there is fine', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const inputs = { 'api-key': PR_KEY, 'base-url': sandbox.baseUrl };
    const refused = await runAction('sync', { workspace, inputs, event: pullRequestEvent(3) });
    expect(refused.code).toBe(1);
    expect(refused.annotations.at(-1)?.message).toContain('sync writes the library, which mirrors the default branch: a pull request carries unmerged text');
    // A refusal is never an empty summary.
    expect(refused.summary).toContain('## Compliance sync: refused, nothing written');
    expect(refused.summary).toContain('Run sync on pushes to the default branch');
    const dry = await runAction('sync', { workspace, inputs: { ...inputs, 'dry-run': 'true' }, event: pullRequestEvent(3) });
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.outputs).toMatchObject({ planned: '13', ingested: '0' });
    const library = await new ComplianceClient({ apiKey: PR_KEY, baseUrl: sandbox.baseUrl }).listLibrary({});
    expect(library.documents).toEqual([]);
  });

  it('refuses over the cap or the balance before spending anything', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const capped = await sync(workspace, { 'max-tokens': '1000000' }, BUDGET_KEY);
    expect(capped.code).toBe(1);
    expect(capped.annotations.at(-1)?.message).toContain('refused before spending anything: 13 × ingestLibraryDocument at 400,000 tokens costs 5,200,000 tokens, but the cap of 1,000,000 tokens allows 1,000,000 tokens more: enough for 2 of the 13 calls (Set max-tokens to 5,200,000 or more, or plan fewer calls; a dry run shows the plan.)');
    expect(capped.summary).toContain('would ingest');
    expect(capped.summary).toContain('## Library sync (refused: nothing sent)');
    expect(capped.summary).not.toContain('(dry run');

    // The same plan as a dry run succeeds, sends nothing, and says what the cap would refuse.
    const dry = await sync(workspace, { 'max-tokens': '1000000', 'dry-run': 'true' }, BUDGET_KEY);
    expect(dry.code, dry.stdout).toBe(0);
    expect(dry.annotations.filter((annotation) => annotation.kind === 'error')).toEqual([]);
    expect(dry.summary).toContain('## Library sync (dry run: nothing sent)');
    expect(dry.summary).toContain('5,200,000 tokens at live prices (sandbox key: never charged). A real run would be refused before spending anything: 13 × ingestLibraryDocument at 400,000 tokens costs 5,200,000 tokens, but the cap of 1,000,000 tokens allows 1,000,000 tokens more');
    expect(dry.outputs).toMatchObject({ 'tokens-spent': '0', planned: '13' });

    const live = new ComplianceClient({ apiKey: LIVE_API_KEY, baseUrl: sandbox.baseUrl });
    const balance = (await live.getBilling()).balanceTokens;
    const broke = await sync(workspace, {}, LIVE_API_KEY);
    expect(broke.code).toBe(1);
    expect(broke.annotations.at(-1)?.message).toMatch(/13 × ingestLibraryDocument at 400,000 tokens costs 5,200,000 tokens but the balance is [\d,]+ tokens.*pack/);
    expect((await live.getBilling()).balanceTokens).toBe(balance);
    expect(await live.listAllLibraryDocuments()).toHaveLength(0);
    expect(leakedSecrets(broke, [LIVE_API_KEY])).toEqual([]);
  });
});
