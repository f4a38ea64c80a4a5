/**
 * templates/github/compliance-pr-check.yml's opt-in code scanning upload, executed against the sandbox
 * (a live key: the ledger records every charge) and a fake GitHub that enforces each job's token
 * permissions and keeps the SARIF github/codeql-action/upload-sarif sends. Opted out, nothing is
 * uploaded and no job holds security-events: write; opted in, the code-scanning job uploads the map
 * step's report.sarif under the category `compliance`, and the check costs what it cost without it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { FakeGitHub } from '../../actions/fakeGitHub.js';
import { GITHUB_TOKEN, HIPAA_CONFIG, LIVE_API_KEY, makeWorkspace, pullRequestEvent, REPO_ROOT, REPOSITORY } from '../../actions/harness.js';
import { sarifErrors } from '../../fixtures/sarif/validateSarif.js';
import { GitHubGateway } from '../githubGateway.js';
import { CacheStore, leaks, makeOrigin, pushBranch, runWorkflow, type WorkflowRun } from '../workflowRunner.js';

const FILE = join(REPO_ROOT, 'templates', 'github', 'compliance-pr-check.yml');
const POLICY = 'policies/access-control-policy.md';
const EDIT = '\nAccess rights are recertified by each system owner every quarter.\n';
const STEP_TIMEOUT = 120_000;

interface LedgerEntry { id: string; operation: string; tokens: number }
interface SarifRun { automationDetails?: { id: string }; results: Array<{ ruleId: string; locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }> }>; tool: { driver: { rules: unknown[] } } }

let sandbox: RunningSandbox;
let fake: FakeGitHub;
let github: GitHubGateway;
let origin: string;
const caches = new CacheStore();
const runs: WorkflowRun[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [`${LIVE_API_KEY}:live:100000000`] });
  fake = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
  github = await new GitHubGateway(fake).start();
  origin = makeOrigin(makeWorkspace(HIPAA_CONFIG(90)));
});
afterAll(async () => {
  await github?.close();
  await fake?.close();
  await sandbox?.close();
});

async function ledger(): Promise<LedgerEntry[]> {
  const response = await fetch(`${sandbox.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_API_KEY}` } });
  return ((await response.json()) as { ledger: LedgerEntry[] }).ledger;
}

/** A pull request making the same edit on its own branch, checked with `vars`; the run and what it was charged. */
async function check(branch: string, vars: Record<string, string>, options: { fork?: boolean; file?: string } = {}) {
  pushBranch(origin, branch, (dir) => writeFileSync(join(dir, POLICY), EDIT, { flag: 'a' }));
  const pr = fake.addPullRequest(branch);
  const before = new Set((await ledger()).map((entry) => entry.id));
  const uploadsBefore = github.sarifUploads.length;
  const run = await runWorkflow({
    file: options.file ?? FILE,
    origin,
    github,
    caches,
    ref: branch,
    event: pullRequestEvent(pr, { fork: options.fork ?? false }),
    secrets: { COMPLIANCE_API_KEY: LIVE_API_KEY },
    vars: { COMPLIANCE_BASE_URL: sandbox.baseUrl, ...vars },
    ...(options.fork ? { fork: true } : {}),
  });
  runs.push(run);
  const charged = (await ledger()).filter((entry) => !before.has(entry.id)).map((entry) => [entry.operation, entry.tokens]);
  return { run, charged, uploads: github.sarifUploads.slice(uploadsBefore) };
}

