/** templates/github/compliance-balance-watch.yml, executed against the sandbox (simulated live billing) and a fake GitHub. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { API_KEY, GITHUB_TOKEN, makeWorkspace, HIPAA_CONFIG, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { GitHubGateway } from '../githubGateway.js';
import { leaks, makeOrigin, runWorkflow, type WorkflowRun } from '../workflowRunner.js';

const FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-balance-watch.yml');
/** API plan: 22,222 tokens a day, so 100,000 tokens are 4.5 days. */
const LOW_KEY = 'csk_live_templates_balance_0001';
const MARKER = '<!-- compliance-balance-watch -->';

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
let origin: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [`${LOW_KEY}:live:100000`, API_KEY] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
  github = await new GitHubGateway(fake).start();
  origin = makeOrigin(makeWorkspace(HIPAA_CONFIG(80)));
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

async function billing(key: string): Promise<{ balanceTokens: number; ledger: unknown[] }> {
  const response = await fetch(`${sandbox.baseUrl}/billing`, { headers: { authorization: `Bearer ${key}` } });
  return (await response.json()) as { balanceTokens: number; ledger: unknown[] };
}

const balanceIssues = () => fake.issueList().filter((issue) => issue.body?.startsWith(MARKER));
const run = (key: string, extra: Partial<Parameters<typeof runWorkflow>[0]> = {}) =>
  runWorkflow({ file: FILE, origin, github, event: { name: 'schedule', payload: { schedule: '23 7 * * *' } }, secrets: { COMPLIANCE_API_KEY: key }, vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl }, ...extra });
const warning = (result: WorkflowRun) => result.annotations.find((annotation) => annotation.kind === 'warning' && annotation.properties === 'title=Compliance balance low');

describe('compliance-balance-watch.yml', () => {
  it('warns and keeps one issue with a checkout link while the balance is low, closes it after a top-up', { timeout: 120_000 }, async () => {
    const before = await billing(LOW_KEY);
    const first = await run(LOW_KEY);
    expect(first.conclusion, first.log).toBe('success');
    expect(first.step('watch', 'check').outputs).toMatchObject({ low: 'true', days: '4.5', balance: '100000', pack: 'pack25', threshold: '14' });
    const link = JSON.parse(first.step('watch', 'checkout').outputs.result as string) as { url: string; sessionId: string; pack: { code: string } };
    expect(link.url).toMatch(new RegExp(`^${sandbox.origin}/_sandbox/checkout/`));
    expect(link.pack.code).toBe('pack25');
    expect(warning(first)?.message).toBe(`About 4.5 days of compliance API tokens left (balance 100000 tokens, daily meter 22222 tokens), under the 14-day threshold. Top up: ${link.url}`);
    expect(first.summary).toContain('| 100000 | 22222 | 4.5 | 14 days |');
    expect(first.summary).toContain(`[Buy pack25](${link.url})`);
    expect(balanceIssues()).toHaveLength(1);
    const issue = balanceIssues()[0];
    expect(issue).toMatchObject({ title: 'Compliance API balance is low', state: 'open', labels: ['compliance-balance'] });
    expect(issue?.body).toContain(`Top up with the pack25 credit pack: ${link.url}`);
    expect(fake.labels.get('compliance-balance')).toMatchObject({ color: 'd93f0b', description: 'Compliance API balance watch' });
    // Reading the balance and creating a checkout link spend nothing.
    const after = await billing(LOW_KEY);
    expect(after.balanceTokens).toBe(before.balanceTokens);
    expect(after.ledger).toHaveLength(before.ledger.length);

    // The next day: the same issue, updated with the new link (never a second issue); a manual run picks the pack.
    const second = await run(LOW_KEY, { event: { name: 'workflow_dispatch', payload: {} }, inputs: { pack: 'pack100' } });
    expect(second.conclusion, second.log).toBe('success');
    const secondLink = JSON.parse(second.step('watch', 'checkout').outputs.result as string) as { url: string };
    expect(balanceIssues()).toHaveLength(1);
    expect(balanceIssues()[0]?.body).toContain(`Top up with the pack100 credit pack: ${secondLink.url}`);
    expect(fake.issueList()).toHaveLength(1);

    // Paid: 8.3M more tokens, hundreds of days. The watch closes the issue with a comment, and opens nothing.
    const paid = await fetch(`${sandbox.origin}/_sandbox/checkout/${link.sessionId}/pay`, { method: 'POST' });
    expect(paid.status).toBe(200);
    const third = await run(LOW_KEY);
    expect(third.conclusion, third.log).toBe('success');
    expect(third.step('watch', 'check').outputs.low).toBe('false');
    expect(third.step('watch', 'checkout').outcome).toBe('skipped');
    expect(third.summary).toContain('✅ More than 14 days of tokens left.');
    expect(warning(third)).toBeUndefined();
    expect(balanceIssues()[0]?.state).toBe('closed');
    expect(fake.commentsOn(balanceIssues()[0]?.number as number)[0]?.body).toMatch(/^The balance is healthy again \(\d+(\.\d+)? days left\): closing\.$/);

    // A higher threshold from the repository variable opens a new issue (the old one stays closed).
    const strict = await run(LOW_KEY, { vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl, COMPLIANCE_BALANCE_DAYS: '100000' } });
    expect(strict.step('watch', 'check').outputs).toMatchObject({ low: 'true', threshold: '100000' });
    expect(balanceIssues().filter((entry) => entry.state === 'open')).toHaveLength(1);
    expect(balanceIssues()).toHaveLength(2);

    for (const result of [first, second, third, strict]) expect(leaks(result, [LOW_KEY], github)).toEqual([]);
  });

  it('says a sandbox key is not metered, and rejects a bad pack or threshold clearly', async () => {
    const issues = fake.issueList().length;
    const sandboxKey = await run(API_KEY);
    expect(sandboxKey.conclusion, sandboxKey.log).toBe('success');
    expect(sandboxKey.step('watch', 'check').outputs).toMatchObject({ low: 'false', days: '' });
    expect(sandboxKey.summary).toContain('This key (sandbox mode) is not metered: nothing runs out.');

    const badPack = await run(LOW_KEY, { vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl, COMPLIANCE_TOPUP_PACK: 'pack15' } });
    expect(badPack.conclusion).toBe('failure');
    expect(badPack.annotations[0]?.message).toBe('COMPLIANCE_TOPUP_PACK must be one of pack10, pack25, pack50, pack100, pack200, pack500 (got pack15)');
    const badDays = await run(LOW_KEY, { event: { name: 'workflow_dispatch', payload: {} }, inputs: { days: 'two weeks' } });
    expect(badDays.conclusion).toBe('failure');
    expect(badDays.annotations[0]?.message).toBe('COMPLIANCE_BALANCE_DAYS must be a number of days (got two weeks)');
    expect(fake.issueList()).toHaveLength(issues);

    const noKey = await run('');
    expect(noKey.conclusion).toBe('failure');
    expect(noKey.annotations[0]?.message).toContain('input api-key: is empty');
  });
});
