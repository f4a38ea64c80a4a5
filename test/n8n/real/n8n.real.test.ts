/**
 * The package in a real n8n (2.40.7): built, installed as a community package, credentials and
 * workflows imported with the n8n CLI and executed with `n8n execute` against the sandbox on
 * loopback. Set COMPLIANCE_SKIP_REAL_N8N=1 to skip (it says so); CI never sets it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeaks } from '../../hardening/leaks.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { buildPackage, installN8n, N8nHarness, outputOf, until, type N8nRun } from './harness.js';
import { recordingProxy, type RecordingProxy } from './recordingProxy.js';
import { credentials, triggerWorkflow, WORKFLOW_IDS, workflows, type Keys } from './workflows.js';

const skip = process.env.COMPLIANCE_SKIP_REAL_N8N === '1';
if (skip) console.warn('COMPLIANCE_SKIP_REAL_N8N=1: the real-n8n suite is skipped');

const KEYS: Keys = {
  sandbox: 'csk_sandbox_n8n_real_suite_0001',
  trigger: 'csk_sandbox_n8n_real_trigger_01',
  live: 'csk_live_n8n_real_low_balance_01',
};
// 50,000 tokens at the API plan's 22,222 a day: about 2.2 days left, under the 7-day threshold.
const LIVE_BALANCE = 50_000;
/** Every key the suite hands n8n, the bad one of the "Ping Bad Key" credential included. */
const SECRETS = [...Object.values(KEYS), 'csk_sandbox_not_a_real_key_0000'];

