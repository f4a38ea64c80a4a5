/**
 * Upload bombs against the built sandbox (`compliance sandbox`, its own process, so its RSS is its
 * own): each bomb, generated here, is uploaded while a second key pings in a loop. Every bomb must
 * get a 4xx envelope naming the limit it crossed; the bombs are read off the event loop (the other
 * key's pings are answered while a bomb is read: their latency is a figure of bench/uploadAttack.ts,
 * not asserted here); the sandbox's peak RSS must stay under 1 GB; and real documents must still be
 * read afterwards. The time limit is proven in-process with a half-second limit, so the suite stays fast.
 */
import type { ChildProcess } from 'node:child_process';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderDocx, renderPdf } from '../../sandbox/formats/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { samplePolicy } from '../formats/sampleModels.js';
import { client, envelope, policyText, sandbox, SANDBOX_KEY } from './helpers.js';
import { copyOfBuiltCli, startCliSandbox, type BuiltCli } from './builtCli.js';
import { latencies, shareAnsweredDuring } from './pings.js';
import { buildBombs, memoryOf, nestedArchiveDocx, pdfWith, percentile, plainPdf, runAttack, uploadFile, type Bomb } from './uploadBombs.js';

const ATTACKER = 'csk_sandbox_attacker_0001';
const BYSTANDER = 'csk_sandbox_bystander_0001';
const GB = 1024 * 1024 * 1024;

let built: BuiltCli;
let child: ChildProcess;
let baseUrl: string;
let bombs: Bomb[];
const upload = (bytes: Uint8Array, filename: string) => uploadFile(baseUrl, ATTACKER, bytes, filename);

beforeAll(async () => {
  built = copyOfBuiltCli();
  bombs = await buildBombs();
  const started = await startCliSandbox(built.cli, ['--job-seconds', '0', '--rate-limit', '100000', '--key', ATTACKER, '--key', BYSTANDER]);
  child = started.child;
  baseUrl = started.announced.baseUrl;
}, 180_000);

afterAll(() => {
  if (child && child.exitCode === null) child.kill('SIGTERM');
  built?.remove();
});

