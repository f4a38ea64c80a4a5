/**
 * templates/github/compliance-pr-check.yml with compliance-library-sync.yml, executed step by step
 * against the sandbox (a live key, so the ledger records every charge) and a fake GitHub, as one
 * repository's story: a first pull request before the default branch has a report, the library
 * sync, two pull requests touching the same policy (one merged, one abandoned), a pull request
 * changing nothing in scope, a fork, and a symlink pointing out of the checkout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { GITHUB_TOKEN, HIPAA_CONFIG, LIVE_API_KEY, makeWorkspace, POLICY_FILES, pullRequestEvent, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { GitHubGateway } from '../githubGateway.js';
import { CacheStore, leaks, makeOrigin, mergeBranch, pushBranch, runWorkflow, showFile, type WorkflowRun } from '../workflowRunner.js';
import { HIPAA_COVERAGE } from '../../fixtures/golden.js';

const FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-pr-check.yml');
const SYNC_FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-library-sync.yml');
const MARKER = '<!-- compliance-report:map -->';
const POLICY = 'policies/access-control-policy.md';
const A_TEXT = 'Access rights are recertified by each system owner every quarter and revoked within one day of a role change.';
const B_TEXT = 'Shared accounts are forbidden; every administrator uses a named account with multi-factor authentication.';

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [`${LIVE_API_KEY}:live:100000000`] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 2 }).start();
  github = await new GitHubGateway(fake).start();
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

const auth = () => ({ authorization: `Bearer ${LIVE_API_KEY}` });
async function library(): Promise<Array<{ id: string; title: string; filename: string; version: number; tags: string[] }>> {
  const response = await fetch(`${sandbox.baseUrl}/library?limit=100`, { headers: auth() });
  return ((await response.json()) as { documents: Array<{ id: string; title: string; filename: string; version: number; tags: string[] }> }).documents;
}
async function libraryText(filename: string): Promise<string> {
  const document = (await library()).find((entry) => entry.filename === filename || entry.filename.endsWith(`/${filename}`));
  if (!document) throw new Error(`no library document ${filename}`);
  const response = await fetch(`${sandbox.baseUrl}/library/documents/${document.id}?include=content`, { headers: auth() });
  const { content } = (await response.json()) as { content?: string };
  if (content === undefined) throw new Error(`library document ${filename}: no content`);
  return content;
}
interface LedgerEntry { id: string; operation: string; tokens: number }
async function ledger(): Promise<LedgerEntry[]> {
  const response = await fetch(`${sandbox.baseUrl}/billing`, { headers: auth() });
  return ((await response.json()) as { ledger: LedgerEntry[] }).ledger;
}
/** The ledger entries a run added. */
async function charged<T>(run: () => Promise<T>): Promise<{ result: T; entries: LedgerEntry[] }> {
  const before = new Set((await ledger()).map((entry) => entry.id));
  const result = await run();
  return { result, entries: (await ledger()).filter((entry) => !before.has(entry.id)) };
}
const SYNC_OPERATIONS = ['ingestLibraryDocument', 'refreshLibraryDocument'];

