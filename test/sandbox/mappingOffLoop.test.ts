/**
 * Mapping runs off the server's event loop. Against the built sandbox (its own process): a mapping
 * of about 2,000,000 characters, the JSON limit, while a second key pings in a loop; the pings sent
 * while it maps are answered before it completes (their latency is a figure of
 * bench/sandboxFairness.ts, not asserted here) and the report is byte for byte what mapText gives. Against the job store: work
 * prepared at admission settles a due job exactly once when it arrives, a failed preparation fails
 * and refunds the job, and a job with no preparation in memory (admitted by an earlier process)
 * prepares again on demand.
 */
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFramework } from '../../sandbox/catalogue/index.js';
import { mapText } from '../../sandbox/mapping/index.js';
import { createMappingPool, MappingLimit } from '../../sandbox/mapping/mappingPool.js';
import { openDatabase, transaction } from '../../sandbox/server/database.js';
import { JobFailure, Jobs, type JobWorker } from '../../sandbox/server/jobs.js';
import type { JobKind, JobRecord } from '../../sandbox/server/jobStore.js';
import { createJobWorkers, type MappingJobInput } from '../../sandbox/server/workers.js';
import { copyOfBuiltCli, startCliSandbox, type BuiltCli } from './builtCli.js';
import { policyText } from './helpers.js';
import { latencies, shareAnsweredDuring, steadyPings } from './pings.js';
import { percentile } from './uploadBombs.js';

const MAPPER = 'csk_sandbox_mapper_0001';
const BYSTANDER = 'csk_sandbox_bystander_0001';

/** Policy-like text of `length` characters (ASCII, so the JSON body stays under its 2 MB limit). */
function policySet(length: number): string {
  const parts: string[] = [];
  let total = 0;
  for (let section = 1; total < length; section++) {
    const part = `=== FILE: policies/section-${section}.md ===\n${policyText(`section ${section}`)}\n\n`;
    parts.push(part);
    total += part.length;
  }
  return parts.join('').slice(0, length);
}

describe('a 2,000,000-character mapping against the built sandbox', () => {
  let built: BuiltCli;
  let child: ChildProcess;
  let baseUrl: string;

  beforeAll(async () => {
    built = copyOfBuiltCli();
    const started = await startCliSandbox(built.cli, ['--job-seconds', '0', '--rate-limit', '100000', '--key', MAPPER, '--key', BYSTANDER]);
    child = started.child;
    baseUrl = started.announced.baseUrl;
  }, 180_000);

  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    built?.remove();
  });

  it('answers another key’s pings while it maps, and reports what mapText gives', async () => {
    const text = policySet(1_990_000);
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${MAPPER}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return { status: response.status, text: await response.text() };
    };
    /** The job's id, final status, and when the answer saying so arrived (the 202 itself when the job was due at once). */
    const mapped = async (content: string) => {
      const submitted = await call('POST', '/documents/map', { framework: 'hipaa-security', content });
      let settledAt = performance.now();
      expect(submitted.status, submitted.text).toBe(202);
      const answer = JSON.parse(submitted.text) as { jobId: string; status: string };
      const jobId = answer.jobId;
      let status = answer.status;
      while (status === 'queued' || status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 50));
        status = (JSON.parse((await call('GET', `/jobs/${jobId}`)).text) as { status: string }).status;
        settledAt = performance.now();
      }
      return { jobId, status, settledAt };
    };
    // A first small mapping loads what any first request loads and starts the mapping worker.
    expect((await mapped(policySet(5_000))).status).toBe('completed');
    const rest = steadyPings(baseUrl, BYSTANDER);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const atRest = await rest.stop();

    const pings = steadyPings(baseUrl, BYSTANDER);
    const started = performance.now();
    const { jobId, status, settledAt } = await mapped(text);
    const jobMs = settledAt - started;
    const underMapping = await pings.stop();
    const during = shareAnsweredDuring(underMapping, [{ from: started, to: settledAt }]);
    const p99 = (values: typeof atRest) => Math.round(percentile(latencies(values), 99) * 10) / 10;
    console.log(`ping p99 at rest ${p99(atRest)} ms (${atRest.length} pings); while mapping ${text.length.toLocaleString('en-US')} characters ${p99(underMapping)} ms (${underMapping.length} pings, ${during.sent} sent before it completed, ${Math.round(during.share * 100)}% answered before it); job done in ${Math.round(jobMs)} ms`);
    expect(status).toBe('completed');

    const download = await call('GET', `/documents/${jobId}?format=json`);
    expect(download.status).toBe(200);
    const report = JSON.parse(download.text) as { jobId: string; mode: string; generatedAt: string; coverage: number };
    const framework = findFramework('hipaa-security')!;
    const expected = mapText({ text, framework: { slug: framework.slug, name: framework.name, version: framework.version, controls: framework.controls! } });
    expect(report.coverage).toBeGreaterThan(0);
    expect(download.text).toBe(JSON.stringify({ ...expected, jobId, mode: 'sandbox', generatedAt: report.generatedAt }));

    // With job seconds 0 the job completes when its mapping does: mapped on the event loop (at
    // admission or at a poll), the mapping would hold every ping sent meanwhile until it ended.
    expect(during.sent).toBeGreaterThan(20);
    expect(during.share).toBeGreaterThan(0.5);
  }, 120_000);
});

