/**
 * One key floods the built sandbox (its own process) while another key works (issue 25), in two
 * floods. Mapping: two clients of the flooding key send 1.98 M-character mappings back to back for
 * 20 s; the other key pings throughout and, 5 s in, maps 400 characters, timed to its result, beside
 * the same mapping at rest plus one large mapping at rest. Uploads: the flooding key keeps 4 uploads
 * going for 30 s, each a 162 KB DOCX of 47.5 MB of empty paragraphs (under every limit, seconds of
 * reader time); the other key uploads a small DOCX again and again and counts how many were admitted.
 * The flooding key's admitted work and the sandbox's peak memory are reported too. Before both, a
 * flood of bodies alone: two clients of the flooding key send 2 MB mappings naming an unknown
 * framework (404, nothing queued: only reading and parsing the body costs) for 10 s while the other
 * key pings. FAIRNESS_FLOODS (a comma list of bodies, mappings, uploads) runs only those floods.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { constants, deflateRawSync } from 'node:zlib';
import { pingLoop } from '../test/sandbox/pings.js';
import { memoryOf, officePackage, percentile, uploadFile, wordDocumentEntry } from '../test/sandbox/uploadBombs.js';
import type { BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const FLOODING = 'csk_sandbox_bench_flooding';
const OTHER = 'csk_sandbox_bench_other';
const SMALL_TEXT = 'Access to production systems is granted on least privilege and reviewed every quarter by the system owner, with multi-factor authentication for remote access. '.slice(0, 160).repeat(3).slice(0, 400);

function largeText(length: number): string {
  const paragraph = 'Backups of production data are taken daily, encrypted, kept for ninety days and restored in a test every quarter; incidents are reported to the security team within one hour. ';
  return paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);
}

async function post(baseUrl: string, key: string, path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const answer = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/**
 * A flooding client's request: its body encoded once beforehand, so the bench's own event loop, which
 * also times the other key's pings, does not serialise 2 MB for every request.
 */
