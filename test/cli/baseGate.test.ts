/**
 * A pull request's CI run of the built CLI is judged by the default branch's gate (--base-config):
 * its own compliance.yml dropping `failOn: new-gaps` and its flags (--fail-on coverage,
 * --threshold) cannot make it pass; warnings say what changed and what was not applied. A re-run
 * of the same pull request reuses its mappings from --mapping-store (review/'s runMapCheck, as the
 * map action), checked on the live key's ledger.
 */
import { copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { balance, buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

const config = (extra: string) => ['repository: acme/policies', 'documents:', '  - name: policies', '    paths: ["policies/*.md"]', 'frameworks:', '  - framework: hipaa-security', '    threshold: 10', extra].join('\n');
const PULL_REQUEST = { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' };

describe('compliance map in a pull request is judged by the default branch gate', () => {
  let box: RunningSandbox;
  let root: string;
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    root = tempRepo({ count: 3, config: config('failOn: new-gaps\n') });
  });
  afterAll(async () => {
    await box?.close();
    if (root) removeRepo(root);
  });

  it('relaxing failOn in compliance.yml and by flags still fails on the new gap; without --base-config its own gate passes, with a warning', { timeout: 60_000 }, async () => {
    const main = await cli(['map', '--report-dir', 'base', '--json'], { cwd: root, box, env: { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push' } });
    expect(main.code, main.stderr).toBe(0);
    copyFileSync(join(root, 'compliance.yml'), join(root, 'base', 'compliance.yml'));

    rmSync(join(root, 'policies', 'incident-response.md'));
    writeFileSync(join(root, 'compliance.yml'), config(''));
    const flags = ['map', '--baseline', 'base/report.json', '--fail-on', 'coverage', '--threshold', '5', '--json'];
    const judged = await cli([...flags, '--base-config', 'base/compliance.yml'], { cwd: root, box, env: PULL_REQUEST });
    expect(judged.code, judged.stderr).toBe(1);
    const [framework] = judged.json.frameworks;
    expect(framework).toMatchObject({ threshold: 10, failOn: 'new-gaps', passed: false });
    expect(framework.newGaps.length).toBeGreaterThan(0);
    expect(judged.stderr).toContain('this pull request changes the gate (applies once merged): failOn new-gaps → coverage');
    expect(judged.stderr).toContain("--fail-on coverage not applied: the default branch's compliance.yml sets failOn: new-gaps");
    // Raising is allowed, lowering is not: 5% does not replace the default branch's 10%.
    expect(judged.stderr).toContain("--threshold 5% not applied to hipaa-security: the default branch's compliance.yml sets 10%");

    const own = await cli(flags, { cwd: root, box, env: PULL_REQUEST });
    expect(own.code, own.stderr).toBe(0);
    expect(own.json.frameworks[0]).toMatchObject({ threshold: 5, failOn: 'coverage', passed: true });
    expect(own.stderr).toContain("judged by this checkout's own compliance.yml: give --base-config");
  });
});

describe('compliance map re-run of a pull request', () => {
  let box: RunningSandbox;
  let root: string;
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    root = tempRepo({ count: 2, config: config('') });
  });
  afterAll(async () => {
    await box?.close();
    if (root) removeRepo(root);
  });

  it('keeps its mappings in --mapping-store DIR and reuses them on the next run of the same pull request: 0 tokens', { timeout: 60_000 }, async () => {
    const eventPath = join(root, 'event.json');
    const event = (number: number) => writeFileSync(eventPath, JSON.stringify({ number, pull_request: { number, head: { repo: { full_name: 'acme/policies' } }, base: { repo: { full_name: 'acme/policies' } } } }));
    const env = { ...PULL_REQUEST, GITHUB_EVENT_PATH: eventPath, GITHUB_REPOSITORY: 'acme/policies' };
    const map = () => cli(['map', '--mapping-store', 'cache/maps', '--json'], { cwd: root, box, env });
    event(4);
    const before = await balance(box);
    const first = await map();
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ tokensSpent: 250_000, reused: [] });
    expect(JSON.parse(readFileSync(join(root, 'cache', 'maps', 'mappings.json'), 'utf8'))).toMatchObject({ version: 1, pullRequest: 4 });

    const again = await map();
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ tokensSpent: 0, reused: ['hipaa-security'], verdict: { status: 'passed' } });
    expect(before - (await balance(box))).toBe(250_000);

    // Another pull request never reads this one's mappings: it maps and pays.
    event(5);
    const other = await map();
    expect(other.json).toMatchObject({ tokensSpent: 250_000, reused: [] });
    expect(before - (await balance(box))).toBe(500_000);
  });
});
