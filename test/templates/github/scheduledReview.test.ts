/** templates/github/compliance-scheduled-review.yml, executed job by job against the sandbox and a fake GitHub. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { API_KEY, GITHUB_TOKEN, HIPAA_CONFIG, makeWorkspace, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { GitHubGateway } from '../githubGateway.js';
import { branches, CacheStore, leaks, makeOrigin, pushBranch, runWorkflow, showFile, type WorkflowRun } from '../workflowRunner.js';

const FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-scheduled-review.yml');
const GENERATE = `generate:
  - type: access_control_policy
    framework: hipaa-security
    organisation: { name: Acme Health, country: US }
    output: generated/access-control
    formats: [md, pdf]
`;
const REVIEW_KEY = 'csk_sandbox_templates_review_0001';
const CALENDAR_KEY = 'csk_sandbox_templates_review_0002';
const SCHEDULE = { name: 'schedule', payload: { schedule: '17 6 1 * *' } };
const DISPATCH = { name: 'workflow_dispatch', payload: { inputs: {} } };

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [REVIEW_KEY, CALENDAR_KEY, API_KEY] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 3 }).start();
  github = await new GitHubGateway(fake).start();
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

/** The workflow's next scheduled run (the 1st at 06:17 UTC of a month it reviews in), as YYYY-MM-DD. */
function nextRun(months: readonly number[]): string {
  const now = new Date();
  for (let k = 0; k <= 12; k++) {
    const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + k, 1, 6, 17));
    if (day.getTime() > now.getTime() && months.includes(day.getUTCMonth() + 1)) return day.toISOString().slice(0, 10);
  }
  throw new Error('no run within a year');
}
const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const thisMonth = new Date().getUTCMonth() + 1;

