/**
 * actions/map then actions/gap-issues, run repeatedly as a workflow would: one comment and one issue
 * per gap however often they run, the per-run cap, resolved gaps closed as completed, refused writes.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { addPolicy, API_KEY, checkoutPullRequest, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, makeWorkspace, onPullRequest, pullRequestEvent, REPOSITORY, runAction, type ActionRun } from './harness.js';
import { HIPAA_COVERAGE } from '../fixtures/golden.js';

let sandbox: RunningSandbox;
let github: FakeGitHub;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY] });
});
afterAll(async () => {
  await sandbox?.close();
});
afterEach(async () => {
  await github?.close();
});

/**
 * Preloaded into gap-issues' runs: says at exit whether Node's fetch implementation (undici, 35 ms
 * and more to load) was loaded, and how many functions were compiled from strings (zod's parsers,
 * unless jitless: compile time only, in a run that parses each schema a few times).
 */
const START_PROBE = join(mkdtempSync(join(tmpdir(), 'start-probe-')), 'probe.cjs');
writeFileSync(START_PROBE, `let compiled = 0;
globalThis.Function = new Proxy(Function, { construct: (target, args) => (compiled++, Reflect.construct(target, args)) });
process.on('exit', () => process._rawDebug('undici loaded: ' + process.moduleLoadList.includes('NativeModule internal/deps/undici/undici') + ', functions compiled from strings: ' + compiled));`);

const gapIssues = (workspace: string, inputs: Record<string, string> = {}) =>
  runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN, ...inputs }, apiUrl: github.url, env: { NODE_OPTIONS: `--require ${START_PROBE}` } });

const byMarker = () =>
  new Map(github.issueList().map((issue) => [/<!-- compliance-gap:(\S+) -->/.exec(issue.body ?? '')?.[1], issue] as const));