describe('upload bombs against the built sandbox', () => {
  it('are each refused with a 4xx naming the limit, read off the event loop (another key is answered meanwhile), RSS under 1 GB', async () => {
    for (const bomb of bombs) expect(bomb.inflatesTo, bomb.name).toBeGreaterThan(bomb.limit === 'extracted_characters' ? 20 * 2_000_000 : 5 * 50 * 1024 * 1024);
    const attack = await runAttack({ baseUrl, pid: child.pid!, attacker: ATTACKER, bystander: BYSTANDER, bombs });
    const results = attack.answers.map(({ bomb, answer }) => ({ bomb, status: answer.status, code: answer.body.error?.code, limit: answer.body.error?.limit, message: answer.body.error?.message, ms: answer.ms }));
    const { atRest, underAttack, peakRss: peak } = attack;
    const p99 = (pings: typeof atRest) => Math.round(percentile(latencies(pings), 99) * 10) / 10;
    const during = shareAnsweredDuring(underAttack, attack.answers);
    console.log(`ping p99 at rest ${p99(atRest)} ms (${atRest.length} pings); under attack ${p99(underAttack)} ms (${underAttack.length} pings); ${during.sent} sent while a bomb was read, ${Math.round(during.share * 100)}% answered before it`);
    console.log(`sandbox peak RSS ${Math.round(peak / 1024 / 1024)} MB`);
    for (const r of results) console.log(`${r.bomb.name} (${(r.bomb.bytes.length / 1024).toFixed(0)} KB → ${Math.round(r.bomb.inflatesTo / 1024 / 1024)} MB): ${r.status} ${r.code} limit=${r.limit} in ${Math.round(r.ms)} ms`);

    for (const r of results) {
      expect([413, 422], `${r.bomb.name}: ${r.status} ${r.message}`).toContain(r.status);
      expect(r.limit, r.bomb.name).toBe(r.bomb.limit);
      expect(r.message, r.bomb.name).toMatch(/\(limit: /);
    }
    // Read on the event loop, a bomb would hold every ping sent while it is read until it is answered.
    expect(during.sent).toBeGreaterThan(attack.answers.length);
    expect(during.share).toBeGreaterThan(0.5);
    expect(peak).toBeLessThan(GB);
  }, 120_000);

  it('queues a burst and refuses what does not fit with 429 uploads_busy and Retry-After', async () => {
    const burst = await Promise.all([...bombs, ...bombs].map((bomb) => upload(bomb.bytes, bomb.filename)));
    const busy = burst.filter((answer) => answer.status === 429);
    expect(busy.length).toBeGreaterThan(0);
    for (const answer of busy) {
      expect(answer.body.error?.code).toBe('uploads_busy');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    for (const answer of burst.filter((a) => a.status !== 429)) expect([413, 422]).toContain(answer.status);
    expect(memoryOf(child.pid!).peak).toBeLessThan(GB);
  }, 120_000);

  it('does not open archives nested inside a document: the document itself is read', async () => {
    const nested = await nestedArchiveDocx(['Access to systems is granted on least privilege and reviewed quarterly by system owners.', 'Multi-factor authentication is required for remote access.']);
    const answer = await upload(nested.bytes, 'with-embedding.docx');
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
  }, 60_000);

  it('still reads real documents after the attack (workers replaced after each kill)', async () => {
    const model = samplePolicy(20);
    for (const [bytes, filename] of [
      [renderDocx(model), 'policy.docx'],
      [renderPdf(model), 'policy.pdf'],
      [plainPdf(policyText('plain pdf')), 'plain.pdf'],
      [new TextEncoder().encode(policyText('text')), 'policy.md'],
    ] as const) {
      const answer = await upload(bytes, filename);
      expect(answer.status, `${filename}: ${JSON.stringify(answer.body)}`).toBe(202);
    }
  }, 60_000);
});

describe('the extraction time limit', () => {
  let box: RunningSandbox;
  beforeAll(async () => {
    box = await sandbox({ uploads: { size: 1, limits: { maxSeconds: 0.5 } } });
  });
  afterAll(() => box?.close());

  it('stops a PDF that is slow to read (under the byte and character limits) with 422 naming the limit, not before it is crossed', async () => {
    // 45 MB of graphics-state operators: under 50 MB inflated, no text at all, seconds of pdf.js even on
    // a quiet machine (30 MB once finished inside a 2 s limit there), against a limit of half a second.
    const operators = Buffer.from('q 1 0 0 1 0 0 cm Q\n'.repeat((45 * 1024 * 1024) / 19), 'latin1');
    const slow = pdfWith({ dictionary: '/Filter /FlateDecode', data: deflateSync(operators) });
    const call = client(box, SANDBOX_KEY);
    const form = new FormData();
    form.set('framework', 'hipaa-security');
    form.set('file', new Blob([slow]), 'slow.pdf');
    const started = performance.now();
    const answer = await call('POST', '/documents/map', { rawBody: form });
    const ms = performance.now() - started;
    const error = envelope(answer, 422, 'extraction_timeout');
    expect(error.limit).toBe('extraction_seconds');
    expect(error.message).toContain('0.5 s');
    console.log(`slow PDF refused after ${Math.round(ms)} ms (limit 0.5 s)`);
    // The limit counts from when the worker takes the upload, so never less than the limit; how much
    // more (a worker's start from the TS sources, the machine's load) is not this test's to bound.
    expect(ms).toBeGreaterThanOrEqual(500);

    const next = new FormData();
    next.set('framework', 'hipaa-security');
    next.set('file', new Blob([renderPdf(samplePolicy(5))]), 'after.pdf');
    expect((await call('POST', '/documents/map', { rawBody: next })).status).toBe(202);
  }, 60_000);
});