describe('compliance-pr-check.yml: SARIF to code scanning, opt-in', () => {
  let optedOut: Awaited<ReturnType<typeof check>>;
  let optedIn: Awaited<ReturnType<typeof check>>;

  it('opted out (the default): no upload step runs, nothing is sent to code scanning, no report.sarif', { timeout: STEP_TIMEOUT }, async () => {
    optedOut = await check('out', {});
    const { run } = optedOut;
    expect(run.conclusion, run.log).toBe('success');
    expect(run.step('compliance', 'map').inputs['report-formats']).toBe('');
    expect(run.jobs['code-scanning']).toMatchObject({ result: 'skipped', steps: [] });
    expect(optedOut.uploads).toEqual([]);
    expect(github.requests.filter((request) => request.path.includes('/code-scanning/'))).toEqual([]);
    expect(() => readFileSync(join(run.jobs.compliance!.workspace, 'compliance-report', 'report.sarif'))).toThrow(/ENOENT/);
  });

  it("opted in: the code-scanning job uploads the map step's report.sarif, valid SARIF 2.1.0, under the category compliance", { timeout: STEP_TIMEOUT }, async () => {
    optedIn = await check('in', { COMPLIANCE_CODE_SCANNING: 'true' });
    const { run } = optedIn;
    expect(run.conclusion, run.log).toBe('success');
    expect(run.step('compliance', 'map').inputs['report-formats']).toBe('sarif');
    expect(run.jobs['code-scanning']?.result, run.log).toBe('success');
    const upload = run.step('code-scanning', 'upload');
    expect(upload).toMatchObject({ outcome: 'success', uses: expect.stringMatching(/^github\/codeql-action\/upload-sarif@[0-9a-f]{40}$/) });
    expect(upload.inputs).toEqual({ sarif_file: 'compliance-report/report.sarif', category: 'compliance' });
    expect(upload.outputs['sarif-id']).toBe(`sarif-${github.sarifUploads.length}`);

    expect(optedIn.uploads).toHaveLength(1);
    const [sent] = optedIn.uploads;
    expect(sent).toMatchObject({ job: 'code-scanning', ref: expect.stringMatching(/^refs\/pull\/\d+\/merge$/), analysisKey: '.github/workflows/compliance-pr-check.yml:code-scanning' });
    expect(sent?.commitOid).toMatch(/^[0-9a-f]{40}$/);
    expect(sarifErrors(sent?.sarif)).toEqual([]);
    // What was sent is the report the map step wrote, with the category added as the action adds it.
    const written = JSON.parse(readFileSync(join(run.jobs.compliance!.workspace, 'compliance-report', 'report.sarif'), 'utf8')) as { runs: SarifRun[] };
    const [sentRun] = (sent?.sarif as { runs: SarifRun[] }).runs;
    expect(sentRun?.automationDetails).toEqual({ id: 'compliance/' });
    expect({ ...sentRun, automationDetails: undefined }).toEqual({ ...written.runs[0], automationDetails: undefined });
    // A result per open gap, located in a policy or in compliance.yml.
    const gaps = Number(run.step('compliance', 'map').outputs.gaps);
    expect(gaps).toBeGreaterThan(0);
    expect(sentRun?.results).toHaveLength(gaps);
    for (const result of sentRun?.results ?? []) expect(result.locations?.[0]?.physicalLocation.artifactLocation.uri).toMatch(/^(policies\/.+\.md|compliance\.yml)$/);
  });

  it('the SARIF costs nothing: the same check is charged the same with and without it', () => {
    expect(optedOut.charged.map(([operation]) => operation)).toEqual(['mapDocument']);
    expect(optedIn.charged).toEqual(optedOut.charged);
  });

  it('without security-events: write the upload is refused (403), as GitHub refuses it', { timeout: STEP_TIMEOUT }, async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'pr-check-')), 'compliance-pr-check.yml');
    const template = readFileSync(FILE, 'utf8');
    writeFileSync(file, template.replace(/^ {6}security-events: write.*\n/m, ''));
    const { run, uploads } = await check('no-permission', { COMPLIANCE_CODE_SCANNING: 'true' }, { file });
    expect(run.jobs['code-scanning']?.permissions).not.toHaveProperty('security-events');
    expect(run.step('code-scanning', 'upload').outcome).toBe('failure');
    expect(run.annotations.map((entry) => entry.message)).toContainEqual(expect.stringContaining('403 Resource not accessible by integration'));
    expect(uploads).toEqual([]);
  });

  it('a fork pull request, opted in: the check fails without the key and nothing is uploaded', { timeout: STEP_TIMEOUT }, async () => {
    const { run, uploads, charged } = await check('fork', { COMPLIANCE_CODE_SCANNING: 'true' }, { fork: true });
    expect(run.conclusion).toBe('failure');
    expect(run.jobs['code-scanning']?.result).toBe('skipped');
    expect(uploads).toEqual([]);
    expect(charged).toEqual([]);
  });

  it('no run leaked the key or a token', () => {
    expect(runs).toHaveLength(4);
    for (const run of runs) expect(leaks(run, [LIVE_API_KEY], github)).toEqual([]);
  });
});
