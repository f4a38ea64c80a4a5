/**
 * templates/github/compliance-pr-check.yml with compliance-library-sync.yml, executed step by step
 * against the sandbox (a live key, so the ledger records every charge) and a fake GitHub, as one
 * repository's story: a first pull request before the default branch has a report, the library
 * sync, two pull requests touching the same policy (one merged, one abandoned), a pull request
 * changing nothing in scope (from a branch and from a fork), the weekly refresh of the baseline,
 * the merge queue, a fork, and a symlink pointing out of the checkout. Each step is its own test,
 * in order, on the same repository, so a failure names the step it happened in.
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
  // A live key's 60 requests a minute would have these runs wait out real 429s (about a minute each).
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${LIVE_API_KEY}:live:100000000`] });
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
/** One step runs a workflow or two (each a few action bundles). */
const STEP_TIMEOUT = 120_000;

describe('compliance-pr-check.yml with compliance-library-sync.yml: the library mirrors the default branch, pull requests never sync', () => {
  let origin: string;
  const caches = new CacheStore();
  const runs: WorkflowRun[] = [];
  const common = () => ({ origin, github, caches, secrets: { COMPLIANCE_API_KEY: LIVE_API_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } });
  const prCheck = async (pr: number, ref: string, extra: { fork?: boolean } = {}) => {
    const run = await charged(() => runWorkflow({ ...common(), file: FILE, ref, event: pullRequestEvent(pr, extra), ...extra }));
    runs.push(run.result);
    return run;
  };
  const librarySync = async () => {
    const run = await charged(() => runWorkflow({ ...common(), file: SYNC_FILE, ref: 'main', event: { name: 'push', payload: { ref: 'refs/heads/main' } } }));
    runs.push(run.result);
    return run;
  };
  const comment = (pr: number) => fake.commentsOn(pr).filter((entry) => entry.body.startsWith(MARKER));
  let prA: number;
  let prB: number;
  beforeAll(() => {
    origin = makeOrigin(makeWorkspace(HIPAA_CONFIG(90)));
  });

  it('1. pull request A, opened before the default branch has a report, works and says so', { timeout: STEP_TIMEOUT }, async () => {
    pushBranch(origin, 'feature-a', (dir) => writeFileSync(join(dir, POLICY), `\n${A_TEXT}\n`, { flag: 'a' }));
    prA = fake.addPullRequest('Recertify access quarterly');
    const firstA = await prCheck(prA, 'feature-a');
    expect(firstA.result.conclusion, firstA.result.log).toBe('success');
    expect(firstA.result.step('compliance', 'baseline').outputs).toMatchObject({ 'cache-hit': 'false', 'cache-matched-key': '' });
    expect(firstA.result.annotations.filter((entry) => entry.kind === 'error')).toEqual([]);
    const notices = firstA.result.annotations.filter((entry) => entry.kind === 'notice').map((entry) => entry.message);
    expect(notices).toContainEqual(expect.stringContaining('No baseline at .compliance-baseline/report.json'));
    // The gate is the base commit's compliance.yml, read from git: no saved copy is needed, none is asked for.
    expect(notices.filter((notice) => notice.includes('ignored'))).toEqual([]);
    expect(comment(prA)).toHaveLength(1);
    expect(comment(prA)[0]?.body).toContain('No report of the default branch yet');
    // The library is empty: merging will ingest all 13 documents, at the listed price.
    expect(comment(prA)[0]?.body).toContain('**Merging costs the library sync 5,200,000 tokens**: 13 changed documents, 13 × 400,000 tokens (ingestLibraryDocument)');
    expect(firstA.entries.map((entry) => entry.operation)).toEqual(['mapDocument']);
    expect(comment(prA)[0]?.body).toContain(`This check spent ${(-firstA.entries[0]!.tokens).toLocaleString('en-US')} tokens`);
    expect(await library()).toHaveLength(0);
  });

  it("2. the default branch's library sync ingests the 13 documents and saves the report for pull requests", { timeout: STEP_TIMEOUT }, async () => {
    const sync1 = await librarySync();
    expect(sync1.result.conclusion, sync1.result.log).toBe('success');
    expect(sync1.result.step('sync', 'sync').outputs).toMatchObject({ ingested: '13', failed: '0' });
    expect(sync1.entries.filter((entry) => entry.operation === 'ingestLibraryDocument')).toHaveLength(13);
    // The pull request kept its mappings for its own re-runs, under its own ref; the push saved the baseline.
    expect(caches.entries.filter((entry) => entry.key.startsWith('compliance-mappings-')).map((entry) => entry.ref)).toEqual(['refs/pull/1/merge']);
    const baselines = caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'));
    expect(baselines.map((entry) => [entry.key.replace(/[0-9a-f]{40}-\d+$/, 'SHA-RUN'), entry.ref])).toEqual([['compliance-baseline-main-SHA-RUN', 'refs/heads/main']]);
    expect(readdirSync(baselines[0]!.dir).sort()).toEqual(['report.json', 'report.md']);
  });

  describe('3. pull requests A and B (same policy; B also removes the asset management standard)', () => {
    let runA: Awaited<ReturnType<typeof prCheck>>;
    let runB: Awaited<ReturnType<typeof prCheck>>;
    beforeAll(async () => {
      pushBranch(origin, 'feature-b', (dir) => {
        writeFileSync(join(dir, POLICY), `\n${B_TEXT}\n`, { flag: 'a' });
        rmSync(join(dir, 'policies', 'asset-management-standard.md'));
      });
      prB = fake.addPullRequest('Named admin accounts');
      runA = await prCheck(prA, 'feature-a');
      runB = await prCheck(prB, 'feature-b');
    }, STEP_TIMEOUT);

    it('both compare against the saved default-branch report and spend nothing on the library', () => {
      for (const run of [runA, runB]) {
        expect(run.result.step('compliance', 'baseline').outputs['cache-matched-key']).toMatch(/^compliance-baseline-main-[0-9a-f]{40}-\d+$/);
        expect(run.entries.filter((entry) => SYNC_OPERATIONS.includes(entry.operation))).toEqual([]);
      }
    });

    it('A: no change in coverage, no gap introduced, the merge priced as one refresh, one comment updated', () => {
      expect(runA.result.conclusion, runA.result.log).toBe('success');
      expect(comment(prA)).toHaveLength(1);
      const bodyA = comment(prA)[0]?.body ?? '';
      expect(bodyA).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | ${HIPAA_COVERAGE}% | no change |`);
      expect(bodyA).toContain('Against the default branch: 0 gaps introduced, 0 resolved.');
      expect(bodyA).toContain('**Merging costs the library sync 400,000 tokens**: 1 changed document, 1 × 400,000 tokens (refreshLibraryDocument)');
      expect(bodyA).not.toContain('No report of the default branch yet');
    });

    it('B: coverage down, the new gap named, the removed document free to drop', () => {
      expect(runB.result.conclusion, runB.result.log).toBe('success');
      const bodyB = comment(prB)[0]?.body ?? '';
      expect(bodyB).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | 92.3% | −1.5 points |`);
      expect(bodyB).toContain('Against the default branch: 1 gap introduced (164.310(d)(2)(iv)), 0 resolved.');
      expect(bodyB).toContain("**Merging costs the library sync 400,000 tokens**: 1 changed document, 1 × 400,000 tokens (refreshLibraryDocument); 1 document leaves the library's scope (free)");
      expect(runB.result.step('compliance', 'map').outputs).toMatchObject({ 'merge-tokens': '400000', 'new-gaps': '1', 'gaps-resolved': '0' });
    });

    it('neither reached the library', async () => {
      expect(await libraryText('access-control-policy.md')).not.toContain(A_TEXT);
      expect(await libraryText('access-control-policy.md')).not.toContain(B_TEXT);
    });
  });

  describe('4. a pull request changing nothing in scope (and not compliance.yml), as git shows it, passes, calls nothing and spends nothing', () => {
    let prC: number;
    beforeAll(() => {
      pushBranch(origin, 'docs-only', (dir) => writeFileSync(join(dir, 'NOTES.txt'), 'meeting notes\n'));
      prC = fake.addPullRequest('Notes');
    });

    for (const fork of [false, true]) {
      it(fork ? 'from a fork (no key): the same, nothing needs the key' : 'from a branch of this repository', { timeout: STEP_TIMEOUT }, async () => {
        const writesBefore = fake.writes().length;
        const runC = await prCheck(prC, 'docs-only', { fork });
        expect(runC.result.conclusion, runC.result.log).toBe('success');
        expect(runC.entries).toEqual([]);
        // No figures: the saved report counts only once the service confirms it, and nothing is called.
        expect(runC.result.step('compliance', 'map').outputs).toMatchObject({ status: 'unchanged', passed: 'true', coverage: '', gaps: '', 'tokens-spent': '0', 'merge-tokens': '0' });
        expect(runC.result.summary).toContain('## Compliance check: no document in scope changed');
        expect(runC.result.summary).toContain('No figures are shown (no confirmed report of the default branch at hand).');
        expect(fake.writes()).toHaveLength(writesBefore);
      });
    }

    it('no comment is written on it', () => {
      expect(comment(prC)).toEqual([]);
    });
  });

  it('5. A merged, B abandoned: the library sync on the default branch brings the library to main', { timeout: STEP_TIMEOUT }, async () => {
    mergeBranch(origin, 'feature-a');
    const sync2 = await librarySync();
    expect(sync2.result.conclusion, sync2.result.log).toBe('success');
    expect(sync2.result.step('sync', 'sync').outputs).toMatchObject({ ingested: '0', refreshed: '1', failed: '0' });
    expect(caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'))).toHaveLength(2);
    const documents = await library();
    expect(documents.map((entry) => entry.filename.split('/').pop()).sort()).toEqual([...POLICY_FILES].sort());
    const text = await libraryText('access-control-policy.md');
    expect(text).toContain(A_TEXT);
    expect(text).not.toContain(B_TEXT);
    expect(showFile(origin, 'main', POLICY)).toContain(A_TEXT);
  });

  it('6. the weekly run on the same commit saves a fresh baseline (a key per run), which pull requests restore next', { timeout: STEP_TIMEOUT }, async () => {
    const weekly = await charged(() => runWorkflow({ ...common(), file: SYNC_FILE, ref: 'main', event: { name: 'schedule', payload: { schedule: '23 5 * * 1' } } }));
    runs.push(weekly.result);
    expect(weekly.result.conclusion, weekly.result.log).toBe('success');
    expect(weekly.result.annotations.filter((entry) => entry.message.startsWith('Failed to save'))).toEqual([]);
    // Baselines only: pull requests keep their mappings in caches of their own (compliance-mappings-<ref>).
    const baselines = caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'));
    expect(baselines).toHaveLength(3);
    expect(baselines[2]?.key).not.toBe(baselines[1]?.key);
    expect(weekly.entries.filter((entry) => SYNC_OPERATIONS.includes(entry.operation))).toEqual([]);
  });

  it("7. the merge queue runs the same check (no paths filter could skip it) against the default branch's baseline", { timeout: STEP_TIMEOUT }, async () => {
    pushBranch(origin, 'gh-readonly-queue/main/pr-1-0a1b2c', (dir) => writeFileSync(join(dir, POLICY), '\nAccess is logged.\n', { flag: 'a' }));
    const queued = await charged(() =>
      runWorkflow({ ...common(), file: FILE, ref: 'gh-readonly-queue/main/pr-1-0a1b2c', event: { name: 'merge_group', payload: { merge_group: { base_ref: 'refs/heads/main', head_ref: 'refs/heads/gh-readonly-queue/main/pr-1-0a1b2c' } } } }),
    );
    runs.push(queued.result);
    expect(queued.result.conclusion, queued.result.log).toBe('success');
    expect(queued.result.step('compliance', 'baseline').outputs['cache-matched-key']).toBe(caches.entries.filter((entry) => entry.key.startsWith('compliance-baseline-'))[2]?.key);
    expect(queued.result.step('compliance', 'map').outputs).toMatchObject({ status: 'passed', 'merge-tokens': '400000' });
    expect(queued.entries.filter((entry) => SYNC_OPERATIONS.includes(entry.operation))).toEqual([]);
  });

  it('8. the weekly refresh and the merge queue left the library as main has it', async () => {
    const documents = await library();
    expect(documents.map((entry) => entry.filename.split('/').pop()).sort()).toEqual([...POLICY_FILES].sort());
    const text = await libraryText('access-control-policy.md');
    expect(text).toContain(A_TEXT);
    expect(text).not.toContain(B_TEXT);
  });

  it('9. a pull request from a fork (no key) fails, never green unchecked, and says what to do', { timeout: STEP_TIMEOUT }, async () => {
    const writes = fake.writes().length;
    pushBranch(origin, 'fork-change', (dir) => writeFileSync(join(dir, POLICY), '\nAnything.\n', { flag: 'a' }));
    const forkPr = fake.addPullRequest('From a fork');
    const fork = await prCheck(forkPr, 'fork-change', { fork: true });
    expect(fork.result.conclusion).toBe('failure');
    expect(fork.result.step('compliance', 'map').outcome).toBe('failure');
    expect(fork.result.summary).toContain('GitHub does not pass secrets to pull requests from forks');
    expect(fork.result.annotations.find((entry) => entry.kind === 'error')?.message).toContain('A maintainer must read the change and push it to a branch of this repository');
    expect(fork.entries).toEqual([]);
    expect(fake.writes()).toHaveLength(writes);
  });

  it('10. a pull request whose report directory is a symlink out of the checkout writes nothing there', { timeout: STEP_TIMEOUT }, async () => {
    const outside = mkdtempSync(join(tmpdir(), 'outside-checkout-'));
    pushBranch(origin, 'symlink', (dir) => {
      symlinkSync(outside, join(dir, 'compliance-report'));
      writeFileSync(join(dir, POLICY), '\nAccess reviews are logged.\n', { flag: 'a' });
    });
    const prE = fake.addPullRequest('Symlinked report directory');
    const symlinked = await prCheck(prE, 'symlink');
    expect(symlinked.result.conclusion).toBe('failure');
    expect(symlinked.result.step('compliance', 'map').outcome).toBe('failure');
    expect(symlinked.result.annotations.find((entry) => entry.kind === 'error')?.message).toContain('compliance-report: is a symbolic link; nothing is written through links');
    expect(readdirSync(outside)).toEqual([]);
  });

  it('11. no run leaked the key', () => {
    expect(runs).toHaveLength(11);
    for (const run of runs) expect(leaks(run, [LIVE_API_KEY], github)).toEqual([]);
  });
});
