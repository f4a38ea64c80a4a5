/**
 * What each event may change, and the verdict, as the bundled actions run them (runner-style,
 * against the sandbox and the fake GitHub): a pull request writes no library and no gap issues,
 * comments only on itself, is judged by the default branch's gate; refusals and no-ops are loud.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { addPolicy, API_KEY, checkoutPullRequest, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, makeWorkspace, pullRequestEvent, REPOSITORY, runAction } from './harness.js';
import { HIPAA_COVERAGE } from '../fixtures/golden.js';

let sandbox: RunningSandbox;
let github: FakeGitHub;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY] });
  github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 3 }).start();
});
afterAll(async () => {
  await sandbox?.close();
  await github?.close();
});

const inputs = (extra: Record<string, string> = {}) => ({ 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, ...extra });
const push = { name: 'push', payload: { ref: 'refs/heads/main' } };
const ours = (pr: number) => github.commentsOn(pr).filter((comment) => comment.body.startsWith('<!-- compliance-report:map -->'));

describe('a pull request never writes gap issues', () => {
  it('gap-issues on a pull request leaves every issue alone; the same report on a push writes them', { timeout: 120_000 }, async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80), { without: ['asset-management-standard.md'] });
    const map = await runAction('map', { workspace, inputs: inputs({ comment: 'never' }), event: push, apiUrl: github.url });
    expect(map.code, map.stdout).toBe(0);
    const onPush = await runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN }, event: push, apiUrl: github.url });
    expect(onPush.outputs).toMatchObject({ created: '5', closed: '0' });
    const issuesBefore = JSON.stringify(github.issueList());

    // The pull request adds the missing policy: its report resolves a gap. Nothing may close.
    const baseCommit = checkoutPullRequest(workspace);
    addPolicy(workspace, 'asset-management-standard.md');
    const pr = github.addPullRequest();
    const prMap = await runAction('map', { workspace, inputs: inputs({ comment: 'never' }), event: pullRequestEvent(pr, { base: baseCommit }), apiUrl: github.url });
    expect(prMap.outputs.gaps).toBe('4');
    const writesBefore = github.writes().length;
    const onPr = await runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN }, event: pullRequestEvent(pr, { base: baseCommit }), apiUrl: github.url });
    expect(onPr.code, onPr.stdout).toBe(0);
    expect(onPr.outputs).toEqual({ created: '0', updated: '0', closed: '0', deferred: '0', issues: '[]' });
    expect(github.writes()).toHaveLength(writesBefore);
    expect(JSON.stringify(github.issueList())).toBe(issuesBefore);
    expect(onPr.summary).toContain('Gap issues left alone: a pull request carries unmerged text');
    expect(onPr.annotations).toContainEqual(expect.objectContaining({ kind: 'notice', message: expect.stringContaining('kept by the default branch') }));
    // A fork's pull request is no different.
    const fork = await runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN }, event: pullRequestEvent(pr, { fork: true, base: baseCommit }), apiUrl: github.url });
    expect(fork.outputs.closed).toBe('0');
    expect(github.writes()).toHaveLength(writesBefore);

    // Merged and run on the default branch, the resolved gap's issue closes.
    const merged = await runAction('gap-issues', { workspace, inputs: { 'github-token': GITHUB_TOKEN }, event: push, apiUrl: github.url });
    expect(merged.outputs).toMatchObject({ created: '0', closed: '1' });
  });

  it('review with sync: false on a pull request maps and gates but opens no issue; with sync: true it is refused with a summary', { timeout: 60_000 }, async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const event = pullRequestEvent(github.addPullRequest(), { base: checkoutPullRequest(workspace) });
    const writesBefore = github.writes().length;
    const run = await runAction('review', { workspace, inputs: inputs({ sync: 'false' }), event, apiUrl: github.url });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ status: 'passed', passed: 'true', coverage: HIPAA_COVERAGE, gaps: '4', created: '0', closed: '0' });
    expect(github.writes()).toHaveLength(writesBefore);
    expect(run.annotations).toContainEqual(expect.objectContaining({ kind: 'notice', message: expect.stringContaining('Gap issues left alone') }));

    const syncing = await runAction('review', { workspace, inputs: inputs(), event, apiUrl: github.url });
    expect(syncing.code).toBe(1);
    expect(syncing.summary).toContain('## Compliance review: refused, nothing written');
    expect(syncing.summary).toContain('review with sync: true writes the library, which mirrors the default branch');
    expect(github.writes()).toHaveLength(writesBefore);
  });
});

describe('a pull request is judged by the default branch gate', () => {
  it("lowering the threshold and waiving its new gaps in the pull request's compliance.yml cannot make the check pass; the comment says what changed", { timeout: 60_000 }, async () => {
    const baseText = HIPAA_CONFIG(95);
    const main = makeWorkspace(baseText);
    const base = await runAction('map', { workspace: main, inputs: inputs({ 'fail-below': 'false', 'report-dir': '.compliance-baseline' }), event: push });
    expect(base.outputs.passed).toBe('false');
    writeFileSync(join(main, '.compliance-baseline', 'compliance.yml'), baseText);

    const waivers = `waivers:
  - { framework: hipaa-security, control: "164.310(d)(2)(iv)", reason: later, owner: dev, expires: "2030-01-01" }
`;
    // The pull request removes a policy, lowers the threshold and waives the gap that opens.
    const workspace = makeWorkspace(HIPAA_CONFIG(10, waivers));
    const baseCommit = checkoutPullRequest(workspace, { baseConfig: baseText });
    rmSync(join(workspace, 'policies', 'asset-management-standard.md'));
    writeFileSync(join(workspace, 'base-report.json'), readFileSync(join(main, '.compliance-baseline', 'report.json')));
    const pr = github.addPullRequest();
    const run = await runAction('map', {
      workspace,
      inputs: inputs({ 'fail-on': 'new-gaps', baseline: 'base-report.json' }),
      event: pullRequestEvent(pr, { base: baseCommit }),
      apiUrl: github.url,
    });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ status: 'failed', passed: 'false', 'new-gaps': '1' });
    expect(JSON.parse(run.outputs.frameworks as string)).toEqual([expect.objectContaining({ key: 'hipaa-security', threshold: 95, waivedGaps: 0, newGaps: 1, passed: false })]);
    const comment = ours(pr)[0]?.body ?? '';
    expect(comment).toContain("**This pull request changes the gate in compliance.yml.** It is judged by the default branch's gate");
    expect(comment).toContain('hipaa-security: threshold 95% → 10%');
    expect(comment).toContain('waiver added: hipaa-security 164.310(d)(2)(iv) (owner dev, until 2030-01-01)');
    expect(comment).toContain('1 gap introduced (164.310(d)(2)(iv))');

    // A base-config the workflow passes (the pull request's own text, here its lax copy) is ignored, and a notice says so.
    writeFileSync(join(workspace, 'lax.yml'), HIPAA_CONFIG(10, waivers));
    const own = await runAction('map', { workspace, inputs: inputs({ comment: 'never', 'base-config': 'lax.yml' }), event: pullRequestEvent(pr, { base: baseCommit }), apiUrl: github.url });
    expect(own.outputs).toMatchObject({ status: 'failed' });
    expect(own.annotations).toContainEqual(expect.objectContaining({ kind: 'notice', message: expect.stringContaining("base-config is ignored: the action reads the base commit's compliance.yml") }));
  });

  it("failOn: new-gaps on the default branch holds: the pull request's compliance.yml and its workflow inputs relax fail-on, threshold and waivers, and the check still fails (map and review)", { timeout: 90_000 }, async () => {
    const baseText = HIPAA_CONFIG(80, 'failOn: new-gaps\n');
    const main = makeWorkspace(baseText);
    const base = await runAction('map', { workspace: main, inputs: inputs({ 'report-dir': '.compliance-baseline' }), event: push });
    expect(base.outputs).toMatchObject({ status: 'passed', 'new-gaps': '0' });
    writeFileSync(join(main, '.compliance-baseline', 'compliance.yml'), baseText);

    // The pull request removes a policy (one new gap), drops failOn, lowers the threshold and waives the gap, in both places it can.
    const waiver = '{ framework: hipaa-security, control: "164.310(d)(2)(iv)", reason: later, owner: dev, expires: "2030-01-01" }';
    const workspace = makeWorkspace(HIPAA_CONFIG(10, `waivers:\n  - ${waiver}\n`));
    const event = pullRequestEvent(github.addPullRequest(), { base: checkoutPullRequest(workspace, { baseConfig: baseText }) });
    const pr = event.payload.number;
    rmSync(join(workspace, 'policies', 'asset-management-standard.md'));
    writeFileSync(join(workspace, 'base-report.json'), readFileSync(join(main, '.compliance-baseline', 'report.json')));
    const relaxing = { 'fail-on': 'coverage', threshold: '5', waivers: `- ${waiver}`, baseline: 'base-report.json' };
    const writesBefore = github.writes().length;
    const run = await runAction('map', { workspace, inputs: inputs(relaxing), event, apiUrl: github.url });
    expect(run.code, run.stdout).toBe(1);
    expect(run.outputs).toMatchObject({ status: 'failed', passed: 'false', 'new-gaps': '1' });
    expect(JSON.parse(run.outputs.frameworks as string)).toEqual([expect.objectContaining({ key: 'hipaa-security', threshold: 80, waivedGaps: 0, newGaps: 1, passed: false })]);
    const warned = run.annotations.filter((entry) => entry.kind === 'warning' && entry.properties.includes('Input not applied')).map((entry) => entry.message);
    expect(warned).toEqual([
      "fail-on coverage not applied: the default branch's compliance.yml sets failOn: new-gaps, and a flag or input can only make the gate stricter",
      "threshold 5% not applied to hipaa-security: the default branch's compliance.yml sets 80%, and on a pull request an input can only raise it",
      "waivers not applied (hipaa-security 164.310(d)(2)(iv) (owner dev, until 2030-01-01)): a pull request is judged by the waivers of the default branch's compliance.yml",
    ]);
    const comment = ours(pr)[0]?.body ?? '';
    expect(comment).toContain('failOn new-gaps → coverage; hipaa-security: threshold 80% → 10%; waiver added: hipaa-security 164.310(d)(2)(iv)');
    expect(comment).toContain('**Inputs that would loosen the gate were not applied**');
    expect(comment).toContain('1 gap introduced (164.310(d)(2)(iv))');
    expect(github.writes().length).toBe(writesBefore + 1);

    // review with sync: false (what a pull request may run) is judged the same way and writes nothing.
    const review = await runAction('review', { workspace, inputs: inputs({ ...relaxing, sync: 'false', 'gap-issues': 'false' }), event, apiUrl: github.url });
    expect(review.code, review.stdout).toBe(1);
    expect(review.outputs).toMatchObject({ status: 'failed', passed: 'false', 'new-gaps': '1' });
    expect(review.summary).toContain('**This pull request changes the gate in compliance.yml.**');
    expect(review.summary).toContain('fail-on coverage not applied');
    expect(github.writes().length).toBe(writesBefore + 1);

    // On the default branch's own push a looser fail-on input does not apply either: compliance.yml's failOn stands.
    const onPush = await runAction('map', { workspace: main, inputs: inputs({ 'fail-on': 'coverage', comment: 'never' }), event: push });
    expect(onPush.code, onPush.stdout).toBe(0);
    expect(onPush.annotations).toContainEqual(expect.objectContaining({ kind: 'warning', message: 'fail-on coverage not applied: compliance.yml sets failOn: new-gaps, and a flag or input can only make the gate stricter' }));
  });

  it('comments only on its own pull request, whatever pull-request names', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(99));
    const own = github.addPullRequest();
    const other = github.addPullRequest();
    const event = pullRequestEvent(own, { base: checkoutPullRequest(workspace, { baseConfig: HIPAA_CONFIG(98) }) });
    const run = await runAction('map', { workspace, inputs: inputs({ 'pull-request': String(other), 'fail-below': 'false' }), event, apiUrl: github.url });
    // Below the threshold: on a pull request fail-below: false is not applied, the step fails.
    expect(run.code, run.stdout).toBe(1);
    expect(ours(own)).toHaveLength(1);
    expect(github.commentsOn(other)).toHaveLength(0);
    expect(run.annotations).toContainEqual(expect.objectContaining({ kind: 'warning', message: `a pull request run comments only on its own pull request #${own} (pull-request ${other} ignored)` }));
  });
});

describe('refusals and no-ops are loud and true', () => {
  it('a refusal writes the summary, sets status refused, comments the plan and the cap, and fails unless asked not to', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const pr = github.addPullRequest();
    const event = pullRequestEvent(pr, { base: checkoutPullRequest(workspace, { baseConfig: HIPAA_CONFIG(79) }) });
    const run = await runAction('map', { workspace, inputs: inputs({ 'max-tokens': '1000' }), event, apiUrl: github.url });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ status: 'refused', passed: 'false', 'tokens-spent': '0', coverage: '', gaps: '', 'new-gaps': '' });
    expect(run.summary).toContain('## Compliance map: refused, nothing spent');
    expect(run.summary).toMatch(/The plan costs \*\*[\d,]+ tokens\*\* at live prices, against a cap of 1,000 tokens \(max-tokens\)/);
    expect(run.summary).toContain('To run it: raise max-tokens to at least');
    const comment = ours(pr)[0]?.body ?? '';
    expect(comment).toContain('refused, nothing spent');
    expect(comment).toContain('a cap of 1,000 tokens');
    expect(run.annotations.at(-1)).toMatchObject({ kind: 'error', message: expect.stringMatching(/^refused before spending anything: 1 × mapDocument at [\d,]+ tokens costs [\d,]+ tokens, but the cap of 1,000 tokens allows 1,000 tokens more: enough for 0 of the 1 call$/) });

    // A refused check evaluated nothing: on a pull request fail-on-refusal: false cannot turn it green.
    const reported = await runAction('map', { workspace, inputs: inputs({ 'max-tokens': '1000', 'fail-on-refusal': 'false' }), event, apiUrl: github.url });
    expect(reported.code).toBe(1);
    expect(reported.outputs.status).toBe('refused');
    expect(reported.annotations).toContainEqual(expect.objectContaining({ kind: 'warning', message: 'fail-on-refusal: false not applied: on a pull request a refused check evaluated nothing, so the step fails' }));
    expect(ours(pr)).toHaveLength(1);
    // On the default branch it reports and passes, as asked.
    const onPush = await runAction('map', { workspace, inputs: inputs({ 'max-tokens': '1000', 'fail-on-refusal': 'false' }) });
    expect(onPush.code).toBe(0);
    expect(onPush.summary).toContain('fail-on-refusal is false, so the step passes');
  });

  it('unchanged: git shows no document in scope nor compliance.yml changed, so it passes calling nothing, spending nothing, writing no comment and showing no unconfirmed figures', { timeout: 60_000 }, async () => {
    const text = HIPAA_CONFIG(80);
    const workspace = makeWorkspace(text);
    const base = await runAction('map', { workspace, inputs: inputs({ 'report-dir': '.compliance-baseline' }), event: push });
    expect(base.code).toBe(0);
    const pr = github.addPullRequest();
    const baseCommit = checkoutPullRequest(workspace);
    writeFileSync(join(workspace, 'NOTES.md'), 'Meeting notes, out of scope.\n');
    const writesBefore = github.writes().length;
    const run = await runAction('map', {
      workspace,
      // No key and a service that does not answer: nothing may be called.
      inputs: { 'base-url': 'http://127.0.0.1:9', 'github-token': GITHUB_TOKEN, baseline: '.compliance-baseline/report.json', comment: 'always' },
      event: pullRequestEvent(pr, { base: baseCommit }),
      apiUrl: github.url,
    });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ status: 'unchanged', passed: 'true', coverage: '', gaps: '', frameworks: '[]', 'tokens-spent': '0' });
    expect(run.summary).toContain('**Status: unchanged.** No document in scope nor compliance.yml differs from the default branch: nothing was mapped, nothing spent. No figures are shown (no confirmed report of the default branch at hand).');
    expect(github.writes()).toHaveLength(writesBefore);
  });

  it('invalid configuration writes a summary naming the problem', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80).replace('threshold: 80', 'threshold: 180'));
    const run = await runAction('map', { workspace, inputs: inputs(), event: push });
    expect(run.code).toBe(1);
    expect(run.summary).toContain('## Compliance map: invalid configuration');
    expect(run.summary).toContain('frameworks[0].threshold: must be a number between 0 and 100');
    expect(leakedSecrets(run, [API_KEY, GITHUB_TOKEN])).toEqual([]);
  });
});
