/**
 * `compliance gaps --github` through the built CLI: review reports from a live-mode sandbox, the
 * plan applied to the fake GitHub REST API (test/actions/fakeGitHub.ts) over loopback via
 * GITHUB_API_URL, as the Actions runtime sets it.
 */
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub, type FakeIssue } from '../actions/fakeGitHub.js';
import { startForwardProxy } from '../forwardProxy.js';
import { GITHUB_TOKEN, HIPAA_CONFIG, makeWorkspace, REPO_ROOT } from '../actions/harness.js';
import { LIVE_KEY, buildCli, cli, liveSandbox, removeRepo, type Run } from './helpers.js';

/** Not the repository compliance.yml names: only --repo sends the requests here. */
const ISSUES_REPO = 'acme/compliance-issues';
const BAD_TOKEN = 'ghs_notTheRightTokenAtAll0002';
const RESOLVED = 'hipaa-security/164.310(d)(2)(iv)';
const CONFIG = HIPAA_CONFIG(80, 'gapIssues:\n  labels: [compliance-gap, hipaa]\n  titlePrefix: "[HIPAA]"\n');

const markerOf = (issue: FakeIssue) => /<!-- compliance-gap:(\S+) -->$/.exec(issue.body ?? '')?.[1];

describe('compliance gaps --github (fake GitHub, live-mode sandbox)', () => {
  let box: RunningSandbox;
  let github: FakeGitHub;
  let workspace: string;
  const runs: Run[] = [];
  const run = async (args: string[], env: Record<string, string> = {}, withBox = false) => {
    const result = await cli(args, { cwd: workspace, ...(withBox ? { box } : {}), env: { GITHUB_API_URL: github.url, ...env } });
    runs.push(result);
    return result;
  };
  const gaps = (args: string[], env: Record<string, string> = { GITHUB_TOKEN }) => run(['gaps', '--report', 'report.json', ...args], env);
  const review = async () => {
    const result = await run(['review', '--json'], {}, true);
    expect(result.code, result.stderr).toBe(0);
    writeFileSync(join(workspace, 'report.json'), result.stdout);
    return result.json as { frameworks: Array<{ gaps: Array<{ key: string }> }> };
  };
  const snapshot = () => github.issueList().map((issue) => ({ ...issue, labels: [...issue.labels] }));

  let reportKeys: string[] = [];
  let unrelated: number;

  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(50_000_000);
    // A page holds 2 issues: the 6 labelled issues below span 3 pages.
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: ISSUES_REPO, pageSize: 2 }).start();
    workspace = makeWorkspace(CONFIG, { without: ['asset-management-standard.md'] });
    // Someone's own issue under the same label, without our marker: never touched.
    const response = await fetch(`${github.url}/repos/${ISSUES_REPO}/issues`, {
      method: 'POST',
      headers: { authorization: `token ${GITHUB_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Discuss the HIPAA roadmap', body: 'Not from the review loop.', labels: ['compliance-gap'] }),
    });
    unrelated = ((await response.json()) as { number: number }).number;
    github.requests.length = 0;
    const report = await review();
    reportKeys = report.frameworks[0]?.gaps.map((gap) => gap.key) ?? [];
  }, 120_000);

  afterAll(async () => {
    await github?.close();
    await box?.close();
    if (workspace) removeRepo(workspace);
  });

  it('the report has five known gaps, among them the one the fix below resolves', () => {
    expect(reportKeys).toHaveLength(5);
    expect(reportKeys).toContain(RESOLVED);
  });

  it('plain `gaps` prints the plan and never calls GitHub', async () => {
    const plain = await gaps(['--json'], {});
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.json).toMatchObject({ repository: null, existingIssues: 0, applied: null });
    expect(plain.json.plan.create.map((draft: { key: string }) => draft.key).sort()).toEqual([...reportKeys].sort());
    const human = await gaps([], {});
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('Planned against no existing issues');
    expect(github.requests).toEqual([]);
  });

  it('--github --dry-run reads the issues and prints the plan, writing nothing', async () => {
    const dry = await gaps(['--github', '--repo', ISSUES_REPO, '--dry-run', '--json']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.json).toMatchObject({ repository: ISSUES_REPO, existingIssues: 1, applied: null });
    expect(dry.json.plan.create).toHaveLength(5);
    const human = await gaps(['--github', '--repo', ISSUES_REPO, '--dry-run']);
    expect(human.stdout).toContain('Dry run: nothing changed on GitHub.');
    expect(github.requests.length).toBeGreaterThan(0);
    expect(github.writes()).toEqual([]);
    expect(github.issueList()).toHaveLength(1);
  });

  it('talks to GitHub through the one Node transport: HTTP_PROXY is honoured, NO_PROXY too', async () => {
    const proxy = await startForwardProxy();
    try {
      const proxied = await gaps(['--github', '--repo', ISSUES_REPO, '--dry-run', '--json'], { GITHUB_TOKEN, HTTP_PROXY: proxy.url });
      expect(proxied.code, proxied.stderr).toBe(0);
      expect(proxied.json).toMatchObject({ repository: ISSUES_REPO, existingIssues: 1 });
      // Octokit's listing of the gap label's issues, as the proxy forwarded it.
      expect(proxy.seen.some((line) => line.startsWith(`GET ${github.url}/repos/${ISSUES_REPO}/issues?`)), proxy.seen.join('\n')).toBe(true);
      const seen = proxy.seen.length;
      const bypassed = await gaps(['--github', '--repo', ISSUES_REPO, '--dry-run', '--json'], { GITHUB_TOKEN, HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
      expect(bypassed.code, bypassed.stderr).toBe(0);
      expect(proxy.seen).toHaveLength(seen);
    } finally {
      await proxy.close();
    }
  });

  it('in a pull request run (GitHub Actions) it plans but never applies: gap issues follow the default branch', async () => {
    const onPr = await gaps(['--github', '--repo', ISSUES_REPO, '--json'], { GITHUB_TOKEN, GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' });
    expect(onPr.code, onPr.stderr).toBe(0);
    expect(onPr.json).toMatchObject({ repository: ISSUES_REPO, existingIssues: 1, applied: null });
    expect(onPr.json.plan.create).toHaveLength(5);
    expect(onPr.stderr).toContain('not applied: a pull request carries unmerged text');
    expect(github.writes()).toEqual([]);
    // A sync from a pull request is refused before anything is called (exit 2, usage or configuration).
    const sync = await run(['review', '--json'], { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' }, true);
    expect(sync.code).toBe(2);
    expect(sync.stderr).toContain('writes the library, which mirrors the default branch');
    const ingest = await run(['library', 'ingest', 'policies/access-control-policy.md', '--category', 'Policies'], { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request' }, true);
    expect(ingest.code).toBe(2);
    expect(ingest.stderr).toContain('library ingest writes the library, which mirrors the default branch: a pull request carries unmerged text');
  });

  it('applies the plan: one issue per gap with the hidden marker, the labels and the title prefix', async () => {
    const applied = await gaps(['--github', '--repo', ISSUES_REPO, '--json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.json.applied.created).toHaveLength(5);
    expect(applied.json.applied).toMatchObject({ updated: [], closed: [] });
    const ours = github.issueList().filter((issue) => issue.number !== unrelated);
    expect(ours).toHaveLength(5);
    expect(ours.map(markerOf).sort()).toEqual([...reportKeys].sort());
    for (const issue of ours) {
      expect(issue.state).toBe('open');
      expect(issue.labels).toEqual(['compliance-gap', 'hipaa']);
      expect(issue.title).toMatch(/^\[HIPAA\] 164\.3/);
      expect(issue.body).toContain('### What is missing');
    }
    // Created from the plan's drafts, byte for byte.
    const drafts = new Map(applied.json.plan.create.map((draft: { key: string; body: string }) => [draft.key, draft.body]));
    for (const issue of ours) expect(issue.body).toBe(drafts.get(markerOf(issue) as string));
    expect(github.issues.get(unrelated)).toMatchObject({ title: 'Discuss the HIPAA roadmap', state: 'open', body: 'Not from the review loop.' });
  });

  it('a second run reads every page and creates, updates and closes nothing', async () => {
    const before = snapshot();
    const writes = github.writes().length;
    const requestsBefore = github.requests.length;
    const again = await gaps(['--github', '--repo', ISSUES_REPO, '--json']);
    expect(again.code, again.stderr).toBe(0);
    // 6 labelled issues at 2 per page: all three pages were read.
    expect(again.json.existingIssues).toBe(6);
    const pages = github.requests.slice(requestsBefore).map((request) => `${request.method} ${request.path} ${request.query.get('labels')} ${request.query.get('state')} ${request.query.get('page') ?? '1'}`);
    expect(pages).toEqual([1, 2, 3].map((page) => `GET /repos/${ISSUES_REPO}/issues compliance-gap all ${page}`));
    expect(again.json.plan.unchanged).toHaveLength(5);
    expect(again.json.plan).toMatchObject({ create: [], update: [], close: [], deferred: [] });
    expect(again.json.applied).toEqual({ created: [], updated: [], closed: [], failed: [] });
    expect(github.writes()).toHaveLength(writes);
    expect(snapshot()).toEqual(before);
  });

  it('a policy edit that covers one control closes exactly that issue as completed', async () => {
    const standard = readFileSync(join(REPO_ROOT, 'test/fixtures/policies/asset-management-standard.md'), 'utf8');
    const section = standard.slice(standard.indexOf('## Equipment relocation'), standard.indexOf('## Secure configuration and patching'));
    expect(section).toContain('retrievable exact copy');
    appendFileSync(join(workspace, 'policies/physical-security-policy.md'), `\n${section}`);
    const report = await review();
    const keys = report.frameworks[0]?.gaps.map((gap) => gap.key) ?? [];
    expect(keys.sort()).toEqual(reportKeys.filter((key) => key !== RESOLVED).sort());

    const before = snapshot();
    const writesBefore = github.writes().length;
    const fixed = await gaps(['--github', '--repo', ISSUES_REPO, '--json']);
    expect(fixed.code, fixed.stderr).toBe(0);
    const closed = github.issueList().find((issue) => markerOf(issue) === RESOLVED);
    expect(fixed.json.applied).toEqual({ created: [], updated: [], closed: [{ number: closed?.number, key: RESOLVED }], failed: [] });
    expect(closed).toMatchObject({ state: 'closed', state_reason: 'completed' });
    expect(github.commentsOn(closed?.number ?? 0).map((comment) => comment.body)).toEqual(['Resolved: the latest mapping no longer reports this gap.']);
    // Only that issue was written to: its comment and its close.
    const writes = github.writes().slice(writesBefore).map((request) => `${request.method} ${request.path}`);
    expect(writes).toEqual([`POST /repos/${ISSUES_REPO}/issues/${closed?.number}/comments`, `PATCH /repos/${ISSUES_REPO}/issues/${closed?.number}`]);
    expect(github.writes().at(-1)?.body).toEqual({ state: 'closed', state_reason: 'completed' });
    for (const issue of snapshot()) {
      if (issue.number !== closed?.number) expect(issue).toEqual(before.find((entry) => entry.number === issue.number));
    }

    const settled = await gaps(['--github', '--repo', ISSUES_REPO, '--json']);
    expect(settled.json.applied).toEqual({ created: [], updated: [], closed: [], failed: [] });
    expect(github.writes()).toHaveLength(writesBefore + 2);
  });

  it('a token without issues: write gets a clear error naming the permission, exit 3, nothing written', async () => {
    const readOnly = await new FakeGitHub({ token: GITHUB_TOKEN, repository: ISSUES_REPO }).start();
    try {
      readOnly.refuseWrites = 403;
      const refused = await run(['gaps', '--report', 'report.json', '--github', '--repo', ISSUES_REPO], { GITHUB_TOKEN, GITHUB_API_URL: readOnly.url });
      expect(refused.code).toBe(3);
      expect(refused.stderr).toContain('403 Resource not accessible by integration');
      expect(refused.stderr).toContain('issues: write');
      const json = await run(['gaps', '--report', 'report.json', '--github', '--repo', ISSUES_REPO, '--json'], { GITHUB_TOKEN, GITHUB_API_URL: readOnly.url });
      expect(json.code).toBe(3);
      expect(json.json.error).toMatchObject({ code: 'github_403', exitCode: 3 });
      expect(json.json.error.hint).toContain('issues: write');
      expect(readOnly.issueList()).toEqual([]);
      expect(readOnly.writes().length).toBeGreaterThan(0);
    } finally {
      await readOnly.close();
    }
  });

  it('a bad token is exit 3; without a token --github is a usage error (exit 2)', async () => {
    const bad = await gaps(['--github', '--repo', ISSUES_REPO], { GITHUB_TOKEN: BAD_TOKEN });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('401 Bad credentials');
    expect(bad.stderr).not.toContain(BAD_TOKEN);
    const none = await gaps(['--github', '--repo', ISSUES_REPO], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--github needs a token');
  });

  it('the token (env or --github-token) and the API key are never printed nor sent to GitHub', async () => {
    const flagged = await gaps(['--github', '--repo', ISSUES_REPO, '--dry-run', '--github-token', GITHUB_TOKEN], {});
    expect(flagged.code, flagged.stderr).toBe(0);
    expect(flagged.stderr).toContain('shell history');
    expect(runs.length).toBeGreaterThan(12);
    for (const result of runs) {
      const printed = `${result.stdout}${result.stderr}`;
      expect(printed).not.toContain(GITHUB_TOKEN);
      expect(printed).not.toContain(LIVE_KEY);
    }
    expect(JSON.stringify(github.requests.map((request) => request.body))).not.toContain(GITHUB_TOKEN);
    expect(JSON.stringify(github.requests.map((request) => request.body))).not.toContain(LIVE_KEY);
    // The token travelled only in the Authorization header (the bad one from the 401 test aside).
    expect(new Set(github.requests.map((request) => request.authorization))).toEqual(new Set([`token ${GITHUB_TOKEN}`, `token ${BAD_TOKEN}`]));
  });
});
