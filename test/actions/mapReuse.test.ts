/**
 * A re-run never pays twice: actions/map on a pull request keeps its mappings, and a re-run of the
 * same pull request with the same framework and documents (by content hash) reuses them, 0 tokens,
 * by a live key's ledger, also when only a document's front matter changed. A changed document, or
 * another pull request, maps (and pays) again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { checkoutPullRequest, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, LIVE_API_KEY, makeWorkspace, pullRequestEvent, REPOSITORY, runAction } from './harness.js';

const MAP_PRICE = 250_000;
let sandbox: RunningSandbox;
let github: FakeGitHub;
beforeAll(async () => {
  // A live key's 60 requests a minute would have these runs wait out real 429s (about a minute each).
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${LIVE_API_KEY}:live:5000000`] });
  github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
});
afterAll(async () => {
  await sandbox?.close();
  await github?.close();
});

async function balance(): Promise<number> {
  const response = await fetch(`${sandbox.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_API_KEY}` } });
  return ((await response.json()) as { balanceTokens: number }).balanceTokens;
}

/** Each workspace is a pull request's checkout whose base commit differs in one policy (made once). */
const bases = new Map<string, string>();
const eventOf = (workspace: string, pr: number) => {
  if (!bases.has(workspace)) bases.set(workspace, checkoutPullRequest(workspace, { baseDiffers: true }));
  return pullRequestEvent(pr, { base: bases.get(workspace) as string });
};
const mapOn = (workspace: string, pr: number) =>
  runAction('map', { workspace, inputs: { 'api-key': LIVE_API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN }, event: eventOf(workspace, pr), apiUrl: github.url });

describe('actions/map re-run of a pull request', () => {
  it('reuses an unchanged mapping (0 tokens, said in the comment and outputs) and maps again when a document changed', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(50));
    const pr = github.addPullRequest();
    const ours = () => github.commentsOn(pr).find((comment) => comment.body.startsWith('<!-- compliance-report:map -->'))?.body ?? '';

    let before = await balance();
    const first = await mapOn(workspace, pr);
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ 'tokens-spent': String(MAP_PRICE), reused: '[]' });
    expect(before - (await balance())).toBe(MAP_PRICE);
    expect(existsSync(join(workspace, '.compliance-mappings', 'mappings.json'))).toBe(true);

    before = await balance();
    const rerun = await mapOn(workspace, pr);
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    expect(rerun.outputs).toMatchObject({ 'tokens-spent': '0', reused: '["hipaa-security"]', coverage: first.outputs.coverage, gaps: first.outputs.gaps, status: 'passed' });
    expect(await balance()).toBe(before);
    expect(ours()).toContain('Mapping of hipaa-security reused, 0 tokens');
    expect(ours()).toContain('This check spent 0 tokens.');

    // The same store under another pull request is not this one's: mapped and paid.
    const other = github.addPullRequest();
    before = await balance();
    const elsewhere = await mapOn(workspace, other);
    expect(elsewhere.outputs).toMatchObject({ 'tokens-spent': String(MAP_PRICE), reused: '[]' });
    expect(before - (await balance())).toBe(MAP_PRICE);

    // Front matter added or edited is no change to what is mapped: reused, 0 tokens.
    const policy = join(workspace, 'policies', 'access-control-policy.md');
    const text = readFileSync(policy, 'utf8');
    for (const front of ['---\nsatisfies:\n  hipaa-security: ["164.312(a)(1)"]\n---\n\n', '---\nowner: security\nsatisfies:\n  hipaa-security: ["164.312(a)(1)", "164.312(d)"]\n---\n']) {
      writeFileSync(policy, front + text);
      before = await balance();
      const declared = await mapOn(workspace, other);
      expect(declared.outputs, declared.stdout + declared.stderr).toMatchObject({ 'tokens-spent': '0', reused: '["hipaa-security"]' });
      expect(await balance()).toBe(before);
    }

    // A changed document is a new mapping.
    appendFileSync(policy, '\nAccess is reviewed every quarter by the system owner.\n');
    before = await balance();
    const changed = await mapOn(workspace, other);
    expect(changed.outputs).toMatchObject({ 'tokens-spent': String(MAP_PRICE), reused: '[]' });
    expect(before - (await balance())).toBe(MAP_PRICE);
    for (const run of [first, rerun, elsewhere, changed]) expect(leakedSecrets(run, [LIVE_API_KEY, GITHUB_TOKEN])).toEqual([]);
  }, 120_000);

  it('dry-run prices the mapping and sends nothing: no charge, no comment, status skipped; on a pull request it evaluated nothing, so the step fails', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(50));
    const pr = github.addPullRequest();
    const before = await balance();
    const run = await runAction('map', { workspace, inputs: { 'api-key': LIVE_API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, 'dry-run': 'true', 'max-tokens': String(MAP_PRICE) }, event: eventOf(workspace, pr), apiUrl: github.url });
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.outputs).toMatchObject({ status: 'skipped', 'tokens-spent': '0' });
    expect(run.outputs.passed).toBe('false');
    expect(run.summary).toContain('## Compliance check: not evaluated (dry run: nothing was sent)\n\n');
    expect(run.summary).toContain('Dry run, nothing sent: 1 × mapDocument at 250,000 tokens, 250,000 tokens at live prices.\n');
    // Under a cap that would refuse the mapping it is still a dry run (no comment, the refusal said), failed as every gated dry run is.
    const overCap = await runAction('map', { workspace, inputs: { 'api-key': LIVE_API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, 'dry-run': 'true', 'max-tokens': String(MAP_PRICE - 1) }, event: eventOf(workspace, pr), apiUrl: github.url });
    expect(overCap.code, overCap.stdout + overCap.stderr).toBe(1);
    expect(overCap.outputs).toMatchObject({ status: 'skipped', passed: 'false', 'tokens-spent': '0' });
    expect(overCap.summary).toContain('250,000 tokens at live prices. A real run would be refused before spending anything: 1 × mapDocument at 250,000 tokens costs 250,000 tokens, but the cap of 249,999 tokens allows 249,999 tokens more');
    expect(await balance()).toBe(before);
    expect(github.commentsOn(pr)).toEqual([]);
  }, 60_000);

  it('ignores a store that does not read as one (maps again) rather than failing', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(50));
    const pr = github.addPullRequest();
    eventOf(workspace, pr);
    mkdirSync(join(workspace, '.compliance-mappings'));
    writeFileSync(join(workspace, '.compliance-mappings', 'mappings.json'), '{"version": 1, "pullRequest": "not a number"');
    const before = await balance();
    const run = await mapOn(workspace, pr);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.outputs).toMatchObject({ 'tokens-spent': String(MAP_PRICE), reused: '[]' });
    expect(before - (await balance())).toBe(MAP_PRICE);
  }, 60_000);
});
