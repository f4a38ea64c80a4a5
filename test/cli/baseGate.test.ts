/**
 * A pull request's CI run of the built CLI is judged by the default branch's gate (--base-config):
 * its own compliance.yml dropping `failOn: new-gaps` and its flags (--fail-on coverage,
 * --threshold) cannot make it pass; warnings say what changed and what was not applied.
 */
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

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
