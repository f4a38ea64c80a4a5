/**
 * Release rehearsal for the GitHub Actions: a copy of the repository made of its tracked files
 * only (`git ls-files`, read from the working tree: in CI's clean clone that is the commit), and
 * every action's committed bundle run from there the way the runner runs it (`node
 * actions/<name>/dist/index.js` with INPUT_* and the runner's files) against the real sandbox, plus
 * the local fake of GitHub's REST API for the actions that write to GitHub. Then `call` and
 * `suggest` through GitHub's own local runner, `@github/local-action`, and `call` behind an HTTP
 * proxy. What a tagged release ships is exactly what runs here; a bundle that needs an untracked
 * file, or no longer runs, fails this test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { actionNames } from '../../scripts/build-actions.mjs';
import { FakeGitHub } from '../actions/fakeGitHub.js';
import { linkLocalActionModules, runLocalAction } from '../actions/localAction.js';
import { startForwardProxy } from '../forwardProxy.js';
import { API_KEY, GENERATE_ACCESS_CONTROL, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, makeWorkspace, onPullRequest, REPO_ROOT, REPOSITORY, runAction, type RunOptions } from '../actions/harness.js';


let copy: string;
let sandbox: RunningSandbox;
let github: FakeGitHub;

beforeAll(async () => {
  copy = mkdtempSync(join(tmpdir(), 'release-rehearsal-'));
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: REPO_ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = join(REPO_ROOT, file);
    if (!existsSync(from)) continue; // deleted in the working tree: not shipped either
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(from, join(copy, file));
  }
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY] });
  github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
}, 120_000);

afterAll(async () => {
  await sandbox?.close();
  await github?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

const service = () => ({ 'api-key': API_KEY, 'base-url': sandbox.baseUrl });
const fromCopy = (name: string, options: RunOptions) => runAction(name, { ...options, root: copy });

describe('the committed bundles, from a copy of the tracked files, as the runner runs them', () => {
  it('the copy holds every action with its bundle and the root action', () => {
    expect(actionNames(copy)).toEqual(actionNames(REPO_ROOT));
    for (const name of actionNames(copy)) expect(existsSync(join(copy, 'actions', name, 'dist', 'index.js')), name).toBe(true);
    expect(existsSync(join(copy, 'action.yml'))).toBe(true);
  });

  it('call and suggest', { timeout: 60_000 }, async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'rehearsal-'));
    const billing = await fromCopy('call', { workspace, inputs: { ...service(), operation: 'getBilling' } });
    expect(billing.code, billing.stdout + billing.stderr).toBe(0);
    expect(JSON.parse(billing.outputs.result as string)).toHaveProperty('balanceTokens');
    const suggest = await fromCopy('suggest', { workspace, inputs: { ...service(), query: 'health data privacy for a US telehealth app', limit: '2' } });
    expect(suggest.code, suggest.stdout + suggest.stderr).toBe(0);
    expect(JSON.parse(suggest.outputs.candidates as string)).toHaveLength(2);
    expect(suggest.outputs.count).toBe('2');
    expect(leakedSecrets(billing, [API_KEY])).toEqual([]);
  });

  it('sync, map with a sticky comment, gap-issues, generate, review', { timeout: 180_000 }, async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80, GENERATE_ACCESS_CONTROL));
    const sync = await fromCopy('sync', { workspace, inputs: service() });
    expect(sync.code, sync.stdout + sync.stderr).toBe(0);
    expect(Number(sync.outputs.ingested)).toBeGreaterThan(0);
    expect(sync.outputs.failed).toBe('0');

    const pr = github.addPullRequest('Policies');
    const map = await fromCopy('map', { workspace, inputs: { ...service(), 'github-token': GITHUB_TOKEN, comment: 'always' }, event: onPullRequest(workspace, pr), apiUrl: github.url });
    expect(map.code, map.stdout + map.stderr).toBe(0);
    expect(Number(map.outputs.coverage)).toBeGreaterThan(0);
    expect(map.outputs['comment-url']).toContain(`/issues/${pr}#issuecomment-`);
    expect(existsSync(join(workspace, 'compliance-report', 'report.json'))).toBe(true);

    const issues = await fromCopy('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN, 'max-new': '2' }, apiUrl: github.url });
    expect(issues.code, issues.stdout + issues.stderr).toBe(0);
    expect(issues.outputs.created).toBe('2');
    expect(github.issueList()).toHaveLength(2);
    expect(github.commentsOn(pr)).toHaveLength(1);

    const generate = await fromCopy('generate', { workspace, inputs: service() });
    expect(generate.code, generate.stdout + generate.stderr).toBe(0);
    expect(JSON.parse(generate.outputs.paths as string)).toContain('generated/access-control.md');

    const review = await fromCopy('review', { workspace, inputs: { ...service(), 'github-token': GITHUB_TOKEN, 'fail-below': 'false' }, event: { name: 'schedule', payload: {} }, apiUrl: github.url });
    expect(review.code, review.stdout + review.stderr).toBe(0);
    expect(review.outputs.status).toBe('passed');
    expect(JSON.parse(review.outputs.synced as string)).toMatchObject({ ingested: 0, failed: 0 });
    for (const run of [sync, map, issues, generate, review]) expect(leakedSecrets(run, [API_KEY, GITHUB_TOKEN], github.writes().map((write) => write.body))).toEqual([]);
  });

  it('call goes through HTTP_PROXY when it is set (Node’s own proxy support)', { timeout: 60_000 }, async () => {
    const proxy = await startForwardProxy();
    try {
      const workspace = mkdtempSync(join(tmpdir(), 'rehearsal-'));
      const env = { HTTP_PROXY: proxy.url };
      const proxied = await fromCopy('call', { workspace, inputs: { ...service(), operation: 'getBilling' }, env });
      expect(proxied.code, proxied.stdout + proxied.stderr).toBe(0);
      expect(proxy.seen.some((line) => line.startsWith(`GET ${sandbox.baseUrl}/billing`)), proxy.seen.join('\n')).toBe(true);
      const bypassed = await fromCopy('call', { workspace, inputs: { ...service(), operation: 'getBilling' }, env: { ...env, NO_PROXY: '127.0.0.1' } });
      expect(bypassed.code).toBe(0);
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

/** Runs `local-action run actions/<name> src/main.ts <dotenv>` in the copy, with a throw-away workspace. */
const localAction = (name: string, inputs: Record<string, string>) => runLocalAction(copy, name, inputs, (dir) => ({ GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: REPOSITORY }));

describe('GitHub’s local runner (@github/local-action) runs the entries’ run()', () => {
  beforeAll(() => {
    // The entries are TypeScript with their dependencies: the copy borrows the contributor install's,
    // and local-action's own TypeScript runner (it calls `npm exec tsx`) from the real suites' tools.
    linkLocalActionModules(copy);
  });

  it('call', { timeout: 120_000 }, async () => {
    const run = await localAction('call', { ...service(), operation: 'getBilling' });
    expect(run.code, run.log).toBe(0);
    expect(JSON.parse(run.outputs.result as string), run.log).toHaveProperty('balanceTokens');
  });

  it('suggest', { timeout: 120_000 }, async () => {
    const run = await localAction('suggest', { ...service(), query: 'health data privacy for a US telehealth app', limit: '3' });
    expect(run.code, run.log).toBe(0);
    expect(JSON.parse(run.outputs.candidates as string)).toHaveLength(3);
    expect(run.outputs.count).toBe('3');
  });
});
