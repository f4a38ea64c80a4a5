/**
 * The embedded sandbox (no key, no base URL) keeps its state between commands in the per-user data
 * directory (issue 24: ingest then search printed "No match."), here COMPLIANCE_DATA_DIR in the
 * test's temporary folder: the first command names the directory once, --ephemeral keeps nothing,
 * and an environment without a home keeps nothing either.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCli, cli, ROOT } from './helpers.js';

// Relative to ROOT, where cli() runs: the CLI refuses absolute paths.
const POLICY = 'examples/policies/access-control.md';

beforeAll(() => buildCli(), 120_000);

describe('the embedded sandbox between commands', () => {
  it('ingest, then search and list in later commands find the document; the path is printed the first time only', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'embedded-state-')), 'data');
    const env = { COMPLIANCE_DATA_DIR: dataDir };
    const ingest = await cli(['library', 'ingest', POLICY, '--json'], { env });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stderr).toContain(`its state is kept between commands in ${dataDir}`);
    const documentId = ingest.json.results[0].documentId as string;
    expect(documentId).toEqual(expect.any(String));

    const search = await cli(['library', 'search', 'access reviewed', '--json'], { env });
    expect(search.code, search.stderr).toBe(0);
    expect(search.json.results.map((hit: { documentId: string }) => hit.documentId)).toContain(documentId);
    expect(search.stderr).not.toContain(dataDir);
    expect(search.stderr).toContain('state kept between commands');

    const list = await cli(['library', 'list', '--json'], { env });
    expect(list.json.documents.map((doc: { id: string }) => doc.id)).toEqual([documentId]);
  }, 120_000);

  it('--ephemeral keeps nothing and writes nothing to the data directory', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'embedded-state-')), 'data');
    const env = { COMPLIANCE_DATA_DIR: dataDir };
    const ingest = await cli(['library', 'ingest', POLICY, '--ephemeral', '--json'], { env });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stderr).toContain('state is discarded on exit');
    expect(existsSync(dataDir)).toBe(false);
    const list = await cli(['library', 'list', '--json'], { env });
    expect(list.json.documents).toEqual([]);
    expect(readdirSync(dataDir).sort()).toEqual(expect.arrayContaining(['embedded-key']));
  }, 120_000);

  it('with --ephemeral (npm start), the review of examples/ prints the same on every run, whatever the data directory holds', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'embedded-state-')), 'data');
    const env = { COMPLIANCE_DATA_DIR: dataDir };
    // Another checkout (or an earlier run) has already synced examples/ into the per-user state.
    const kept = await cli(['review', '-C', 'examples'], { env });
    expect(kept.code, kept.stderr).toBe(0);
    const again = await cli(['review', '-C', 'examples'], { env });
    expect(again.stdout).toContain('Library sync: 0 new, 0 changed, 8 unchanged');
    const state = readdirSync(dataDir).sort();
    // What `npm start` runs, read from package.json: the review of examples/ on a state of its own.
    const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
    const startArgs = /node dist\/cli\/compliance\.cjs (.+)$/.exec(start)?.[1]?.split(' ');
    expect(startArgs).toEqual(['review', '-C', 'examples', '--sandbox', '--ephemeral']);
    // In CI (the helper sets CI=true) with nothing else asking for the sandbox: npm start asks for it by name.
    const startEnv = { ...env, COMPLIANCE_SANDBOX: '' };
    const runs = [await cli(startArgs!, { env: startEnv }), await cli(startArgs!, { env: startEnv })];
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('Library sync: 8 new, 0 changed, 0 unchanged');
      expect(run.stderr).toContain('state is discarded on exit');
    }
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
    expect(runs[1]!.stderr).toBe(runs[0]!.stderr);
    expect(readdirSync(dataDir).sort()).toEqual(state);
  }, 120_000);

  it('with no home in the environment, nothing is kept', async () => {
    const ingest = await cli(['library', 'ingest', POLICY, '--json'], { env: {} });
    expect(ingest.code, ingest.stderr).toBe(0);
    expect(ingest.stderr).toContain('state is discarded on exit');
  }, 60_000);
});
