/**
 * review/'s map check (runMapCheck), the one pull-request pipeline of actions/map and `compliance
 * map`, against the sandbox with a live key: what each event maps, reuses, skips and pays (the
 * key's ledger), and which compliance.yml judges it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedPathsCheck, eventPolicy, parseConfig, ReviewError, runMapCheck, runReview, type ReviewEvent, type ReviewReport } from '../../review/index.js';
import { HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, LIVE_KEY, policyText, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const MAP_PRICE = 250_000;
const configText = HIPAA_CONFIG;
const file = (config: string) => ({ config: parseConfig(config), text: config });
const files = [
  { path: 'policies/access.md', content: policyText('access control') },
  { path: 'policies/backup.md', content: policyText('backup') },
];
const PULL_REQUEST: ReviewEvent = { kind: 'pull_request', pullRequest: 12 };

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
  // The default branch's library, as its push run leaves it.
  await runReview(apiClient(box, LIVE_KEY), { config: parseConfig(configText(0)), files, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false });
});
afterAll(async () => {
  await box?.close();
});

const balance = async () => (await apiClient(box, LIVE_KEY).getBilling()).balanceTokens;

function check(event: ReviewEvent, options: { head?: string; base?: string; mappingStore?: string; changed?: boolean; frameworkFlag?: string } = {}) {
  const head = options.head ?? configText(0);
  return runMapCheck(apiClient(box, LIVE_KEY), {
    policy: eventPolicy(event),
    head: file(head),
    base: options.base === undefined ? undefined : file(options.base),
    request: options.frameworkFlag ? { labels: { framework: options.frameworkFlag } } : {},
    files: options.changed ? files.map((entry, index) => (index === 0 ? { ...entry, content: `${entry.content}\nAccess rights are reviewed every quarter.\n` } : entry)) : files,
    mappingStore: options.mappingStore,
    review: { today: '2026-01-05' },
  });
}

describe('runMapCheck', () => {
  it('on a pull request: maps its own text once, prices the merge, and a re-run with the store it returned pays nothing', { timeout: 60_000 }, async () => {
    const before = await balance();
    const first = await check(PULL_REQUEST, { base: configText(0), changed: true });
    expect(before - (await balance())).toBe(MAP_PRICE);
    expect(first.result.mergePrice?.counts).toEqual({ new: 0, changed: 1, removed: 0 });
    expect(first.verdict.status).toBe('passed');
    expect(JSON.parse(first.mappingStore as string)).toMatchObject({ version: 1, pullRequest: 12 });

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
    const run = await check(PULL_REQUEST, { base: configText(0) });
    expect(run.result.status).toBe('unchanged');
    expect(run.verdict.status).toBe('unchanged');
    expect(run.mappingStore).toBeUndefined();
    expect(await balance()).toBe(before);
    // The same files with a changed compliance.yml are mapped: the gate may judge them differently.
    const changedConfig = await check(PULL_REQUEST, { head: configText(20), base: configText(0) });
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
});

describe('changedPathsCheck', () => {
  const configs = { head: parseConfig(configText(0)), base: parseConfig(configText(0).replace('policies/*.md', 'docs/*.md')), path: 'compliance.yml' };
  const baseline = { passed: true, frameworks: [] } as unknown as ReviewReport;
  let reads = 0;
  const readBaseline = async () => {
    reads++;
    return baseline;
  };

  it('answers unchanged, with the baseline read, when no document in scope nor compliance.yml changed', async () => {
    reads = 0;
    const { verdict } = await changedPathsCheck(eventPolicy(PULL_REQUEST), ['README.md', 'src/app.ts'], configs, readBaseline);
    expect(verdict).toMatchObject({ status: 'unchanged', passed: true, figures: { source: 'baseline', tokensSpent: 0 } });
    expect(reads).toBe(1);
  });

  it("runs the check when a document of either compliance.yml or compliance.yml itself changed, or off a pull request, without reading the baseline", async () => {
    reads = 0;
    for (const paths of [['policies/a.md'], ['docs/moved-out.md'], ['compliance.yml']]) {
      const { verdict, scope } = await changedPathsCheck(eventPolicy(PULL_REQUEST), paths, configs, readBaseline);
      expect(verdict, paths[0]).toBeUndefined();
      expect(scope?.inScope, paths[0]).toBe(true);
    }
    expect((await changedPathsCheck(eventPolicy({ kind: 'push' }), ['README.md'], configs, readBaseline)).verdict).toBeUndefined();
    expect(reads).toBe(0);
  });
});
