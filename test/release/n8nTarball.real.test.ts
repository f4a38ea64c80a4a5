/**
 * Release rehearsal: the packed tarball (what npm publishes, from `scripts/pack.mjs`) installed into
 * a real n8n (2.40.7) as a user installs it from a shell, `npm install` in the n8n user folder's
 * nodes folder with the tarball in place of the registry (test/n8n/real/harness.ts), then
 * workflows executed with `n8n execute` against the sandbox on loopback: ping with both key headers
 * and a bad key, and a library ingest then search. Set COMPLIANCE_SKIP_REAL_N8N=1 to skip.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { buildPackage, installN8n, N8nHarness, outputOf, PACKAGE_NAME } from '../n8n/real/harness.js';
import { credentials, WORKFLOW_IDS, workflows, type Keys } from '../n8n/real/workflows.js';

const skip = process.env.COMPLIANCE_SKIP_REAL_N8N === '1';
if (skip) console.warn('COMPLIANCE_SKIP_REAL_N8N=1: the packed-tarball rehearsal in a real n8n is skipped');

const KEYS: Keys = {
  sandbox: 'csk_sandbox_n8n_tarball_rehearsal1',
  trigger: 'csk_sandbox_n8n_tarball_trigger_01',
  live: 'csk_live_n8n_tarball_rehearsal_001',
};

describe.skipIf(skip)('the packed tarball in a real n8n', () => {
  let sandbox: RunningSandbox;
  let n8n: N8nHarness;
  let tarball: string;

  beforeAll(async () => {
    const bin = installN8n();
    tarball = buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 1, keys: [KEYS.sandbox, KEYS.trigger, `${KEYS.live}:live:50000`] });
    n8n = await N8nHarness.create(bin, tarball);
    await n8n.importCredentials(credentials(sandbox.origin, sandbox.baseUrl, KEYS));
    await n8n.importWorkflows(workflows());
  }, 30 * 60_000);

  afterAll(async () => {
    n8n?.close();
    await sandbox?.close();
  });

  it('is installed by npm from the tarball: the files n8n loads are exactly the files the tarball holds', () => {
    const nodesFolder = join(n8n.userFolder, '.n8n', 'nodes');
    const installed = join(nodesFolder, 'node_modules', PACKAGE_NAME);
    expect(lstatSync(installed).isSymbolicLink()).toBe(false);
    const dependencies = (JSON.parse(readFileSync(join(nodesFolder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    expect(dependencies[PACKAGE_NAME]).toMatch(new RegExp(`^file:.*${PACKAGE_NAME}-\\d+\\.\\d+\\.\\d+\\.tgz$`));
    const inTarball = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line && !line.endsWith('/'))
      .map((line) => line.replace(/^package\//, ''))
      .sort();
    const onDisk = readdirSync(installed, { withFileTypes: true, recursive: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(installed, join(entry.parentPath, entry.name)))
      .sort();
    expect(onDisk).toEqual(inTarball);
    expect(inTarball).toContain('dist/nodes/Compliance/Compliance.node.js');
  });

  it('pings with either key header and maps a bad key to the service error', async () => {
    const run = await n8n.execute(WORKFLOW_IDS.ping);
    expect(run.execution.status).toBe('success');
    expect(outputOf(run, 'Ping Bearer')[0]!.json).toMatchObject({ ok: true, mode: 'sandbox' });
    expect(outputOf(run, 'Ping X-API-Key')[0]!.json).toMatchObject({ ok: true, mode: 'sandbox' });
    expect(outputOf(run, 'Ping Bad Key')[0]!.json).toMatchObject({ code: 'invalid_api_key', status: 401, requestId: expect.any(String) });
  }, 180_000);

  it('ingests a library document and finds it by search', async () => {
    const run = await n8n.execute(WORKFLOW_IDS.library);
    expect(run.execution.status).toBe('success');
    const [ingested] = outputOf(run, 'Ingest');
    expect(ingested!.json).toMatchObject({ status: 'completed', documentId: expect.any(String) });
    const hits = outputOf(run, 'Search');
    expect(hits.map((hit) => hit.json.documentId)).toContain(ingested!.json.documentId);
  }, 180_000);
});
