/** actions/generate and actions/review (the whole loop) against the sandbox and the fake GitHub API. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from './fakeGitHub.js';
import { API_KEY, GITHUB_TOKEN, HIPAA_CONFIG, leakedSecrets, makeWorkspace, REPOSITORY, runAction } from './harness.js';
import { HIPAA_COVERAGE } from '../fixtures/golden.js';

const GENERATE = `generate:
  - type: access_control_policy
    framework: hipaa-security
    organisation: { name: Acme Health, country: US }
    output: generated/access-control
    formats: [md, pdf]
`;
const REVIEW_KEY = 'csk_sandbox_actions_review_0001';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [API_KEY, REVIEW_KEY] });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('actions/generate', () => {
  it('generates missing documents with a manifest, then nothing while they are current; hand edits are kept', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80, GENERATE));
    const inputs = { 'api-key': API_KEY, 'base-url': sandbox.baseUrl };
    const first = await runAction('generate', { workspace, inputs });
    expect(first.code, first.stdout).toBe(0);
    expect(JSON.parse(first.outputs.paths as string)).toEqual(['generated/access-control.md', 'generated/access-control.pdf', '.compliance/generated.json']);
    expect(readFileSync(join(workspace, 'generated/access-control.pdf')).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(readFileSync(join(workspace, 'generated/access-control.md'), 'utf8')).toContain('Acme Health');
    const manifest = JSON.parse(readFileSync(join(workspace, '.compliance/generated.json'), 'utf8'));
    expect(manifest.documents[0]).toMatchObject({ output: 'generated/access-control', framework: 'hipaa-security' });
    expect(first.summary).toContain('✅ generated');

    const second = await runAction('generate', { workspace, inputs });
    expect(second.outputs).toMatchObject({ generated: '0', paths: '[]' });
    expect(second.summary).toContain('up to date');

    writeFileSync(join(workspace, 'generated/access-control.md'), '# Edited by hand\n');
    const third = await runAction('generate', { workspace, inputs: { ...inputs, documents: 'generated/access-control' } });
    expect(third.outputs.generated).toBe('0');
    expect(third.summary).toContain('edited by hand');
    expect(readFileSync(join(workspace, 'generated/access-control.md'), 'utf8')).toBe('# Edited by hand\n');
    const forced = await runAction('generate', { workspace, inputs: { ...inputs, documents: 'generated/access-control', force: 'true', formats: 'md' } });
    // `formats` adds to the configured md and pdf: every file of the document comes from the one job.
    expect(JSON.parse(forced.outputs.paths as string)).toEqual(['generated/access-control.md', 'generated/access-control.pdf', '.compliance/generated.json']);
    for (const run of [first, second, third, forced]) expect(leakedSecrets(run, [API_KEY])).toEqual([]);
  });
});

describe('actions/generate refusal', () => {
  it('is headed and worded as a refusal of a generation, not as a dry run or a sync', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80, GENERATE));
    const run = await runAction('generate', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'max-tokens': '1' } });
    expect(run.code).toBe(1);
    expect(run.outputs).toMatchObject({ generated: '0', paths: '[]', 'tokens-spent': '0', planned: '["generated/access-control"]' });
    expect(run.summary).toContain('## Generated documents (refused before spending anything: nothing generated)');
    expect(run.summary).toContain('| not generated (refused) |');
    expect(run.summary).not.toMatch(/\(dry run|Dry run, nothing sent/);
    const error = run.annotations.at(-1)?.message ?? '';
    // review/'s refusal, worded as on every surface: the plan, what the cap allows, the cap to set.
    expect(error).toMatch(/^refused before spending anything: 1 × generateDocument at [\d,]+ tokens costs [\d,]+ tokens, but the cap of 1 tokens allows 1 tokens more: enough for 0 of the 1 call \(Set max-tokens to [\d,]+ or more, or plan fewer calls; a dry run shows the plan\.\)$/);
    expect(error).not.toContain('sync');
    expect(existsSync(join(workspace, 'generated/access-control.md'))).toBe(false);
  });

  it('a dry run the cap would refuse succeeds, writes nothing and says what a real run would be refused with', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80, GENERATE));
    const run = await runAction('generate', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'max-tokens': '1', 'dry-run': 'true' } });
    expect(run.code, run.stdout).toBe(0);
    expect(run.outputs).toMatchObject({ generated: '0', paths: '[]', 'tokens-spent': '0', planned: '["generated/access-control"]' });
    expect(run.summary).toContain('## Generated documents (dry run: nothing generated)');
    expect(run.summary).toMatch(/Dry run, nothing sent: 1 × generateDocument at [\d,]+ tokens, [\d,]+ tokens at live prices \(sandbox key: never charged\)\. A real run would be refused before spending anything: .*the cap of 1 tokens allows 1 tokens more/);
    expect(run.annotations.filter((annotation) => annotation.kind === 'error')).toEqual([]);
    expect(existsSync(join(workspace, 'generated/access-control.md'))).toBe(false);
  });
});

describe('actions/review', () => {
  it('runs the whole loop: sync, map and gate, updates, drift and regeneration, gap issues', { timeout: 60_000 }, async () => {
    const github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 3 }).start();
    try {
      const workspace = makeWorkspace(HIPAA_CONFIG(80, `${GENERATE}gapIssues:\n  labels: [compliance-gap, hipaa]\n  maxNewPerRun: 2\n`));
      const inputs = { 'api-key': REVIEW_KEY, 'base-url': sandbox.baseUrl, 'github-token': GITHUB_TOKEN, regenerate: 'true', since: '2000-01-01' };
      const run = await runAction('review', { workspace, inputs, event: { name: 'schedule', payload: { schedule: '0 6 1 */3 *' } }, apiUrl: github.url });
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.outputs).toMatchObject({ status: 'passed', passed: 'true', coverage: HIPAA_COVERAGE, gaps: '4', created: '2', deferred: '2' });
      expect(JSON.parse(run.outputs.synced as string)).toMatchObject({ ingested: 13, failed: 0 });
      expect(JSON.parse(run.outputs.drifted as string)).toEqual(['generated/access-control']);
      expect(JSON.parse(run.outputs['generated-paths'] as string)).toContain('generated/access-control.pdf');
      expect(existsSync(join(workspace, 'generated/access-control.md'))).toBe(true);
      expect(JSON.parse(run.outputs['framework-updates'] as string)[0]).toMatchObject({ slug: 'hipaa-security' });
      for (const heading of ['# Compliance review of acme/policies', '## Library sync', `| HIPAA Security Rule | ${HIPAA_COVERAGE}% |`, '## Framework updates since 2000-01-01', '## Generated documents', '## Costs', '## Gap issues']) {
        expect(run.summary).toContain(heading);
      }
      // The report and summary were written before the first GitHub write.
      expect(run.summary.indexOf('## Costs')).toBeLessThan(run.summary.indexOf('## Gap issues'));
      expect(github.issueList()).toHaveLength(2);
      expect(github.issueList().every((issue) => issue.labels.join() === 'compliance-gap,hipaa')).toBe(true);

      const again = await runAction('review', { workspace, inputs: { ...inputs, regenerate: 'false' }, event: { name: 'schedule', payload: {} }, apiUrl: github.url });
      expect(again.outputs).toMatchObject({ created: '2', closed: '0', drifted: '[]' });
      expect(JSON.parse(again.outputs.synced as string)).toMatchObject({ ingested: 0, refreshed: 0 });
      expect(github.issueList()).toHaveLength(4);
      expect(leakedSecrets(run, [REVIEW_KEY, GITHUB_TOKEN], github.requests.map((request) => request.body))).toEqual([]);
    } finally {
      await github.close();
    }
  });

  it('a dry run prices the plan and spends nothing', async () => {
    const workspace = makeWorkspace(HIPAA_CONFIG(80));
    const run = await runAction('review', { workspace, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'dry-run': 'true', 'gap-issues': 'false' } });
    expect(run.code, run.stdout).toBe(0);
    // A dry run evaluates nothing: skipped, with the plan's price in the summary.
    expect(run.outputs).toMatchObject({ status: 'skipped', passed: 'false', coverage: '', gaps: '', 'tokens-spent': '0' });
    expect(run.summary).toMatch(/> Dry run, nothing sent: \d+ × ingestLibraryDocument at 400,000 tokens \+ 1 × mapDocument at [\d,]+ tokens, [\d,]+ tokens at live prices \(sandbox key: never charged\)\.\n/);
  });
});
