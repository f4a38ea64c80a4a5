/**
 * review/'s map check (runMapCheck), the one pull-request pipeline of actions/map and `compliance
 * map`, against the sandbox with a live key: what each event maps, reuses, skips and pays (the
 * key's ledger), and which compliance.yml judges it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baselineThatCounts } from '../../review/pullRequest.js';
import { changedPathsCheck, eventPolicy, parseConfig, readDeclarations, ReviewError, runMapCheck, runReview, type BaseCommitFiles, type ChangeList, type ReviewEvent } from '../../review/index.js';
import { HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, LIVE_KEY, liveBalance, POLICY_PAIR, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const MAP_PRICE = 250_000;
const configText = HIPAA_CONFIG;
const file = (config: string) => ({ config: parseConfig(config), text: config });
/** A base commit as git gives it: its compliance.yml, the change list, its documents. */
const baseCommit = (config: string, changes?: ChangeList, documents = files): BaseCommitFiles => ({ commit: 'b'.repeat(40), describe: 'the base commit bbbbbbbbbbbb', config: file(config), changes, documents: async () => documents });
const files = [...POLICY_PAIR];
const PULL_REQUEST: ReviewEvent = { kind: 'pull_request', pullRequest: 12 };

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
  // The default branch's library, as its push run leaves it.
  await runReview(apiClient(box, LIVE_KEY), { config: parseConfig(configText(0)), files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false });
});
afterAll(async () => {
  await box?.close();
});

const balance = () => liveBalance(box);

function check(event: ReviewEvent, options: { head?: string; base?: string; changes?: ChangeList; mappingStore?: string; changed?: boolean; frameworkFlag?: string; baseline?: Parameters<typeof runMapCheck>[1]['baseline'] } = {}) {
  const head = options.head ?? configText(0);
  return runMapCheck(apiClient(box, LIVE_KEY), {
    policy: eventPolicy(event),
    head: { ...file(head), path: 'compliance.yml' },
    base: options.base === undefined ? undefined : baseCommit(options.base, options.changes),
    baseline: options.baseline,
    request: options.frameworkFlag ? { labels: { framework: options.frameworkFlag } } : {},
    files: options.changed ? files.map((entry, index) => (index === 0 ? { ...entry, content: `${entry.content}\nAccess rights are reviewed every quarter.\n` } : entry)) : files,
    mappingStore: options.mappingStore,
    review: { readDeclarations, today: '2026-01-05' },
  });
}