/** The files n8n wrote in its user folder (database and its WAL, event logs, config), not the installed packages. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'nodes' || entry.name === 'node_modules' ? [] : filesUnder(path);
    return entry.isFile() ? [path] : [];
  });
}

describe.skipIf(skip)('the nodes in a real n8n', () => {
  let sandbox: RunningSandbox;
  /** Between n8n and the sandbox: shows when a poll of the trigger was answered. */
  let proxy: RecordingProxy;
  let n8n: N8nHarness;
  const timings: Record<string, number> = {};

  beforeAll(async () => {
    const bin = installN8n();
    buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 1, keys: [KEYS.sandbox, KEYS.trigger, `${KEYS.live}:live:${LIVE_BALANCE}`] });
    proxy = await recordingProxy(sandbox.origin);
    n8n = await N8nHarness.create(bin);
    const started = Date.now();
    await n8n.importCredentials(credentials(proxy.origin, `${proxy.origin}${new URL(sandbox.baseUrl).pathname}`, KEYS));
    await n8n.importWorkflows(workflows());
    timings.import = Date.now() - started;
  }, 30 * 60_000);

  afterAll(async () => {
    n8n?.close();
    await proxy?.close();
    await sandbox?.close();
    console.log(`real n8n timings (ms): ${JSON.stringify(timings)}`);
  });

  async function execute(id: string): Promise<N8nRun> {
    const run = await n8n.execute(id);
    timings[id] = (timings[id] ?? 0) + run.ms;
    // No API key in anything n8n printed (outputs, errors, logs), verbatim or encoded.
    expect(findLeaks([{ place: `n8n execute ${id} stdout`, text: run.stdout }, { place: `n8n execute ${id} stderr`, text: run.stderr }], SECRETS)).toEqual([]);
    return run;
  }

  /** The trigger's balance polls the sandbox has answered (only the trigger reads the balance while n8n runs). */
  const balancePolls = () => proxy.answered.filter((line) => /^GET \/api\/public\/v1\/billing(\?|$)/.test(line)).length;

  /** Statuses of the trigger workflow's stored executions, oldest first (n8n's own database). */
  function triggerExecutions(): string[] {
    const db = new DatabaseSync(join(n8n.userFolder, '.n8n', 'database.sqlite'), { readOnly: true });
    try {
      return db.prepare('select status from execution_entity where workflowId = ? order by id').all(WORKFLOW_IDS.triggerBalance).map((row) => String(row.status));
    } finally {
      db.close();
    }
  }

  it('authenticates with either header and maps a bad key to the service error (ping)', async () => {
    const run = await execute(WORKFLOW_IDS.ping);
    expect(run.execution.status).toBe('success');
    const [bearer] = outputOf(run, 'Ping Bearer');
    expect(bearer!.json).toMatchObject({ ok: true, mode: 'sandbox', client: expect.any(String) });
    expect(bearer!.pairedItem).toEqual({ item: 0 });
    const [header] = outputOf(run, 'Ping X-API-Key');
    expect(header!.json).toMatchObject({ ok: true, mode: 'sandbox' });
    // Continue On Fail: the error comes back as an item with the service's code and request id.
    const [bad] = outputOf(run, 'Ping Bad Key');
    expect(bad!.json).toMatchObject({ code: 'invalid_api_key', status: 401, requestId: expect.any(String) });
    expect(String(bad!.json.error)).toMatch(/^Check Key: /);
  }, 120_000);

  it('generates, waits and downloads a PDF as binary data', async () => {
    const run = await execute(WORKFLOW_IDS.generate);
    expect(run.execution.status).toBe('success');
    const [job] = outputOf(run, 'Generate');
    expect(job!.json).toMatchObject({ status: 'completed', timedOut: false, jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const [download] = outputOf(run, 'Download PDF');
    expect(download!.json).toMatchObject({ jobId: job!.json.jobId, format: 'pdf', mimeType: 'application/pdf' });
    expect(download!.json.fileSize).toBeGreaterThan(1000);
    const binary = download!.binary?.policy;
    expect(binary).toBeDefined();
    expect(binary!.mimeType).toBe('application/pdf');
    expect(binary!.fileName).toMatch(/\.pdf$/);
    expect(binary!.fileExtension).toBe('pdf');
    if (binary!.data && !binary!.id) expect(Buffer.from(binary!.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  }, 180_000);

  it('maps a file uploaded from a binary property and downloads the report', async () => {
    const run = await execute(WORKFLOW_IDS.map);
    expect(run.execution.status).toBe('success');
    const [file] = outputOf(run, 'To File');
    expect(file!.binary?.data?.fileName).toBe('access-control-policy.txt');
    const [job] = outputOf(run, 'Map');
    expect(job!.json).toMatchObject({ status: 'completed', kind: 'mapping' });
    const [report] = outputOf(run, 'Report');
    const document = report!.json.document as { coverage: number; controls: unknown[]; gaps: unknown[]; framework: unknown };
    expect(typeof document.coverage).toBe('number');
    expect(document.coverage).toBeGreaterThan(0);
    expect(document.controls.length).toBeGreaterThan(0);
    expect(Array.isArray(document.gaps)).toBe(true);
  }, 180_000);

  it('version 2 runs with resource locators and names a bad Job ID as the UI does', async () => {
    const run = await execute(WORKFLOW_IDS.locators);
    expect(run.execution.status).toBe('success');
    expect(outputOf(run, 'Framework From List')[0]!.json).toMatchObject({ slug: 'iso-27001' });
    const [generated] = outputOf(run, 'Generate From List');
    expect(generated!.json).toMatchObject({ status: 'completed', jobId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(outputOf(run, 'Job By ID')[0]!.json).toMatchObject({ jobId: generated!.json.jobId, status: 'completed' });
    const [bad] = outputOf(run, 'Bad Job ID');
    expect(bad!.json).toMatchObject({ code: 'invalid_job_id', error: expect.stringMatching(/^Job ID in Get Job must be a UUID such as /) });
  }, 180_000);

  it('ingests a library document and finds it by search', async () => {
    const run = await execute(WORKFLOW_IDS.library);
    expect(run.execution.status).toBe('success');
    const [ingested] = outputOf(run, 'Ingest');
    expect(ingested!.json).toMatchObject({ status: 'completed', documentId: expect.any(String) });
    const hits = outputOf(run, 'Search');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.map((hit) => hit.json.documentId)).toContain(ingested!.json.documentId);
    expect(hits[0]!.json).toMatchObject({ rank: 1, snippets: expect.any(Array), snippetHighlights: expect.any(Array) });
    expect(JSON.stringify(hits.map((hit) => hit.json.snippets))).not.toContain('<mark>');
    expect(hits.every((hit) => JSON.stringify(hit.pairedItem) === JSON.stringify({ item: 0 }))).toBe(true);
  }, 180_000);

  it('fires the polling trigger in a running n8n once, and not again after a restart', async () => {
    const events: Array<Record<string, unknown>> = [];
    const capture = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        events.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      });
    });
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const captureUrl = `http://127.0.0.1:${(capture.address() as AddressInfo).port}/events`;
    try {
      await n8n.importWorkflows([triggerWorkflow(captureUrl)]);
      const published = await n8n.run(['publish:workflow', `--id=${WORKFLOW_IDS.triggerBalance}`]);
      expect(published.exitCode, published.stdout + published.stderr).toBe(0);

      // Activation polls once: the balance (about 2.2 days) is under the 7-day threshold.
      let started = Date.now();
      let server = await n8n.start();
      const output = () => server.output().slice(-4000);
      await until('the Balance Low event', () => (events.length ? true : undefined), 60_000, output);
      // The execution finishing saves the cursor: stop once n8n has stored it as finished.
      await until('the trigger execution to be stored as finished', () => (triggerExecutions().some((status) => status === 'success') ? true : undefined), 60_000, output);
      await server.stop();
      timings.triggerFirstStart = Date.now() - started;
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({ event: 'balanceLow', eventKey: 'balanceLow:1', thresholdDays: 7, balanceTokens: LIVE_BALANCE, mode: 'live' });
      expect(events[0]!.estimatedDaysRemaining).toBeLessThan(7);
      for (const key of Object.values(KEYS)) expect(server.output()).not.toContain(key);

      // A restart polls again at activation: the cursor in the workflow's static data says this
      // dip was reported, so nothing fires. Wait for that poll's answer, then stop n8n, which lets
      // an execution the poll started finish first: so any second event would have arrived.
      started = Date.now();
      const pollsBefore = balancePolls();
      server = await n8n.start();
      await until("the restart's activation poll to be answered", () => (balancePolls() > pollsBefore ? true : undefined), 60_000, output);
      await server.stop();
      timings.triggerRestart = Date.now() - started;
      expect(triggerExecutions()).toEqual(['success']);
      const problems = server.output().split('\n').filter((line) => /Problem with execution|problem activating|Compliance/i.test(line));
      expect(problems).toEqual([]);
      expect(events).toHaveLength(1);
    } finally {
      capture.close();
    }
  }, 300_000);

  it("leaves no API key in n8n's database (execution data), event logs or other files of its user folder", () => {
    const files = filesUnder(n8n.userFolder).filter((file) => statSync(file).size <= 512 * 1024 * 1024);
    const texts = files.map((file) => ({ place: file.slice(n8n.userFolder.length), text: readFileSync(file).toString('latin1') }));
    // The scan sees the stored executions: the bad-key ping's error output is in there.
    expect(texts.some(({ place, text }) => /database\.sqlite/.test(place) && text.includes('invalid_api_key')), files.join('\n')).toBe(true);
    expect(findLeaks(texts, SECRETS)).toEqual([]);
  });
});