async function setCalendar(key: string, body: unknown): Promise<void> {
  const response = await fetch(`${sandbox.baseUrl}/calendar`, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

const gapIssues = (state: 'open' | 'closed') => fake.issueList().filter((issue) => issue.state === state && issue.labels.includes('compliance-gap'));
const warnings = (run: WorkflowRun, title: string) => run.annotations.filter((annotation) => annotation.kind === 'warning' && annotation.properties.includes(`title=${title}`));

describe('compliance-scheduled-review.yml', () => {
  it('reviews, opens gap issues, regenerates drifted documents into one pull request, gates; then closes resolved gaps', { timeout: 240_000 }, async () => {
    const config = (threshold: number) => HIPAA_CONFIG(threshold, `${GENERATE}review:\n  cadence: monthly\n`);
    const origin = makeOrigin(makeWorkspace(config(95), { without: ['asset-management-standard.md'] }));
    await setCalendar(REVIEW_KEY, { cadence: 'monthly', firstReviewAt: `${nextRun(ALL_MONTHS)}T06:17:00Z` });
    const caches = new CacheStore();
    const common = { file: FILE, origin, github, caches, secrets: { COMPLIANCE_API_KEY: REVIEW_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } };

    // 1. The scheduled run, on a repository where Actions may not open pull requests.
    github.allowActionsToCreatePullRequests = false;
    const first = await runWorkflow({ ...common, event: SCHEDULE });
    github.allowActionsToCreatePullRequests = true;
    expect(first.conclusion, first.log).toBe('failure');
    expect(first.step('review', 'due').outputs).toMatchObject({ due: 'true', cadence: 'monthly', 'next-run': nextRun(ALL_MONTHS) });
    expect(first.step('review', 'calendar').outputs.result).toContain('"cadence":"monthly"');
    expect(first.summary).toContain('The service\'s reminders and this schedule agree.');
    const review = first.step('review', 'review');
    expect(review.inputs).toMatchObject({ regenerate: 'true', 'dry-run': 'false', 'fail-below': 'false', 'gap-issues': 'true', since: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    expect(review.outputs).toMatchObject({ status: 'failed', passed: 'false', gaps: '5', created: '5' });
    expect(JSON.parse(review.outputs['generated-paths'] as string)).toEqual(['generated/access-control.md', 'generated/access-control.pdf', '.compliance/generated.json']);
    expect(first.step('review', 'changes').outputs.changed).toBe('true');
    const gate = first.jobs.review?.steps.at(-1);
    expect(gate?.outcome).toBe('failure');
    expect(gate?.annotations[0]?.message).toMatch(/^Coverage \d+(\.\d+)?% with 5 open gaps is below the threshold/);
    expect(first.jobs.review?.outputs).toEqual({ regenerated: 'true', passed: 'false' });
    // The pull request job still ran: the branch is pushed, and the refusal to open a pull request is explained.
    expect(first.jobs['pull-request']?.result).toBe('success');
    expect(branches(origin)).toEqual(['compliance/regenerate', 'main']);
    expect(showFile(origin, 'compliance/regenerate', 'generated/access-control.md')).toContain('Acme Health');
    expect(showFile(origin, 'compliance/regenerate', 'generated/access-control.pdf')?.startsWith('%PDF-')).toBe(true);
    expect(showFile(origin, 'main', 'generated/access-control.md')).toBeUndefined();
    expect(warnings(first, 'Regeneration pull request not opened')[0]?.message).toContain('Allow GitHub Actions to create and approve pull requests');
    expect(first.summary).toContain('https://github.example/acme/policies/compare/main...compliance/regenerate');
    expect(github.pulls.size).toBe(0);
    expect(gapIssues('open')).toHaveLength(5);
    // The review job never held a token that could write contents; the pull request job never held the API key.
    expect(github.requests.filter((request) => request.job === 'review' && request.path.includes('/pulls'))).toEqual([]);
    expect(Object.values(first.jobs['pull-request']?.steps ?? []).some((step) => JSON.stringify(step.inputs).includes(REVIEW_KEY))).toBe(false);

    // 2. By hand: the documents are still drifted on main, so the pull request is opened now.
    const second = await runWorkflow({ ...common, event: DISPATCH });
    expect(second.step('review', 'review').outputs).toMatchObject({ created: '0', gaps: '5' });
    expect(github.pulls.size).toBe(1);
    const pull = [...github.pulls.values()][0];
    expect(pull).toMatchObject({ head: 'compliance/regenerate', base: 'main', title: 'Regenerate drifted compliance documents', state: 'open' });
    expect(pull?.body).toContain('<!-- compliance-regenerate -->');
    expect(pull?.body).toContain('- `generated/access-control.md`');
    // Each completed review adds its report.json to the history the next one restores (report.html's
    // trend): the second run restores the first's history and saves it with its own report added.
    const histories = caches.entries.filter((entry) => entry.key.startsWith('compliance-history-'));
    expect(histories.map((entry) => entry.key)).toEqual(['compliance-history-4242', 'compliance-history-4243']);
    expect(readdirSync(histories[0]!.dir)).toEqual(['run-4242.json']);
    expect(readdirSync(histories[1]!.dir).sort()).toEqual(['run-4242.json', 'run-4243.json']);
    expect(JSON.parse(readFileSync(join(histories[0]!.dir, 'run-4242.json'), 'utf8'))).toMatchObject({ schema: 'compliance-review-report', passed: false });
    expect(second.step('review', 'review').inputs).toMatchObject({ 'report-formats': 'html', history: '.compliance-history' });

    // 3. Again: the same pull request is updated, not duplicated; the gap issues are not duplicated either.
    const third = await runWorkflow({ ...common, event: DISPATCH });
    expect(third.jobs['pull-request']?.steps.at(-1)?.log).toContain(`Updated pull request #${pull?.number}.`);
    expect(github.pulls.size).toBe(1);
    expect(gapIssues('open')).toHaveLength(5);

    // 4. The pull request is merged, the missing standard added, the bar set to 90: nothing drifts,
    //    the resolved gap's issue is closed, the gate passes, no pull request job runs.
    const regenerated = mkdtempSync(join(tmpdir(), 'regenerate-'));
    const clone = spawnSync('git', ['clone', '--quiet', '--branch', 'compliance/regenerate', origin, regenerated], { encoding: 'utf8' });
    expect(clone.status, clone.stderr).toBe(0);
    pushBranch(origin, 'main', (dir) => {
      for (const path of ['generated', '.compliance']) cpSync(join(regenerated, path), join(dir, path), { recursive: true });
      cpSync(join(REPO_ROOT, 'test', 'fixtures', 'policies', 'asset-management-standard.md'), join(dir, 'policies', 'asset-management-standard.md'));
      writeFileSync(join(dir, 'compliance.yml'), config(90));
    });
    const fourth = await runWorkflow({ ...common, event: DISPATCH });
    expect(fourth.conclusion, fourth.log).toBe('success');
    expect(fourth.step('review', 'review').outputs).toMatchObject({ passed: 'true', gaps: '4', closed: '1', drifted: '[]', 'generated-paths': '[]' });
    expect(fourth.step('review', 'changes').outcome).toBe('skipped');
    expect(fourth.jobs['pull-request']?.result).toBe('skipped');
    expect(gapIssues('open')).toHaveLength(4);
    expect(gapIssues('closed')).toHaveLength(1);

    for (const run of [first, second, third, fourth]) expect(leaks(run, [REVIEW_KEY], github)).toEqual([]);
  });

  it('follows compliance.yml: quarterly runs only in its months, none never; warns when the service calendar disagrees', { timeout: 120_000 }, async () => {
    const quarterly = makeOrigin(makeWorkspace(HIPAA_CONFIG(80, 'gapIssues:\n  labels: [quarterly-gap]\nreview: { cadence: "quarterly" }  # as in the docs\n')));
    const common = { file: FILE, github, caches: new CacheStore(), secrets: { COMPLIANCE_API_KEY: CALENDAR_KEY }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl } };
    const otherMonths = ALL_MONTHS.filter((month) => month !== thisMonth).slice(0, 4);

    // Not one of the quarter months: the cron fires, nothing else runs.
    const idle = await runWorkflow({ ...common, origin: quarterly, event: SCHEDULE, env: { QUARTER_MONTHS: otherMonths.join(' ') } });
    expect(idle.conclusion, idle.log).toBe('success');
    expect(idle.step('review', 'due').outputs).toMatchObject({ due: 'false', cadence: 'quarterly', 'next-run': nextRun(otherMonths) });
    expect(idle.jobs.review?.steps.filter((step) => step.outcome !== 'skipped').map((step) => step.id ?? step.name)).toEqual(['Check out', 'due']);
    expect(idle.summary).toContain(`the next review runs on ${nextRun(otherMonths)}`);

    // A quarter month, with the service still on monthly reminders: the review runs and the mismatch is a warning.
    await setCalendar(CALENDAR_KEY, { cadence: 'monthly' });
    const months = [thisMonth, ...otherMonths.slice(0, 3)];
    const due = await runWorkflow({ ...common, origin: quarterly, event: SCHEDULE, env: { QUARTER_MONTHS: months.join(' ') } });
    expect(due.conclusion, due.log).toBe('success');
    expect(due.step('review', 'review').outputs).toMatchObject({ passed: 'true', created: '4' });
    expect(warnings(due, 'Review calendar and schedule disagree')[0]?.message).toContain("The service's review calendar is monthly but compliance.yml review.cadence is quarterly.");
    expect(due.summary).toContain('| Cadence | quarterly | monthly |');

    // Same cadence, a different date: still a warning, naming both dates and the fix.
    await setCalendar(CALENDAR_KEY, { cadence: 'quarterly' });
    const dated = await runWorkflow({ ...common, origin: quarterly, event: DISPATCH, inputs: { regenerate: false }, env: { QUARTER_MONTHS: months.join(' ') } });
    const calendar = JSON.parse(dated.step('review', 'calendar').outputs.result as string) as { nextReviewAt: string };
    const days = Math.abs(Date.parse(calendar.nextReviewAt.slice(0, 10)) - Date.parse(nextRun(months))) / 86_400_000;
    const message = warnings(dated, 'Review calendar and schedule disagree')[0]?.message;
    if (days > 7) {
      expect(message).toContain(`The service's next review date is ${calendar.nextReviewAt.slice(0, 10)} but this workflow next reviews on ${nextRun(months)}`);
      expect(message).toContain(`compliance call setCalendar --input '{"cadence": "quarterly", "firstReviewAt": "${nextRun(months)}T06:17:00Z"}'`);
    } else expect(message).toBeUndefined();
    expect(dated.step('review', 'review').inputs.regenerate).toBe('false');

    // review.cadence none (the default): scheduled runs only say so; by hand it still runs.
    const none = makeOrigin(makeWorkspace(HIPAA_CONFIG(80, 'gapIssues:\n  labels: [none-gap]\n')));
    const skipped = await runWorkflow({ ...common, origin: none, event: SCHEDULE });
    expect(skipped.conclusion).toBe('success');
    expect(skipped.summary).toContain('## Compliance review: not scheduled');
    expect(skipped.annotations.some((annotation) => annotation.kind === 'notice' && annotation.message === 'review.cadence is none in compliance.yml')).toBe(true);
    const byHand = await runWorkflow({ ...common, origin: none, event: DISPATCH, inputs: { 'dry-run': true } });
    expect(byHand.step('review', 'review').outputs.status).toBe('skipped');
    expect(byHand.step('review', 'review').inputs['dry-run']).toBe('true');

    // A typo in the cadence fails loudly on its file.
    const typo = makeOrigin(makeWorkspace(HIPAA_CONFIG(80, 'review:\n  cadence: quaterly\n')));
    const failed = await runWorkflow({ ...common, origin: typo, event: SCHEDULE });
    expect(failed.conclusion).toBe('failure');
    expect(failed.annotations[0]?.message).toBe('review.cadence must be none, monthly or quarterly (got quaterly)');

    for (const run of [idle, due, dated, skipped, byHand, failed]) expect(leaks(run, [CALENDAR_KEY], github)).toEqual([]);
    expect(readFileSync(FILE, 'utf8')).toContain("QUARTER_MONTHS: '1 4 7 10'");
  });
});