describe('runMapCheck', () => {
  it('on a pull request: maps its own text once, prices the merge, and a re-run with the store it returned pays nothing', { timeout: 60_000 }, async () => {
    const before = await balance();
    const first = await check(PULL_REQUEST, { base: configText(0), changed: true });
    expect(before - (await balance())).toBe(MAP_PRICE);
    expect(first.result.mergePrice?.counts).toEqual({ new: 0, changed: 1, removed: 0 });
    expect(first.verdict.status).toBe('passed');
    expect(JSON.parse(first.mappingStore as string)).toMatchObject({ version: 2, pullRequest: 12 });

    const again = await check(PULL_REQUEST, { base: configText(0), changed: true, mappingStore: first.mappingStore });
    expect(before - (await balance())).toBe(MAP_PRICE);
    expect(again.result.reused).toEqual(['hipaa-security']);
    expect(again.verdict).toMatchObject({ status: 'passed', figures: { tokensSpent: 0, coverage: first.verdict.figures.coverage } });
    // Another pull request's store is not this one's: it maps (and pays) afresh.
    const other = await check({ kind: 'pull_request', pullRequest: 13 }, { base: configText(0), changed: true, mappingStore: first.mappingStore });
    expect(other.result.reused).toEqual([]);
    expect(before - (await balance())).toBe(2 * MAP_PRICE);
  });

  it("judges a pull request by the default branch's gate and lists what its compliance.yml changes", { timeout: 60_000 }, async () => {
    const run = await check(PULL_REQUEST, { head: configText(0, 'failOn: coverage\n'), base: configText(100, 'failOn: new-gaps\n'), changed: true });
    expect(run.gate.source).toBe('base');
    expect(run.gate.failOn).toBe('new-gaps');
    expect(run.gate.changes).toEqual(['failOn new-gaps → coverage', 'hipaa-security: threshold 100% → 0%']);
    expect(run.verdict).toMatchObject({ status: 'failed', passed: false });
  });

  it('maps nothing and spends nothing on a pull request that changes no document in scope nor compliance.yml', { timeout: 60_000 }, async () => {
    const before = await balance();
    const run = await check(PULL_REQUEST, { base: configText(0), changes: { paths: ['README.md'], unclassified: [] } });
    expect(run.result.status).toBe('unchanged');
    expect(run.verdict.status).toBe('unchanged');
    expect(run.mappingStore).toBeUndefined();
    expect(await balance()).toBe(before);
    // The same files with a changed compliance.yml are mapped: the gate may judge them differently.
    const changedConfig = await check(PULL_REQUEST, { head: configText(20), base: configText(0), changes: { paths: ['compliance.yml'], unclassified: [] } });
    expect(changedConfig.result.status).toBe('completed');
  });

  it('off a pull request: the head gate, no library pricing, no store', { timeout: 60_000 }, async () => {
    const run = await check({ kind: 'push' }, { head: configText(0), base: configText(100) });
    expect(run.gate.source).toBe('head');
    expect(run.result.mergePrice).toBeUndefined();
    expect(run.mappingStore).toBeUndefined();
    expect(run.verdict.status).toBe('passed');
  });

  it('with no framework to map, stops before any call, naming the flag the user gives', async () => {
    const error = await check({ kind: 'push' }, { head: configText(0).replace(/frameworks:[\s\S]*$/, ''), frameworkFlag: '--framework' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReviewError);
    expect((error as ReviewError).code).toBe('invalid_config');
    expect((error as ReviewError).hint).toContain('--framework');
  });

  it('without a flag, names the input as the user writes it', async () => {
    const error = await check({ kind: 'push' }, { head: configText(0).replace(/frameworks:[\s\S]*$/, '') }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ message: 'compliance.yml lists no frameworks to map', hint: 'Add one under frameworks:, or name a verified framework (for example nist-csf-2) with framework and a threshold.' });
  });

  it('refuses to judge a pull request whose base commit was not read: not evaluated, so not passed', async () => {
    const before = await balance();
    const error = await check(PULL_REQUEST).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReviewError);
    expect(error).toMatchObject({
      code: 'not_evaluated',
      message: 'not evaluated, so not passed: a pull request is judged by the gate of its base commit, and none was read',
      hint: 'Run the check in a clone that holds the base commit.',
    });
    expect(await balance()).toBe(before);
  });

  it('off a pull request, a mapping store handed in is not read', { timeout: 60_000 }, async () => {
    const stored = await check(PULL_REQUEST, { base: configText(0) });
    const run = await check({ kind: 'push' }, { mappingStore: stored.mappingStore });
    expect(run.result.reused).toEqual([]);
  });
});

describe('runMapCheck: a store or a baseline from a cache counts only as the service confirms it', () => {
  it('a stored mapping whose job the service does not know, or whose report credits text the documents do not hold, is mapped again and paid', { timeout: 60_000 }, async () => {
    type Store = { mappings: Array<{ key: string; reports: Array<{ source: string; jobId: string }> }> };
    const first = await check(PULL_REQUEST, { base: configText(0), changed: true });
    const store = JSON.parse(first.mappingStore as string) as Store;
    const unknownJob = structuredClone(store);
    unknownJob.mappings[0]!.reports[0]!.jobId = '00000000-0000-4000-8000-000000000000';
    let before = await balance();
    const forgedJob = await check(PULL_REQUEST, { base: configText(0), changed: true, mappingStore: JSON.stringify(unknownJob) });
    expect(forgedJob.result.reused).toEqual([]);
    expect(before - (await balance())).toBe(MAP_PRICE);

    // A richer text's mapping filed under this text's key: its credited quotes are not in these documents.
    const richer = files.map((entry) => ({ ...entry, content: `${entry.content}\nSecurity awareness training is given to every workforce member each year, with phishing exercises.\n` }));
    const rich = await runMapCheck(apiClient(box, LIVE_KEY), { policy: eventPolicy(PULL_REQUEST), head: { ...file(configText(0)), path: 'compliance.yml' }, base: baseCommit(configText(0)), request: {}, files: richer, review: { readDeclarations, today: '2026-01-05' } });
    const swapped = structuredClone(store);
    swapped.mappings[0]!.reports = (JSON.parse(rich.mappingStore as string) as Store).mappings[0]!.reports;
    before = await balance();
    const forgedText = await check(PULL_REQUEST, { base: configText(0), changed: true, mappingStore: JSON.stringify(swapped) });
    expect(forgedText.result.reused).toEqual([]);
    expect(before - (await balance())).toBe(MAP_PRICE);
    expect(forgedText.verdict.figures.coverage).toBe(first.verdict.figures.coverage);
  });

  it("a baseline the service confirms counts; one whose gaps or coverage were edited does not, and failOn new-gaps then counts every gap as new", { timeout: 60_000 }, async () => {
    const baseRun = await runMapCheck(apiClient(box, LIVE_KEY), { policy: eventPolicy({ kind: 'push' }), head: { ...file(configText(0)), path: 'compliance.yml' }, base: undefined, request: {}, files, review: { readDeclarations, today: '2026-01-05' } });
    const report = baseRun.result.report;
    const gapKeys = new Set(report.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.key)));
    expect(gapKeys.size).toBeGreaterThan(0);
    const strict = configText(0, 'failOn: new-gaps\n');
    const honest = await check(PULL_REQUEST, { head: strict, base: strict, changed: true, baseline: { gapKeys, report } });
    expect(honest.baselineRejected).toBeUndefined();
    expect(honest.verdict).toMatchObject({ status: 'passed', figures: { newGaps: 0 } });
    // Nothing in scope changed: the confirmed baseline's figures are the answer, and nothing is spent.
    const unchanged = await check(PULL_REQUEST, { head: strict, base: strict, changes: { paths: [], unclassified: [] }, baseline: { gapKeys, report } });
    expect(unchanged.verdict).toMatchObject({ status: 'unchanged', passed: report.passed, figures: { source: 'baseline', coverage: honest.verdict.figures.coverage, tokensSpent: 0 } });

    // A cache entry the change wrote: every control it would fail on listed as an old gap, the coverage raised.
    const forged = structuredClone(report);
    forged.frameworks[0]!.coverage = 100;
    const lying = await check(PULL_REQUEST, { head: strict, base: strict, changed: true, baseline: { gapKeys: new Set([...gapKeys, 'hipaa-security/x']), report: forged } });
    expect(lying.baselineRejected).toMatch(/not confirmed by the service .*says 100% where the service's reports say/);
    expect(lying.baseline).toEqual({ gapKeys: new Set(), report: undefined });
    expect(lying.verdict).toMatchObject({ status: 'failed', passed: false, figures: { newGaps: gapKeys.size } });
  });
});

