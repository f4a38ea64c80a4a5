/** actions/map run as the runner runs it, against the sandbox and the fake GitHub API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { API_KEY, checkoutPullRequest, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, makeWorkspace, onPullRequest, pullRequestEvent, REPOSITORY, runAction } from './harness.js';
import { HIPAA_COVERAGE } from '../fixtures/golden.js';

let sandbox: RunningSandbox;
let github: FakeGitHub;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY] });
  github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 2 }).start();
});
afterAll(async () => {
  await sandbox?.close();
  await github?.close();
});

const inputs = (extra: Record<string, string> = {}) => ({ 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, ...extra });
const bodies = () => github.requests.map((request) => request.body);

describe('actions/map', () => {
  it('maps, writes report files, summary and annotations, and keeps one sticky comment across runs', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(90));
    const pr = github.addPullRequest();
    // Someone else's comment and enough of them that finding ours needs pagination (page size 2).
    github.addComment(pr, 'Looks good to me');
    github.addComment(pr, '> <!-- compliance-report:map -->\nquoting the bot');
    const event = onPullRequest(workspace, pr);
    const first = await runAction('map', { workspace, inputs: inputs(), event, apiUrl: github.url });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(first.outputs).toMatchObject({ coverage: HIPAA_COVERAGE, gaps: '4', passed: 'true', 'tokens-spent': '0' });
    expect(first.outputs['report-json']).toBe(join(workspace, 'compliance-report', 'report.json'));
    const report = JSON.parse(readFileSync(first.outputs['report-json'] as string, 'utf8'));
    expect(report).toMatchObject({ schema: 'compliance-review-report', passed: true });
    expect(report.frameworks[0].gaps).toHaveLength(4);
    expect(readFileSync(join(workspace, 'compliance-report', 'report.md'), 'utf8')).toContain('### Controls');
    expect(first.summary).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% |`);
    expect(first.summary).toContain('164.314(b)(1)');
    expect(first.summary).toContain('## Costs');
    const gapWarnings = first.annotations.filter((annotation) => annotation.kind === 'warning');
    expect(gapWarnings).toHaveLength(4);
    // The full set's gaps are all missing controls: nothing to point at.
    expect(gapWarnings.some((annotation) => annotation.properties.includes('file='))).toBe(false);

    const ours = () => github.commentsOn(pr).filter((comment) => comment.body.startsWith('<!-- compliance-report:map -->'));
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain(`${HIPAA_COVERAGE}%`);
    expect(ours()[0]?.body).toContain('https://github.example/acme/policies/actions/runs/4242');
    expect(first.outputs['comment-url']).toContain(`#issuecomment-${ours()[0]?.id}`);

    // A second run with a changed result (a stricter threshold input: on a pull request an input may only raise the base gate) edits the same comment.
    const second = await runAction('map', { workspace, inputs: inputs({ threshold: '95' }), event, apiUrl: github.url });
    expect(second.code).toBe(1);
    expect(second.outputs.passed).toBe('false');
    expect(second.annotations.find((annotation) => annotation.kind === 'error')?.message).toBe(`compliance gate failed: HIPAA Security Rule: coverage ${HIPAA_COVERAGE}% is below the threshold of 95%`);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain('❌ failed');
    expect(github.commentsOn(pr)).toHaveLength(3);
    // A third identical run leaves the comment alone.
    const writesBefore = github.writes().length;
    await runAction('map', { workspace, inputs: inputs({ threshold: '95' }), event, apiUrl: github.url });
    expect(github.writes()).toHaveLength(writesBefore);

    for (const run of [first, second]) expect(leakedSecrets(run, [API_KEY, GITHUB_TOKEN], bodies())).toEqual([]);
    expect(github.requests.every((request) => request.authorization === `token ${GITHUB_TOKEN}`)).toBe(true);
  });

  it('annotates a partial gap on the file and line of its evidence', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80), { without: ['information-security-policy.md'] });
    const run = await runAction('map', { workspace, inputs: inputs() });
    expect(run.code, run.stdout).toBe(0);
    const evaluation = run.annotations.find((annotation) => annotation.kind === 'warning' && annotation.message.startsWith('164.308(a)(8) '));
    expect(evaluation?.message).toContain('(partial');
    expect(evaluation?.properties).toContain('file=policies/risk-management-policy.md');
    expect(evaluation?.properties).toMatch(/line=\d+/);
  });

  it('with fail-below false reports a failed gate without failing the step on the default branch, but never on a pull request; comment never writes nothing', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(99));
    const pr = github.addPullRequest();
    const onPush = await runAction('map', { workspace, inputs: inputs({ 'fail-below': 'false', comment: 'never' }), apiUrl: github.url });
    expect(onPush.code).toBe(0);
    expect(onPush.outputs.passed).toBe('false');
    expect(onPush.annotations.some((annotation) => annotation.kind === 'warning' && annotation.message.includes('compliance gate failed (fail-below is false'))).toBe(true);
    // On a pull request the workflow file is its own text: fail-below: false cannot turn the check green.
    const onPr = await runAction('map', { workspace, inputs: inputs({ 'fail-below': 'false', comment: 'never' }), event: onPullRequest(workspace, pr), apiUrl: github.url });
    expect(onPr.code).toBe(1);
    expect(onPr.annotations).toContainEqual(expect.objectContaining({ kind: 'warning', message: 'fail-below: false not applied: on a pull request a failed gate fails the step' }));
    expect(github.commentsOn(pr)).toHaveLength(0);
  });

  it('a refused comment write (403, read-only token) is a warning naming the permission; the gate and summary stand', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(90));
    const pr = github.addPullRequest();
    const base = checkoutPullRequest(workspace, { baseDiffers: true });
    github.refuseWrites = 403;
    try {
      const run = await runAction('map', { workspace, inputs: inputs(), event: pullRequestEvent(pr, { base }), apiUrl: github.url });
      expect(run.code).toBe(0);
      expect(run.outputs.passed).toBe('true');
      expect(run.summary).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% |`);
      const warning = run.annotations.find((annotation) => annotation.properties.includes('Missing permission'));
      expect(warning?.message).toContain('pull-requests: write');
      expect(warning?.message).toContain('403 Resource not accessible by integration');
      expect(github.commentsOn(pr)).toHaveLength(0);

      // Failing gate + refused comment: the gate decides the exit code, not the comment.
      const failing = await runAction('map', { workspace, inputs: inputs({ threshold: '99' }), event: pullRequestEvent(pr, { fork: true, base }), apiUrl: github.url });
      expect(failing.code).toBe(1);
      expect(failing.annotations.find((annotation) => annotation.properties.includes('Missing permission'))?.message).toContain('pull request from a fork');
      expect(existsSync(join(workspace, 'compliance-report', 'report.json'))).toBe(true);
    } finally {
      github.refuseWrites = undefined;
    }
  });

  it('waivers: an active one counts as covered, an expired one is an error annotation on compliance.yml', async () => {
    const waivers = `waivers:
  - framework: hipaa-security
    control: "164.314(b)(1)"
    reason: Not a group health plan
    owner: ciso@acme.example
    expires: "2999-12-31"
  - framework: hipaa-security
    control: "164.314(b)(2)"
    reason: Not a group health plan
    owner: ciso@acme.example
    expires: "2020-01-31"
`;
    const workspace = makeWorkspace(HIPAA_CONFIG(94.5, waivers));
    const run = await runAction('map', { workspace, inputs: inputs() });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs.gaps).toBe('3');
    expect(Number(run.outputs.coverage)).toBeGreaterThan(Number(HIPAA_COVERAGE));
    const expired = run.annotations.find((annotation) => annotation.kind === 'error');
    expect(expired?.properties).toContain('file=compliance.yml');
    expect(expired?.properties).toContain('line=16');
    expect(expired?.message).toContain('164.314(b)(2)');
    expect(expired?.message).toContain('expired on 2020-01-31');
    expect(run.summary).toContain('**expired**');
  });

  it('fail-on new-gaps fails on gaps missing from the baseline and shows the coverage change', async () => {
    const baselineWorkspace = makeWorkspace(HIPAA_CONFIG(80));
    const base = await runAction('map', { workspace: baselineWorkspace, inputs: inputs() });
    expect(base.code).toBe(0);
    // The pull request removes a policy the default branch has.
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const baseCommit = checkoutPullRequest(workspace);
    rmSync(join(workspace, 'policies', 'asset-management-standard.md'));
    const pr = github.addPullRequest();
    const run = await runAction('map', {
      workspace,
      inputs: inputs({ 'fail-on': 'new-gaps', baseline: base.outputs['report-json'] as string }),
      event: pullRequestEvent(pr, { base: baseCommit }),
      apiUrl: github.url,
    });
    expect(run.code).toBe(1);
    expect(run.outputs['new-gaps']).toBe('1');
    expect(run.annotations.at(-1)?.message).toContain('1 new gap not in the baseline: 164.310(d)(2)(iv)');
    const comment = github.commentsOn(pr)[0]?.body ?? '';
    expect(comment).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | 92.3% | −1.5 points |`);
  });

  it('comment auto: no new comment when the gate passes with nothing new, but an existing one is kept current', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const base = await runAction('map', { workspace, inputs: inputs({ 'report-dir': 'base' }) });
    const pr = github.addPullRequest();
    const event = onPullRequest(workspace, pr);
    const quiet = await runAction('map', { workspace, inputs: inputs({ baseline: 'base/report.json' }), event, apiUrl: github.url });
    expect(base.code).toBe(0);
    expect(quiet.code).toBe(0);
    expect(quiet.outputs['comment-url']).toBe('');
    expect(github.commentsOn(pr)).toHaveLength(0);
    // With a comment already there (from an earlier failing run), auto keeps it up to date.
    github.addComment(pr, '<!-- compliance-report:map -->\nstale', 'github-actions[bot]');
    await runAction('map', { workspace, inputs: inputs({ baseline: 'base/report.json' }), event, apiUrl: github.url });
    expect(github.commentsOn(pr)).toHaveLength(1);
    expect(github.commentsOn(pr)[0]?.body).toContain('✅ passed');
    expect(github.commentsOn(pr)[0]?.body).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% | ${HIPAA_COVERAGE}% | no change |`);
  });

  it('fails clearly on a missing key, a bad URL, a bad config and a service error, with no stack trace', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(90));
    const noKey = await runAction('map', { workspace, inputs: { 'base-url': sandbox.baseUrl } });
    expect(noKey.code).toBe(1);
    expect(noKey.stdout).toContain('::error::input api-key: is empty, and COMPLIANCE_API_KEY is not set either (Store the key as a repository secret');

    const badUrl = await runAction('map', { workspace, inputs: { 'api-key': API_KEY, 'base-url': 'http://compliance.example.com' } });
    expect(badUrl.code).toBe(1);
    expect(badUrl.stdout).toContain('::error::input base-url: baseUrl must use https');

    const badConfig = makeWorkspace(HIPAA_CONFIG(90).replace('threshold: 90', 'treshold: 90'));
    const invalid = await runAction('map', { workspace: badConfig, inputs: inputs() });
    expect(invalid.code).toBe(1);
    const annotation = invalid.annotations.find((entry) => entry.kind === 'error' && entry.message.includes('unknown key'));
    expect(annotation?.properties).toContain('file=compliance.yml,line=8');
    expect(annotation?.message).toBe('frameworks[0].treshold: unknown key (did you mean "threshold"?)');
    expect(invalid.annotations.at(-1)?.message).toContain('the configuration has 2 problems');

    const wrongKey = await runAction('map', { workspace, inputs: { ...inputs(), 'api-key': 'csk_sandbox_not_a_known_key_9999' } });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.annotations.at(-1)?.message).toMatch(/^ping: The API key is not valid\./);

    for (const run of [noKey, badUrl, invalid, wrongKey]) {
      expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+\(.+:\d+:\d+\)/);
      expect(leakedSecrets(run, [API_KEY, 'csk_sandbox_not_a_known_key_9999'])).toEqual([]);
    }
  });

  it('on a fork pull request without secrets it fails (never green unchecked) saying what a maintainer must do', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(90));
    const run = await runAction('map', { workspace, inputs: { 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN }, event: onPullRequest(workspace, 7, { fork: true }), apiUrl: github.url });
    expect(run.code).toBe(1);
    expect(run.outputs.skipped).toBe('true');
    // Every verdict output action.yml documents, as for any run nothing evaluated.
    expect(run.outputs).toMatchObject({ status: 'skipped', passed: 'false', coverage: '', gaps: '', 'new-gaps': '', frameworks: '[]', 'tokens-spent': '0' });
    expect(run.summary).toContain('GitHub does not pass secrets to pull requests from forks');
    expect(run.annotations.at(-1)?.message).toContain('not evaluated, so not passed');
    expect(run.annotations.at(-1)?.message).toContain('A maintainer must read the change and push it to a branch of this repository');
  });
});