describe('jobs whose work is prepared off the event loop', () => {
  /** A mapping worker whose preparation the test resolves or rejects by hand. */
  function harness(jobMs: number) {
    const db = openDatabase(undefined);
    let now = 1_000_000;
    const gates: Array<{ job: JobRecord; resolve(value: unknown): void; reject(error: unknown): void }> = [];
    const completions: string[] = [];
    const refunds: Array<{ id: string; reason: string }> = [];
    const failed: string[] = [];
    const mapping: JobWorker = {
      prepare: (job) => new Promise((resolve, reject) => gates.push({ job, resolve, reject })),
      complete(job, _now, prepared) {
        completions.push(job.id);
        return { prepared };
      },
      failed: (job) => void failed.push(job.id),
    };
    const unused: JobWorker = { complete: () => null };
    const workers: Record<JobKind, JobWorker> = { mapping, generation: unused, library_ingest: unused, library_refresh: unused };
    const open = () => new Jobs(db, workers, (job, reason) => void refunds.push({ id: job.id, reason }), () => now, jobMs);
    const jobs = open();
    const admit = (target = jobs) =>
      transaction(db, () => target.create({ keyHash: 'key', kind: 'mapping', input: { text: 'policy' }, chargedTokens: 7, failOnRun: false, now }));
    const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
    return { db, jobs, open, admit, gates, completions, refunds, failed, tick, now: () => now, advance: (ms: number) => (now += ms) };
  }

  it('keeps a due job running until its work arrives, then completes it once with that work', async () => {
    const h = harness(0);
    const job = h.admit();
    expect(h.gates).toHaveLength(1);
    expect(h.jobs.status(h.jobs.get('key', job.id)!, h.now())).toBe('running');
    expect(h.completions).toEqual([]);
    h.gates[0]!.resolve('the mapping');
    await h.tick();
    const done = h.jobs.get('key', job.id)!;
    expect(done).toMatchObject({ finalStatus: 'completed', result: { prepared: 'the mapping' } });
    h.jobs.get('key', job.id);
    h.jobs.settleDue('key', Number.MAX_SAFE_INTEGER);
    expect(h.completions).toEqual([job.id]);
    expect(h.gates).toHaveLength(1);
    h.jobs.close();
  });

  it('settles a job that is not yet due when it becomes due, with work prepared before', async () => {
    const h = harness(4_000);
    const job = h.admit();
    h.gates[0]!.resolve('early');
    await h.tick();
    expect(h.jobs.get('key', job.id)!.finalStatus).toBeNull();
    h.advance(4_000);
    expect(h.jobs.get('key', job.id)).toMatchObject({ finalStatus: 'completed', result: { prepared: 'early' } });
    expect(h.completions).toEqual([job.id]);
    h.jobs.close();
  });

  it('answers a poll of a due job once its work arrives (settled waits for it)', async () => {
    const h = harness(0);
    const job = h.admit();
    const poll = h.jobs.settled('key', job.id);
    setTimeout(() => h.gates[0]!.resolve('waited for'), 30);
    expect(await poll).toMatchObject({ finalStatus: 'completed', result: { prepared: 'waited for' } });
    // Within the wait only: past it the poll answers with the job still running.
    const second = h.admit();
    expect((await h.jobs.settled('key', second.id, 20))!.finalStatus).toBeNull();
    h.jobs.close();
  });

  it('fails a job whose work failed, with its reason, and refunds it once', async () => {
    const h = harness(0);
    const job = h.admit();
    h.gates[0]!.reject(new JobFailure('mapping_too_large', 'Mapping the document took longer than 30 s (limit: mapping seconds).'));
    await h.tick();
    expect(h.jobs.get('key', job.id)).toMatchObject({ finalStatus: 'failed', errorCode: 'mapping_too_large', errorMessage: expect.stringContaining('(limit: mapping seconds)') });
    h.jobs.get('key', job.id);
    expect(h.refunds).toEqual([{ id: job.id, reason: expect.stringContaining('limit: mapping seconds') }]);
    expect(h.failed).toEqual([job.id]);
    expect(h.completions).toEqual([]);
    h.jobs.close();
  });

  it('prepares again, on demand, a due job whose work is not in memory (admitted by an earlier process)', async () => {
    const h = harness(0);
    const job = h.admit();
    h.jobs.close();
    // A new job store over the same database: the earlier one's preparation is gone with it.
    const later = h.open();
    expect(later.get('key', job.id)!.finalStatus).toBeNull();
    expect(h.gates).toHaveLength(2);
    later.get('key', job.id);
    expect(h.gates).toHaveLength(2);
    h.gates[0]!.resolve('from the earlier process');
    h.gates[1]!.resolve('again');
    await h.tick();
    expect(later.get('key', job.id)).toMatchObject({ finalStatus: 'completed', result: { prepared: 'again' } });
    expect(h.completions).toEqual([job.id]);
    later.close();
  });

  it('stops a mapping over its time limit, naming the limit, and fails its job with mapping_too_large', async () => {
    const framework = findFramework('hipaa-security')!;
    const pool = createMappingPool({ size: 1, limits: { maxSeconds: 0.05 } });
    const error = (await pool.run({ text: policySet(1_990_000), framework: { slug: framework.slug, name: framework.name, version: framework.version, controls: framework.controls! } }).catch((e: unknown) => e)) as MappingLimit;
    await pool.close();
    expect(error).toBeInstanceOf(MappingLimit);
    expect(error.limit).toBe('mapping_seconds');
    const workers = createJobWorkers({ library: undefined as never, indexMaintenance: undefined as never, mapping: { run: () => Promise.reject(error), pending: () => 0 } });
    const input: MappingJobInput = { mode: 'sandbox', frameworkSlug: 'hipaa-security', text: 'policy' };
    await expect(workers.mapping.prepare!({ id: 'job', input } as JobRecord)).rejects.toMatchObject({
      code: 'mapping_too_large',
      message: expect.stringContaining('longer than 0.05 s (limit: mapping seconds)'),
    });
  });

  it('closing the pool answers the mapping it is running (the sandbox stopping mid-job)', async () => {
    const framework = findFramework('hipaa-security')!;
    const pool = createMappingPool({ size: 1 });
    const running = pool.run({ text: policySet(1_990_000), framework: { slug: framework.slug, name: framework.name, version: framework.version, controls: framework.controls! } }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await pool.close();
    expect(await running).toMatchObject({ message: 'The sandbox is stopping.' });
  });
});
