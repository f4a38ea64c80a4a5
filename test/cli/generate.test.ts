/**
 * `compliance generate` through the built CLI against a live-mode sandbox: files and the drift
 * manifest written atomically, drift (parameters changed, edited by hand) and exactly one
 * generation charge in the ledger per regenerated document.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedFileHash } from '../../review/drift.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { HIPAA_CONFIG, makeWorkspace } from '../actions/harness.js';
import { LIVE_KEY, buildCli, cli, liveSandbox, removeRepo, type Run } from './helpers.js';

const ACCESS = 'generated/access-control';
const INCIDENT = 'generated/incident-response';
const generateConfig = (organisation: string) => `generate:
  - type: access_control_policy
    framework: hipaa-security
    organisation: { name: ${organisation}, country: US }
    output: ${ACCESS}
    formats: [md, pdf]
  - type: incident_response_plan
    framework: hipaa-security
    organisation: { name: Acme Health }
    output: ${INCIDENT}
    formats: [md, json, docx]
`;

interface LedgerEntry {
  id: string;
  operation: string;
  tokens: number;
  reference?: string;
}

/** Every file under root (policies aside) with the sha256 of its bytes. */
function tree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else out[relative(root, path)] = createHash('sha256').update(readFileSync(path)).digest('hex');
    }
  };
  walk(root);
  for (const path of Object.keys(out)) if (path.startsWith('policies/')) delete out[path];
  return out;
}

