/** templates/github/compliance-pr-check.yml, executed step by step against the sandbox and a fake GitHub. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { API_KEY, GITHUB_TOKEN, HIPAA_CONFIG, makeWorkspace, pullRequestEvent, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { GitHubGateway } from '../githubGateway.js';
import { leaks, makeOrigin, pushBranch, runWorkflow } from '../workflowRunner.js';
import { HIPAA_COVERAGE } from '../../fixtures/golden.js';

const FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-pr-check.yml');
const MARKER = '<!-- compliance-report:map -->';

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 2 }).start();
  github = await new GitHubGateway(fake).start();
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

async function library(): Promise<Array<{ title: string; filename: string; version: number; tags: string[] }>> {
  const response = await fetch(`${sandbox.baseUrl}/library?limit=100`, { headers: { authorization: `Bearer ${API_KEY}` } });
  return ((await response.json()) as { documents: Array<{ title: string; filename: string; version: number; tags: string[] }> }).documents;
}

describe('compliance-pr-check.yml', () => {
  it('syncs, maps, keeps one sticky comment, fails below the threshold; forks are skipped with a summary', { timeout: 120_000 }, async () => {
    const origin = makeOrigin(makeWorkspace(HIPAA_CONFIG(90)));
    pushBranch(origin, 'feature', (dir) => writeFileSync(join(dir, 'policies', 'access-control-policy.md'), `${'Access is reviewed every quarter by the system owner. '.repeat(6)}\n`, { flag: 'a' }));
    const pr = fake.addPullRequest('Tighten access control');
    const common = { file: FILE, origin, ref: 'feature', github, secrets: { COMPLIANCE_API_KEY: API_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } };
    const ours = () => fake.commentsOn(pr).filter((comment) => comment.body.startsWith(MARKER));

    // Over the token cap: refused before anything is sent, with the reason.
    const capped = await runWorkflow({ ...common, vars: { ...common.vars, COMPLIANCE_MAX_TOKENS: '1000000' }, event: pullRequestEvent(pr) });
    expect(capped.conclusion).toBe('failure');
    expect(capped.annotations.find((annotation) => annotation.kind === 'error')?.message).toContain('refused before spending anything: the plan costs 5,200,000 tokens, more than the cap of 1,000,000 tokens');
    expect(capped.step('compliance', 'map').outcome).toBe('skipped');
    expect(await library()).toHaveLength(0);

    const first = await runWorkflow({ ...common, event: pullRequestEvent(pr) });
    expect(first.conclusion, first.log).toBe('success');
    expect(first.step('compliance', 'sync').outputs).toMatchObject({ ingested: '13', failed: '0' });
    expect(first.step('compliance', 'map').outputs).toMatchObject({ coverage: HIPAA_COVERAGE, passed: 'true', gaps: '4' });
    expect(first.step('compliance', 'map').inputs).toMatchObject({ comment: 'always', 'max-tokens': '10000000' });
    expect(first.jobs.compliance?.steps.map((step) => step.outcome)).toEqual(['success', 'success', 'success', 'success']);
    expect(first.summary).toContain(`| HIPAA Security Rule | ${HIPAA_COVERAGE}% |`);
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain(`${HIPAA_COVERAGE}%`);
    // The library holds the pull request's version of the documents.
    const documents = await library();
    expect(documents).toHaveLength(13);
    expect(documents.every((document) => document.tags.includes(`repo:${REPOSITORY}`))).toBe(true);

    // The pull request raises the bar: the check fails, the same comment says so, the report is still kept.
    pushBranch(origin, 'feature', (dir) => writeFileSync(join(dir, 'compliance.yml'), HIPAA_CONFIG(95)));
    const second = await runWorkflow({ ...common, event: pullRequestEvent(pr) });
    expect(second.conclusion).toBe('failure');
    expect(second.step('compliance', 'sync').outputs).toMatchObject({ ingested: '0', refreshed: '0', unchanged: '13' });
    expect(second.step('compliance', 'map').outcome).toBe('failure');
    expect(second.annotations.some((annotation) => annotation.kind === 'error' && annotation.message.includes(`coverage ${HIPAA_COVERAGE}% is below the threshold of 95%`))).toBe(true);
    expect(second.jobs.compliance?.steps.at(-1)?.outcome).toBe('success');
    expect(ours()).toHaveLength(1);
    expect(ours()[0]?.body).toContain('❌ failed');

    // A pull request from a fork: no secrets. Nothing is sent anywhere; the summary says why.
    const writes = fake.writes().length;
    const forkPr = fake.addPullRequest('From a fork');
    const fork = await runWorkflow({ ...common, fork: true, event: pullRequestEvent(forkPr, { fork: true }) });
    expect(fork.conclusion, fork.log).toBe('success');
    expect(fork.step('compliance', 'sync').outputs.skipped).toBe('true');
    expect(fork.step('compliance', 'map').outputs.skipped).toBe('true');
    expect(fork.summary).toContain('GitHub does not pass secrets to pull requests from forks');
    expect(fork.jobs.compliance?.permissions).toEqual({ contents: 'read', 'pull-requests': 'read' });
    expect(fake.writes()).toHaveLength(writes);
    expect(fake.commentsOn(forkPr)).toEqual([]);
    expect(await library()).toHaveLength(13);

    for (const run of [first, second, fork]) expect(leaks(run, [API_KEY], github)).toEqual([]);
  });
});