async function postEncoded(baseUrl: string, key: string, path: string, body: Uint8Array): Promise<number> {
  const answer = await fetch(`${baseUrl}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
  await answer.arrayBuffer();
  return answer.status;
}

/** Maps `text` with `key` and waits for the result: milliseconds from the request to a completed job. */
async function timedMapping(baseUrl: string, key: string, text: string): Promise<number> {
  const started = performance.now();
  const answer = await post(baseUrl, key, '/documents/map', { framework: 'hipaa-security', content: text });
  if (answer.status !== 200 && answer.status !== 202) throw new Error(`mapping answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  let status = answer.body.status;
  while (status !== 'completed') {
    if (status === 'failed') throw new Error(`mapping failed: ${JSON.stringify(answer.body)}`);
    const job = await fetch(`${baseUrl}/jobs/${String(answer.body.jobId)}`, { headers: { authorization: `Bearer ${key}` } });
    status = ((await job.json()) as { status: string }).status;
  }
  return performance.now() - started;
}

const floods = new Set((process.env.FAIRNESS_FLOODS ?? 'bodies,mappings,uploads').split(',').map((name) => name.trim()));

const p99 = (values: number[]) => Math.round(percentile(values, 99) * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const tally = (statuses: number[]) => JSON.stringify(Object.fromEntries([...new Set(statuses)].sort().map((status) => [status, statuses.filter((s) => s === status).length])));

export async function bench(report: BenchReport): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--json', '--job-seconds', '0', '--rate-limit', '1000000', '--key', FLOODING, '--key', OTHER], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', resolve);
      child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
    });
    const { baseUrl } = JSON.parse(line) as { baseUrl: string };
    const large = largeText(1_980_000);

    // At rest: pings, the small mapping, one large mapping.
    const rest = pingLoop(baseUrl, OTHER);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const pingsAtRest = await rest.stop();
    const smallAtRest: number[] = [];
    for (let i = 0; i < 3; i++) smallAtRest.push(await timedMapping(baseUrl, OTHER, SMALL_TEXT));
    const largeAtRest = await timedMapping(baseUrl, OTHER, large);
    const rssAtRest = memoryOf(child.pid!).rss;
    report.figure('fairness: other key ping p99 at rest', p99(pingsAtRest), 'ms');
    report.figure('fairness: 400-char mapping at rest', Math.round(median(smallAtRest)), 'ms');
    report.figure('fairness: 1.98 M-char mapping at rest', Math.round(largeAtRest), 'ms');

    // Flood 0: large bodies only (parsed off the main thread, or refused while the key has enough being parsed).
    if (floods.has('bodies')) {
      const bodyFloodEnds = performance.now() + 10_000;
      const bodyStatuses: number[] = [];
      const unknownFramework = Buffer.from(JSON.stringify({ framework: 'no-such-framework', content: large }));
      const bodyPings = pingLoop(baseUrl, OTHER);
      await Promise.all(
        Array.from({ length: 2 }, async () => {
          while (performance.now() < bodyFloodEnds) bodyStatuses.push(await postEncoded(baseUrl, FLOODING, '/documents/map', unknownFramework));
        }),
      );
      const pingsUnderBodies = await bodyPings.stop();
      report.figure('fairness: other key ping p99 during the 2 MB body flood', p99(pingsUnderBodies), 'ms', '< 100 ms', 'fairness: other key ping p99 at rest');
      report.note(`fairness: 2 MB bodies naming an unknown framework, 2 clients for 10 s: answers to the flooding key ${tally(bodyStatuses)} (404: framework_not_found; 429: its large bodies already being parsed); ${pingsUnderBodies.length} pings of the other key`);
    }

    if (floods.has('mappings')) {
      // Flood 1: mappings.
      const floodMs = 20_000;
      const floodEnds = performance.now() + floodMs;
      const floodStatuses: number[] = [];
      const largeMapping = Buffer.from(JSON.stringify({ framework: 'hipaa-security', content: large }));
      const pings = pingLoop(baseUrl, OTHER);
      const flooders = Array.from({ length: 2 }, async () => {
        while (performance.now() < floodEnds) floodStatuses.push(await postEncoded(baseUrl, FLOODING, '/documents/map', largeMapping));
      });
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      const smallUnderFlood = await timedMapping(baseUrl, OTHER, SMALL_TEXT);
      await Promise.all(flooders);
      const pingsUnderFlood = await pings.stop();
      const peakAfterMappings = memoryOf(child.pid!).peak;
      report.figure('fairness: other key ping p99 during the mapping flood', p99(pingsUnderFlood), 'ms', '< 100 ms', 'fairness: other key ping p99 at rest');
      report.figure('fairness: 400-char mapping during the mapping flood', Math.round(smallUnderFlood), 'ms', `≤ ${Math.round(median(smallAtRest) + largeAtRest)} ms`, {
        name: '400-char mapping at rest + one 1.98 M-char mapping at rest',
        value: Math.round(median(smallAtRest) + largeAtRest),
        unit: 'ms',
      });
      report.figure('fairness: flooding key mappings admitted in 20 s', floodStatuses.filter((s) => s === 200 || s === 202).length, 'mappings');
      report.figure('fairness: sandbox peak RSS after the mapping flood', Math.round(peakAfterMappings / 1024 / 1024), 'MB', undefined, { name: 'RSS at rest', value: Math.round(rssAtRest / 1024 / 1024), unit: 'MB' });
      report.note(`fairness: mapping flood answers to the flooding key ${tally(floodStatuses)} (429: mappings_busy, at most 4 pending per key); ${pingsUnderFlood.length} pings of the other key`);
    }

    if (floods.has('uploads')) {
      // Flood 2: uploads.
      const emptyParagraphs = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p/>'.repeat(Math.floor((47.5 * 1024 * 1024) / 6))}</w:body></w:document>`;
      const data = deflateRawSync(Buffer.from(emptyParagraphs), { level: constants.Z_BEST_COMPRESSION });
      const heavy = officePackage('docx', { data, method: 8, declaredSize: emptyParagraphs.length });
      const smallDocx = officePackage('docx', wordDocumentEntry([SMALL_TEXT]));
      const uploadMs = 30_000;
      const uploadEnds = performance.now() + uploadMs;
      const floodUploads: number[] = [];
      const uploaders = Array.from({ length: 4 }, async () => {
        while (performance.now() < uploadEnds) floodUploads.push((await uploadFile(baseUrl, FLOODING, heavy, 'empty-paragraphs.docx')).status);
      });
      const otherUploads: Array<{ status: number; ms: number }> = [];
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      while (performance.now() < uploadEnds) {
        const answer = await uploadFile(baseUrl, OTHER, smallDocx, 'policy.docx');
        otherUploads.push({ status: answer.status, ms: answer.ms });
      }
      await Promise.all(uploaders);
      const admitted = otherUploads.filter((answer) => answer.status !== 429);
      report.figure('fairness: other key uploads admitted during the upload flood', admitted.length, 'uploads', `= ${otherUploads.length} (all sent)`);
      report.figure('fairness: other key upload answer, median, during the upload flood', Math.round(median(otherUploads.map((answer) => answer.ms))), 'ms');
      report.figure('fairness: sandbox peak RSS after both floods', Math.round(memoryOf(child.pid!).peak / 1024 / 1024), 'MB');
      report.note(`fairness: upload flood of ${Math.round(heavy.length / 1024)} KB DOCX files (${(emptyParagraphs.length / 1024 / 1024).toFixed(1)} MB of XML each): flooding key answers ${tally(floodUploads)}; other key answers ${tally(otherUploads.map((answer) => answer.status))}`);
    }
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