describe('compliance generate (live mode)', () => {
  let box: RunningSandbox;
  let workspace: string;
  let price: number;
  const runs: Run[] = [];
  const generate = async (...args: string[]) => {
    const run = await cli(['generate', ...args], { cwd: workspace, box });
    runs.push(run);
    return run;
  };
  const billing = async () => {
    const response = await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } });
    return (await response.json()) as { balanceTokens: number; prices: Record<string, number>; ledger: LedgerEntry[] };
  };
  /** Runs `step` and returns the ledger entries it added and the balance it spent. */
  const charged = async <T>(step: () => Promise<T>) => {
    const before = await billing();
    const seen = new Set(before.ledger.map((entry) => entry.id));
    const value = await step();
    const after = await billing();
    return { value, entries: after.ledger.filter((entry) => !seen.has(entry.id)), spent: before.balanceTokens - after.balanceTokens };
  };
  const manifest = () => JSON.parse(readFileSync(join(workspace, '.compliance/generated.json'), 'utf8')) as {
    documents: Array<{ output: string; parameters: Record<string, unknown>; jobId: string; files: Array<{ path: string; format: 'md' | 'json' | 'pdf' | 'docx'; contentHash: string }> }>;
  };
  const entry = (output: string) => manifest().documents.find((document) => document.output === output);
  const generationCharges = (jobIds: string[]) => jobIds.map((jobId) => ({ operation: 'generateDocument', tokens: -price, reference: jobId }));

  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(10_000_000);
    price = (await billing()).prices.generateDocument as number;
    expect(price).toBeGreaterThan(0);
    workspace = makeWorkspace(HIPAA_CONFIG(80, generateConfig('Acme Health')));
  });
  afterAll(async () => {
    await box?.close();
    if (workspace) removeRepo(workspace);
  });

  it('without a selection only reports drift: both documents missing, nothing written or charged', async () => {
    const before = tree(workspace);
    const { value: run, entries } = await charged(() => generate('--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.drift.map((d: { output: string; status: string; reasons: string[] }) => [d.output, d.status, d.reasons])).toEqual([
      [ACCESS, 'drifted', ['missing']],
      [INCIDENT, 'drifted', ['missing']],
    ]);
    expect(entries).toEqual([]);
    expect(tree(workspace)).toEqual(before);
  });

  it('--dry-run prices the plan and writes and spends nothing', async () => {
    const before = tree(workspace);
    const { value: run, entries, spent } = await charged(() => generate('--drifted', '--dry-run', '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ dryRun: true, plannedTokens: 2 * price, generate: [ACCESS, INCIDENT], files: [] });
    expect([entries, spent]).toEqual([[], 0]);
    expect(tree(workspace)).toEqual(before);
  });

  it('the first run writes every format and the manifest, atomically, one charge per document', async () => {
    const { value: run, entries, spent } = await charged(() => generate('--drifted', '--json'));
    expect(run.code, run.stderr).toBe(0);
    const files = [`${ACCESS}.md`, `${ACCESS}.pdf`, `${INCIDENT}.md`, `${INCIDENT}.json`, `${INCIDENT}.docx`];
    expect(run.json.files).toEqual(files);
    expect(run.json.results.map((r: { output: string; status: string }) => [r.output, r.status])).toEqual([[ACCESS, 'generated'], [INCIDENT, 'generated']]);
    const jobIds = run.json.results.map((r: { jobId: string }) => r.jobId);
    expect(entries).toHaveLength(2);
    expect(entries).toEqual(expect.arrayContaining(generationCharges(jobIds).map((charge) => expect.objectContaining(charge))));
    expect(spent).toBe(2 * price);
    expect(run.json.tokensSpent).toBe(spent);

    // Exactly these files and the manifest; no temporary file left beside them.
    expect(Object.keys(tree(workspace)).sort()).toEqual([...files, '.compliance/generated.json', 'compliance.yml'].sort());
    const bytes = (path: string) => readFileSync(join(workspace, path));
    expect(bytes(`${ACCESS}.pdf`).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(bytes(`${INCIDENT}.docx`).subarray(0, 2).toString('latin1')).toBe('PK');
    expect(bytes(`${ACCESS}.md`).toString('utf8')).toContain('Acme Health');
    expect(() => JSON.parse(bytes(`${INCIDENT}.json`).toString('utf8'))).not.toThrow();

    // The manifest records what produced each file, and the hash of what is on disk.
    const recorded = manifest();
    expect(recorded.documents.map((document) => [document.output, document.jobId])).toEqual([[ACCESS, jobIds[0]], [INCIDENT, jobIds[1]]]);
    expect(entry(ACCESS)?.parameters).toMatchObject({ type: 'access_control_policy', framework: 'hipaa-security', organisation: { name: 'Acme Health', country: 'US' } });
    for (const document of recorded.documents) {
      for (const file of document.files) expect(file.contentHash).toBe(generatedFileHash(file.format, new Uint8Array(bytes(file.path))));
    }
    expect(recorded.documents.flatMap((document) => document.files.map((file) => file.path)).sort()).toEqual([...files].sort());
  });

  it('a second --drifted run regenerates nothing and spends nothing', async () => {
    const before = tree(workspace);
    const { value: run, entries, spent } = await charged(() => generate('--drifted', '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.generate).toEqual([]);
    expect(run.json.skipped).toEqual([{ output: ACCESS, reason: 'up to date' }, { output: INCIDENT, reason: 'up to date' }]);
    expect([entries, spent]).toEqual([[], 0]);
    expect(tree(workspace)).toEqual(before);
  });

  it('a file edited by hand is reported as edited and never overwritten without --force', async () => {
    const edited = '# Incident response\n\nOur own wording, edited by hand.\n';
    writeFileSync(join(workspace, `${INCIDENT}.md`), edited);
    const report = await generate('--json');
    expect(report.json.drift.find((d: { output: string }) => d.output === INCIDENT)).toMatchObject({ status: 'edited-by-hand', editedFiles: [`${INCIDENT}.md`] });
    expect(report.json.drift.find((d: { output: string }) => d.output === ACCESS)).toMatchObject({ status: 'up-to-date' });

    const before = tree(workspace);
    for (const args of [['--drifted'], ['--only', INCIDENT], ['--all']]) {
      const { value: run, entries, spent } = await charged(() => generate(...args, '--json'));
      expect(run.code, run.stderr).toBe(0);
      expect(run.json.skipped).toContainEqual({ output: INCIDENT, reason: expect.stringContaining('edited by hand') });
      if (args[0] === '--all') {
        // --all regenerates the other document (one charge) and still leaves the edited one alone.
        expect(run.json.results).toEqual([{ output: ACCESS, status: 'generated', jobId: expect.any(String) }]);
        expect(entries).toEqual([expect.objectContaining(generationCharges([run.json.results[0].jobId])[0])]);
        expect(spent).toBe(price);
      } else {
        expect([entries, spent]).toEqual([[], 0]);
      }
      expect(readFileSync(join(workspace, `${INCIDENT}.md`), 'utf8')).toBe(edited);
    }
    const after = tree(workspace);
    for (const path of [`${INCIDENT}.md`, `${INCIDENT}.json`, `${INCIDENT}.docx`]) expect(after[path]).toBe(before[path]);
    const human = await generate('--drifted');
    expect(human.stdout).toContain(`skipped ${INCIDENT}: edited by hand (${INCIDENT}.md): use --force to overwrite`);
  });

  it('changed parameters drift only that document; --dry-run writes nothing; --drifted regenerates only it, one charge', async () => {
    writeFileSync(join(workspace, 'compliance.yml'), HIPAA_CONFIG(80, generateConfig('Acme Health Partners')));
    const report = await generate('--json');
    expect(report.json.drift.map((d: { output: string; status: string; reasons: string[] }) => [d.output, d.status, d.reasons])).toEqual([
      [ACCESS, 'drifted', ['parameters-changed']],
      [INCIDENT, 'edited-by-hand', []],
    ]);

    const before = tree(workspace);
    const incidentEntry = entry(INCIDENT);
    const dry = await charged(() => generate('--drifted', '--dry-run', '--json'));
    expect(dry.value.json).toMatchObject({ dryRun: true, plannedTokens: price, generate: [ACCESS] });
    expect([dry.entries, dry.spent]).toEqual([[], 0]);
    expect(tree(workspace)).toEqual(before);

    const { value: run, entries, spent } = await charged(() => generate('--drifted', '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.results).toEqual([{ output: ACCESS, status: 'generated', jobId: expect.any(String) }]);
    expect(run.json.files).toEqual([`${ACCESS}.md`, `${ACCESS}.pdf`]);
    expect(entries).toEqual([expect.objectContaining(generationCharges([run.json.results[0].jobId])[0])]);
    expect(spent).toBe(price);
    const after = tree(workspace);
    expect(after[`${ACCESS}.md`]).not.toBe(before[`${ACCESS}.md`]);
    expect(after[`${INCIDENT}.md`]).toBe(before[`${INCIDENT}.md`]);
    expect(readFileSync(join(workspace, `${ACCESS}.md`), 'utf8')).toContain('Acme Health Partners');
    expect(entry(ACCESS)).toMatchObject({ jobId: run.json.results[0].jobId, parameters: { organisation: { name: 'Acme Health Partners' } } });
    expect(entry(INCIDENT)).toEqual(incidentEntry);
    expect((await generate('--json')).json.drift.map((d: { status: string }) => d.status)).toEqual(['up-to-date', 'edited-by-hand']);
  });

  it('--force overwrites the hand-edited document (one charge), after which nothing is drifted', async () => {
    const { value: run, entries, spent } = await charged(() => generate('--only', INCIDENT, '--force', '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.results).toEqual([{ output: INCIDENT, status: 'generated', jobId: expect.any(String) }]);
    expect(entries).toEqual([expect.objectContaining(generationCharges([run.json.results[0].jobId])[0])]);
    expect(spent).toBe(price);
    expect(readFileSync(join(workspace, `${INCIDENT}.md`), 'utf8')).toContain('Acme Health');
    const settled = await charged(() => generate('--drifted', '--json'));
    expect(settled.value.json.generate).toEqual([]);
    expect([settled.entries, settled.spent]).toEqual([[], 0]);
  });

  it('--formats adds formats to the configured ones: every file of the document is rewritten and recorded, none goes stale', async () => {
    const { value: run, spent } = await charged(() => generate('--only', ACCESS, '--formats', 'md,docx', '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(spent).toBe(price);
    // The configured md and pdf plus the requested docx, all from the one job.
    expect(entry(ACCESS)!.files.map((file) => file.format).sort()).toEqual(['docx', 'md', 'pdf']);
    for (const file of entry(ACCESS)!.files) {
      expect(file.contentHash).toBe(generatedFileHash(file.format, readFileSync(join(workspace, file.path))));
    }
    // The pdf the subset request did not name is still ours, not "edited by hand".
    const drift = (await generate('--json')).json.drift as Array<{ output: string; status: string }>;
    expect(drift.find((document) => document.output === ACCESS)?.status).toBe('up-to-date');
  });

  it('never prints the API key', () => {
    expect(runs.length).toBeGreaterThan(10);
    for (const run of runs) expect(`${run.stdout}${run.stderr}`).not.toContain(LIVE_KEY);
  });
});