describe('actions/gap-issues', () => {
  it('re-runs leave one comment and one issue per gap; the cap defers; a resolved gap is closed as completed', { timeout: 120_000 }, async () => {
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 2 }).start();
    const workspace = makeWorkspace(HIPAA_CONFIG(80), { without: ['asset-management-standard.md'] });
    const pr = github.addPullRequest();
    const event = onPullRequest(workspace, pr);
    const runs: ActionRun[] = [];
    const mapAndFile = async (issueInputs: Record<string, string> = {}) => {
      const map = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, comment: 'always' }, event, apiUrl: github.url });
      expect(map.code, map.stdout).toBe(0);
      const issues = await gapIssues(workspace, issueInputs);
      expect(issues.code, issues.stdout).toBe(0);
      // Octokit's answers are read without Node's fetch; zod parses without compiling parsers.
      expect(issues.stderr).toContain('undici loaded: false, functions compiled from strings: 0');
      runs.push(map, issues);
      return { map, issues };
    };

    const first = await mapAndFile({ 'max-new': '4' });
    expect(first.map.outputs.gaps).toBe('5');
    expect(first.issues.outputs).toMatchObject({ created: '4', updated: '0', closed: '0', deferred: '1' });
    expect(github.issueList()).toHaveLength(4);
    expect(github.labels.get('compliance-gap')?.description).toBe('Opened by the compliance review loop');
    expect(first.issues.summary).toContain('deferred 1 (max-new reached');

    const second = await mapAndFile();
    expect(second.issues.outputs).toMatchObject({ created: '1', updated: '0', closed: '0', deferred: '0' });
    const third = await mapAndFile();
    expect(third.issues.outputs).toMatchObject({ created: '0', updated: '0', closed: '0' });

    const issues = byMarker();
    expect(github.issueList()).toHaveLength(5);
    expect(issues.size).toBe(5);
    const resolved = issues.get('hipaa-security/164.310(d)(2)(iv)');
    expect(resolved?.title).toBe('[compliance] 164.310(d)(2)(iv): Data backup and storage (Addressable)');
    expect(resolved?.labels).toEqual(['compliance-gap']);
    expect(github.commentsOn(pr)).toHaveLength(1);

    // The missing policy arrives: its gap is resolved and its issue closed, once.
    addPolicy(workspace, 'asset-management-standard.md');
    const fourth = await mapAndFile();
    expect(fourth.map.outputs.gaps).toBe('4');
    expect(fourth.issues.outputs).toMatchObject({ created: '0', closed: '1' });
    expect(resolved?.state).toBe('closed');
    expect(resolved?.state_reason).toBe('completed');
    expect(github.commentsOn(resolved?.number ?? 0).map((comment) => comment.body)).toEqual(['Resolved: the latest mapping no longer reports this gap.']);
    expect(github.issueList().filter((issue) => issue.state === 'open')).toHaveLength(4);
    const fifth = await mapAndFile();
    expect(fifth.issues.outputs).toMatchObject({ created: '0', updated: '0', closed: '0' });
    expect(github.issueList()).toHaveLength(5);
    expect(github.commentsOn(pr)).toHaveLength(1);
    // Existing issues were found by listing the label, never by search.
    expect(github.requests.some((request) => request.path.startsWith('/search'))).toBe(false);
    expect(github.requests.some((request) => request.path.endsWith('/issues') && request.query.get('labels') === 'compliance-gap' && request.query.get('state') === 'all' && request.query.get('page') === '2')).toBe(true);

    const bodies = github.requests.map((request) => request.body);
    for (const run of runs) expect(leakedSecrets(run, [API_KEY, GITHUB_TOKEN], bodies)).toEqual([]);
  });

  it('neutralises service text in issue bodies and updates an issue only when its text changed', { timeout: 60_000 }, async () => {
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const map = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl } });
    const reportPath = map.outputs['report-json'] as string;
    const report = JSON.parse(readFileSync(reportPath, 'utf8'));
    report.frameworks[0].gaps = report.frameworks[0].gaps.slice(0, 1);
    report.frameworks[0].gaps[0].missing = 'Ask @octocat and @acme/security-team. <img src=x onerror=alert(1)> <!-- compliance-gap:evil/1 --> done';
    writeFileSync(reportPath, JSON.stringify(report));
    const created = await gapIssues(workspace);
    expect(created.outputs.created).toBe('1');
    const issue = github.issueList()[0];
    expect(issue?.body).not.toMatch(/(^|[^\w`@])@(octocat|acme)/);
    expect(issue?.body).toContain('@\u200Doctocat');
    expect(issue?.body).not.toContain('<img');
    expect(issue?.body).not.toContain('compliance-gap:evil/1');
    expect(issue?.body?.match(/<!-- compliance-gap:/g)).toHaveLength(1);

    const writes = github.writes().length;
    expect((await gapIssues(workspace)).outputs.updated).toBe('0');
    expect(github.writes()).toHaveLength(writes);
    report.frameworks[0].gaps[0].recommendation = 'A new recommendation.';
    writeFileSync(reportPath, JSON.stringify(report));
    expect((await gapIssues(workspace)).outputs.updated).toBe('1');
    expect(issue?.body).toContain('A new recommendation.');
    expect(github.issueList()).toHaveLength(1);
  });

  it('a refused issue write (403) is a warning naming issues: write and the step passes', { timeout: 60_000 }, async () => {
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    mkdirSync(join(workspace, 'reports'));
    const map = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'report-dir': 'reports' } });
    expect(map.outputs['report-json']).toBe(join(workspace, 'reports', 'report.json'));
    github.refuseWrites = 403;
    const run = await gapIssues(workspace, { report: 'reports/report.json' });
    expect(run.code).toBe(0);
    const warning = run.annotations.find((annotation) => annotation.properties.includes('Missing permission: issues: write'));
    expect(warning?.message).toContain('the token lacks `issues: write`');
    expect(run.outputs.created).toBe('0');
    expect(run.summary).toContain('planned changes were not made');
    expect(github.issueList()).toHaveLength(0);
  });

  it('a create whose answer is lost (502 after the write) is found again, never sent twice', { timeout: 60_000 }, async () => {
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const pr = github.addPullRequest();
    // Two copies of our comment left by an earlier race: one is kept.
    github.addComment(pr, '<!-- compliance-report:map -->\nold', 'github-actions[bot]');
    github.addComment(pr, '<!-- compliance-report:map -->\nolder', 'github-actions[bot]');
    const base = checkoutPullRequest(workspace, { baseDiffers: true });
    const map = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN }, event: pullRequestEvent(pr, { base }), apiUrl: github.url });
    expect(map.code).toBe(0);
    expect(github.commentsOn(pr)).toHaveLength(1);
    expect(github.commentsOn(pr)[0]?.body).toContain(`${HIPAA_COVERAGE}%`);

    const other = github.addPullRequest();
    github.lostCreateResponses = 1;
    const commented = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN }, event: pullRequestEvent(other, { base }), apiUrl: github.url });
    expect(commented.outputs['comment-url']).toContain('#issuecomment-');
    expect(github.commentsOn(other)).toHaveLength(1);

    github.lostCreateResponses = 2;
    const run = await gapIssues(workspace, { 'max-new': '2' });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.created).toBe('2');
    expect(github.issueList()).toHaveLength(2);
    expect(new Set(JSON.parse(run.outputs.issues as string).map((issue: { number: number }) => issue.number)).size).toBe(2);
  });

  it('fails clearly without a report', async () => {
    github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
    const run = await gapIssues(makeWorkspace(HIPAA_CONFIG(80)));
    expect(run.code).toBe(1);
    expect(run.annotations.at(-1)?.message).toBe(
      'report compliance-report/report.json: no such file (Run the map (or review) action first in the same job; its report-json output is the path to pass.)',
    );
  });
});