describe('changedPathsCheck', () => {
  const head = { config: parseConfig(configText(0)), path: 'compliance.yml' };
  const base = (paths: string[], unclassified: string[] = []) => baseCommit(configText(0).replace('policies/*.md', 'docs/*.md'), { paths, unclassified });

  it('answers unchanged, spending nothing and showing no unconfirmed figures, when no document in scope nor compliance.yml changed', () => {
    const { verdict } = changedPathsCheck(eventPolicy(PULL_REQUEST), base(['README.md', 'src/app.ts']), head);
    expect(verdict).toMatchObject({ status: 'unchanged', passed: true, figures: { source: 'none', tokensSpent: 0 } });
  });

  it('runs the check when a document of either compliance.yml (a move out of scope lists its old path), compliance.yml itself, or an unclassifiable entry changed', () => {
    for (const [paths, unclassified] of [[['policies/a.md'], []], [['docs/moved-out.md', 'archive/moved-out.md'], []], [['compliance.yml'], []], [[], ['status "U"']]] as const) {
      const { verdict, scope } = changedPathsCheck(eventPolicy(PULL_REQUEST), base([...paths], [...unclassified]), head);
      expect(verdict, String(paths[0] ?? unclassified[0])).toBeUndefined();
      expect(scope?.inScope).toBe(true);
    }
  });

  it('without a change list (git could not tell), without a base, or off a gated event, the check runs', () => {
    expect(changedPathsCheck(eventPolicy(PULL_REQUEST), undefined, head)).toEqual({ verdict: undefined, scope: undefined });
    expect(changedPathsCheck(eventPolicy(PULL_REQUEST), baseCommit(configText(0)), head).verdict).toBeUndefined();
    expect(changedPathsCheck(eventPolicy({ kind: 'push' }), base(['README.md']), head).verdict).toBeUndefined();
  });
});

describe('baselineThatCounts', () => {
  const given = { gapKeys: new Set(['hipaa-security/A']), report: undefined };
  it('off a gated run takes the given baseline as it is, and none when none is given', async () => {
    const client = apiClient(box, LIVE_KEY);
    expect(await baselineThatCounts(client, given, undefined, undefined)).toEqual({ value: given });
    expect(await baselineThatCounts(client, undefined, undefined, undefined)).toEqual({});
  });

  it('on a gated run without a given baseline, counts every gap as new', async () => {
    expect(await baselineThatCounts(apiClient(box, LIVE_KEY), undefined, baseCommit(configText(0)), undefined)).toEqual({ value: { gapKeys: new Set(), report: undefined } });
  });
});