describe('compliance-pr-check.yml with compliance-library-sync.yml', () => {
  it('the library mirrors the default branch; pull requests map their own text, compare, price the merge and never sync; forks fail', { timeout: 300_000 }, async () => {
    const origin = makeOrigin(makeWorkspace(HIPAA_CONFIG(90)));
    const caches = new CacheStore();
    const common = { origin, github, caches, secrets: { COMPLIANCE_API_KEY: LIVE_API_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } };
    const prCheck = (pr: number, ref: string, extra: { fork?: boolean } = {}) =>
      charged(() => runWorkflow({ ...common, file: FILE, ref, event: pullRequestEvent(pr, extra), ...extra }));
    const librarySync = () => charged(() => runWorkflow({ ...common, file: SYNC_FILE, ref: 'main', event: { name: 'push', payload: { ref: 'refs/heads/main' } } }));
    const comment = (pr: number) => fake.commentsOn(pr).filter((entry) => entry.body.startsWith(MARKER));
    const runs: WorkflowRun[] = [];

    // Pull request A, opened before the default branch has any report: it works and says so.
    pushBranch(origin, 'feature-a', (dir) => writeFileSync(join(dir, POLICY), `\n${A_TEXT}\n`, { flag: 'a' }));
    const prA = fake.addPullRequest('Recertify access quarterly');
    const firstA = await prCheck(prA, 'feature-a');
    runs.push(firstA.result);
    expect(firstA.result.conclusion, firstA.result.log).toBe('success');
    expect(firstA.result.step('compliance', 'baseline').outputs).toMatchObject({ 'cache-hit': 'false', 'cache-matched-key': '' });
    expect(firstA.result.annotations.filter((entry) => entry.kind === 'error')).toEqual([]);
    expect(firstA.result.annotations.find((entry) => entry.kind === 'notice')?.message).toContain('No baseline at .compliance-baseline/report.json');
    expect(comment(prA)).toHaveLength(1);
    expect(comment(prA)[0]?.body).toContain('No report of the default branch yet');
    // The library is empty: merging will ingest all 13 documents, at the listed price.
    expect(comment(prA)[0]?.body).toContain('**Merging costs the library sync 5,200,000 tokens**: 13 changed documents, 13 × 400,000 tokens (ingestLibraryDocument)');
    expect(firstA.entries.map((entry) => entry.operation)).toEqual(['mapDocument']);
    expect(comment(prA)[0]?.body).toContain(`This check spent ${(-firstA.entries[0]!.tokens).toLocaleString('en-US')} tokens`);
    expect(await library()).toHaveLength(0);

    // The default branch's library sync: 13 documents in, the report saved for pull requests.
    const sync1 = await librarySync();
    runs.push(sync1.result);
    expect(sync1.result.conclusion, sync1.result.log).toBe('success');
    expect(sync1.result.step('sync', 'sync').outputs).toMatchObject({ ingested: '13', failed: '0' });
    expect(sync1.entries.filter((entry) => entry.operation === 'ingestLibraryDocument')).toHaveLength(13);
    // The pull request kept its mappings for its own re-runs, under its own ref; the push saved the baseline.
    expect(caches.entries.filter((entry) => entry.key.startsWith('compliance-mappings-')).map((entry) => entry.ref)).toEqual(['refs/pull/1/merge']);
    const baselines = caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'));
    expect(baselines.map((entry) => [entry.key.replace(/[0-9a-f]{40}$/, 'SHA'), entry.ref])).toEqual([['compliance-baseline-main-SHA', 'refs/heads/main']]);
    expect(readdirSync(baselines[0]!.dir).sort()).toEqual(['compliance.yml', 'report.json', 'report.md']);

    // Pull request B touches the same policy and removes the asset management standard: a new gap.
    pushBranch(origin, 'feature-b', (dir) => {
      writeFileSync(join(dir, POLICY), `\n${B_TEXT}\n`, { flag: 'a' });
      rmSync(join(dir, 'policies', 'asset-management-standard.md'));
    });
    const prB = fake.addPullRequest('Named admin accounts');
    const runA = await prCheck(prA, 'feature-a');
    const runB = await prCheck(prB, 'feature-b');
    runs.push(runA.result, runB.result);
    for (const run of [runA, runB]) {
      expect(run.result.step('compliance', 'baseline').outputs['cache-matched-key']).toMatch(/^compliance-baseline-main-[0-9a-f]{40}$/);
      expect(run.entries.filter((entry) => SYNC_OPERATIONS.includes(entry.operation))).toEqual([]);
    }
    expect(runA.result.conclusion, runA.result.log).toBe('success');
    expect(comment(prA)).toHaveLength(1);
    const bodyA = comment(prA)[0]?.body ?? '';
    expect(bodyA).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | ${HIPAA_COVERAGE}% | no change |`);
    expect(bodyA).toContain('Against the default branch: 0 gaps introduced, 0 resolved.');
    expect(bodyA).toContain('**Merging costs the library sync 400,000 tokens**: 1 changed document, 1 × 400,000 tokens (refreshLibraryDocument)');
    expect(bodyA).not.toContain('No report of the default branch yet');

    expect(runB.result.conclusion, runB.result.log).toBe('success');
    const bodyB = comment(prB)[0]?.body ?? '';
    expect(bodyB).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | 92.3% | −1.5 points |`);
    expect(bodyB).toContain('Against the default branch: 1 gap introduced (164.310(d)(2)(iv)), 0 resolved.');
    expect(bodyB).toContain("**Merging costs the library sync 400,000 tokens**: 1 changed document, 1 × 400,000 tokens (refreshLibraryDocument); 1 document leaves the library's scope (free)");
    expect(runB.result.step('compliance', 'map').outputs).toMatchObject({ 'merge-tokens': '400000', 'new-gaps': '1', 'gaps-resolved': '0' });
    // Neither pull request reached the library.
    expect(await libraryText('access-control-policy.md')).not.toContain(A_TEXT);
    expect(await libraryText('access-control-policy.md')).not.toContain(B_TEXT);

    // A pull request changing nothing in scope (and not compliance.yml): nothing mapped, nothing spent.
    pushBranch(origin, 'docs-only', (dir) => writeFileSync(join(dir, 'NOTES.txt'), 'meeting notes\n'));
    const prC = fake.addPullRequest('Notes');
    const runC = await prCheck(prC, 'docs-only');
    runs.push(runC.result);
    expect(runC.result.conclusion, runC.result.log).toBe('success');
    expect(runC.entries).toEqual([]);
    expect(runC.result.step('compliance', 'map').outputs).toMatchObject({ status: 'unchanged', 'tokens-spent': '0', 'merge-tokens': '0' });
    expect(comment(prC)[0]?.body).toContain('changes no document in scope and not compliance.yml: nothing was mapped, nothing spent');

    // A is merged, B abandoned: the library sync on the default branch brings the library to main.
    mergeBranch(origin, 'feature-a');
    const sync2 = await librarySync();
    runs.push(sync2.result);
    expect(sync2.result.conclusion, sync2.result.log).toBe('success');
    expect(sync2.result.step('sync', 'sync').outputs).toMatchObject({ ingested: '0', refreshed: '1', failed: '0' });
    expect(caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'))).toHaveLength(2);
    const documents = await library();
    expect(documents.map((entry) => entry.filename.split('/').pop()).sort()).toEqual([...POLICY_FILES].sort());
    const text = await libraryText('access-control-policy.md');
    expect(text).toContain(A_TEXT);
    expect(text).not.toContain(B_TEXT);
    expect(showFile(origin, 'main', POLICY)).toContain(A_TEXT);

    // A pull request from a fork: no key, so the check fails (never green unchecked) and says what to do.
    const writes = fake.writes().length;
    pushBranch(origin, 'fork-change', (dir) => writeFileSync(join(dir, POLICY), '\nAnything.\n', { flag: 'a' }));
    const forkPr = fake.addPullRequest('From a fork');
    const fork = await prCheck(forkPr, 'fork-change', { fork: true });
    runs.push(fork.result);
    expect(fork.result.conclusion).toBe('failure');
    expect(fork.result.step('compliance', 'map').outcome).toBe('failure');
    expect(fork.result.summary).toContain('GitHub does not pass secrets to pull requests from forks');
    expect(fork.result.annotations.find((entry) => entry.kind === 'error')?.message).toContain('A maintainer must read the change and push it to a branch of this repository');
    expect(fork.entries).toEqual([]);
    expect(fake.writes()).toHaveLength(writes);

    // A pull request whose report directory is a symlink out of the checkout: nothing is written there.
    const outside = mkdtempSync(join(tmpdir(), 'outside-checkout-'));
    pushBranch(origin, 'symlink', (dir) => {
      symlinkSync(outside, join(dir, 'compliance-report'));
      writeFileSync(join(dir, POLICY), '\nAccess reviews are logged.\n', { flag: 'a' });
    });
    const prE = fake.addPullRequest('Symlinked report directory');
    const symlinked = await prCheck(prE, 'symlink');
    runs.push(symlinked.result);
    expect(symlinked.result.conclusion).toBe('failure');
    expect(symlinked.result.step('compliance', 'map').outcome).toBe('failure');
    expect(symlinked.result.annotations.find((entry) => entry.kind === 'error')?.message).toContain('compliance-report: is a symbolic link; nothing is written through links');
    expect(readdirSync(outside)).toEqual([]);

    for (const run of runs) expect(leaks(run, [LIVE_API_KEY], github)).toEqual([]);
  });
});
