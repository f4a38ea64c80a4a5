/**
 * A pull or merge request's CI run of the built CLI is judged by the gate of its base commit's
 * compliance.yml, read from git: its own compliance.yml dropping `failOn: new-gaps` and its flags
 * (--fail-on coverage, --threshold) cannot make it pass, and a --base-config it passes is ignored;
 * warnings say what changed and what was not applied. A re-run of the same pull request reuses its
 * mappings from --mapping-store (review/'s runMapCheck, as the map action) once the service
 * confirms them, checked on the live key's ledger; a store committed in the checkout is ignored.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { git } from '../actions/harness.js';
import { balance, buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

const config = (extra: string) => ['repository: acme/policies', 'documents:', '  - name: policies', '    paths: ["policies/*.md"]', 'frameworks:', '  - framework: hipaa-security', '    threshold: 10', extra].join('\n');

/** The repository as a clone: main holds everything as it is now; HEAD is a branch on top. Returns the base commit. */
function cloneWithBase(root: string): string {
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'main');
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'change');
  return base;
}

/** GitHub Actions' pull_request run of pull request `number` based on `base`. */
function gitHubPullRequest(root: string, number: number, base: string): Record<string, string> {
  const eventPath = join(root, '..', `event-${number}-${base.slice(0, 7)}.json`);
  writeFileSync(eventPath, JSON.stringify({ number, pull_request: { number, head: { repo: { full_name: 'acme/policies' } }, base: { sha: base, repo: { full_name: 'acme/policies' } } }, repository: { full_name: 'acme/policies', default_branch: 'main' } }));
  return { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: eventPath, GITHUB_REPOSITORY: 'acme/policies' };
}

describe('compliance map in a pull or merge request is judged by the base commit gate', () => {
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

  it('relaxing failOn in compliance.yml, by flags or by a --base-config still fails on the new gap, on GitHub and on GitLab', { timeout: 90_000 }, async () => {
    // The default branch's report, as its own run saves it.
    const main = await cli(['map', '--report-dir', 'base', '--json'], { cwd: root, box });
    expect(main.code, main.stderr).toBe(0);
    const base = cloneWithBase(root);

    rmSync(join(root, 'policies', 'incident-response.md'));
    writeFileSync(join(root, 'compliance.yml'), config(''));
    writeFileSync(join(root, 'lax.yml'), config(''));
    const flags = ['map', '--baseline', 'base/report.json', '--fail-on', 'coverage', '--threshold', '5', '--base-config', 'lax.yml', '--json'];
    const gitlab = { GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '3', CI_MERGE_REQUEST_DIFF_BASE_SHA: base, CI_PROJECT_PATH: 'acme/policies' };
    for (const [forge, env, word] of [['GitHub', gitHubPullRequest(root, 3, base), 'pull request'], ['GitLab', gitlab, 'merge request']] as const) {
      const judged = await cli(flags, { cwd: root, box, env });
      expect(judged.code, `${forge}: ${judged.stderr}`).toBe(1);
      const [framework] = judged.json.frameworks;
      expect(framework).toMatchObject({ threshold: 10, failOn: 'new-gaps', passed: false });
      expect(framework.newGaps.length).toBeGreaterThan(0);
      expect(judged.stderr).toContain(`this ${word} changes the gate (applies once merged): failOn new-gaps → coverage`);
      expect(judged.stderr).toContain("--fail-on coverage not applied: the default branch's compliance.yml sets failOn: new-gaps");
      // Raising is allowed, lowering is not: 5% does not replace the base's 10%.
      expect(judged.stderr).toContain("--threshold 5% not applied to hipaa-security: the default branch's compliance.yml sets 10%");
      expect(judged.stderr).toContain(`--base-config is ignored: a ${word} is judged by the gate of its base commit's compliance.yml, read from git`);
    }
  });

  it('a clone without the base commit is not evaluated (exit 1), naming the fix; without a baseline failOn new-gaps counts every gap as new', { timeout: 60_000 }, async () => {
    const gitlab = (sha: string) => ({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '4', CI_MERGE_REQUEST_DIFF_BASE_SHA: sha, CI_PROJECT_PATH: 'acme/policies' });
    const missing = await cli(['map', '--json'], { cwd: root, box, env: gitlab('f'.repeat(40)) });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('not evaluated, so not passed: the base commit ffffffffffff is not in this clone');
    expect(missing.stderr).toContain('GIT_DEPTH: "0"');
    const base = git(root, 'rev-parse', 'main');
    const withoutBaseline = await cli(['map', '--json'], { cwd: root, box, env: gitlab(base) });
    expect(withoutBaseline.code, withoutBaseline.stderr).toBe(1);
    expect(withoutBaseline.json.frameworks[0].newGaps.length).toBe(withoutBaseline.json.frameworks[0].gaps.length);
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

  it('keeps its mappings in --mapping-store DIR and reuses them, once the service confirms them, on the next run of the same pull request: 0 tokens', { timeout: 60_000 }, async () => {
    const base = cloneWithBase(root);
    writeFileSync(join(root, 'policies', 'access-control.md'), '\nAccess is reviewed every quarter.\n', { flag: 'a' });
    const map = (number: number) => cli(['map', '--mapping-store', 'cache/maps', '--json'], { cwd: root, box, env: gitHubPullRequest(root, number, base) });
    const before = await balance(box);
    const first = await map(4);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json).toMatchObject({ tokensSpent: 250_000, reused: [] });
    expect(JSON.parse(readFileSync(join(root, 'cache', 'maps', 'mappings.json'), 'utf8'))).toMatchObject({ version: 2, pullRequest: 4 });

    const again = await map(4);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json).toMatchObject({ tokensSpent: 0, reused: ['hipaa-security'], verdict: { status: 'passed' } });
    expect(before - (await balance(box))).toBe(250_000);

    // Another pull request never reads this one's mappings: it maps and pays.
    const other = await map(5);
    expect(other.json).toMatchObject({ tokensSpent: 250_000, reused: [] });
    expect(before - (await balance(box))).toBe(500_000);

    // A store the change commits is never read: the change could have written it.
    mkdirSync(join(root, 'committed'), { recursive: true });
    writeFileSync(join(root, 'committed', 'mappings.json'), readFileSync(join(root, 'cache', 'maps', 'mappings.json')));
    git(root, 'add', 'committed/mappings.json');
    git(root, 'commit', '-q', '-m', 'a store of its own');
    const committed = await cli(['map', '--mapping-store', 'committed', '--json'], { cwd: root, box, env: gitHubPullRequest(root, 5, base) });
    expect(committed.json).toMatchObject({ tokensSpent: 250_000, reused: [] });
    expect(committed.stderr).toContain('committed/mappings.json is committed in the checkout, so the change could have written it: ignored');
  });
});
