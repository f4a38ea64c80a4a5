/**
 * Fairness on a loaded machine (issue 37.3): the built sandbox in its own process while busy loops
 * in sessions of their own load the machine (FAIRNESS_LOAD of them, default the cores minus one, so
 * on 2 cores the other core). At rest, the other key's ping p99, its 400-character mapping and its
 * small DOCX upload (each to a completed job). Then for 30 s one key floods from a process of its
 * own: four uploads at a time of a 132 KB DOCX holding 1.4 million empty paragraphs (44 MB of XML,
 * seconds of reader time each) and two clients sending 1.98 M-character mappings; meanwhile the other key pings every 5 ms and
 * maps 400 characters and uploads its small DOCX again and again, and the slowest of each is the
 * figure, beside the one at rest. Last, the sandbox's resident memory a minute after the flood,
 * beside its level before it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, deflateRawSync } from 'node:zlib';
import { startCliSandbox } from '../test/sandbox/builtCli.js';
import { memoryOf, officePackage, percentile, pingLoop, uploadFile, wordDocumentEntry } from '../test/sandbox/uploadBombs.js';
import type { BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const FLOODING = 'csk_sandbox_bench_loaded_flooding';
const OTHER = 'csk_sandbox_bench_loaded_other';
const FLOOD_MS = 30_000;
const SETTLE_MS = 60_000;
const SMALL_TEXT = 'Access to production systems is granted on least privilege and reviewed every quarter by the system owner, with multi-factor authentication for remote access. '.repeat(3).slice(0, 400);
const MB = 1024 * 1024;

/**
 * The flooding key's process: four clients uploading the heavy DOCX and two sending the large
 * mapping, back to back until the time is up; prints the statuses answered, as JSON.
 * Arguments: base URL, key, the folder holding heavy.docx and mapping.json, milliseconds.
 */
const FLOOD_SCRIPT = `
const { readFileSync } = require('node:fs');
const [baseUrl, key, folder, ms] = process.argv.slice(1);
const heavy = readFileSync(folder + '/heavy.docx');
const mapping = readFileSync(folder + '/mapping.json');
const ends = performance.now() + Number(ms);
const answers = { uploads: [], mappings: [] };
async function send(kind, body) {
  while (performance.now() < ends) {
    try {
      const response = await fetch(baseUrl + '/documents/map', { method: 'POST', headers: { authorization: 'Bearer ' + key, ...(typeof body === 'function' ? {} : { 'content-type': 'application/json' }) }, body: typeof body === 'function' ? body() : body });
      await response.arrayBuffer();
      answers[kind].push(response.status);
    } catch (error) {
      // A connection the sandbox closed unanswered is a finding to count, not the flooder's end.
      answers[kind].push(String(error.cause?.code ?? error.cause?.message ?? error.message));
    }
  }
}
function form() {
  const data = new FormData();
  data.set('framework', 'hipaa-security');
  data.set('file', new Blob([heavy]), 'empty-paragraphs.docx');
  return data;
}
Promise.all([...Array.from({ length: 4 }, () => send('uploads', form)), ...Array.from({ length: 2 }, () => send('mappings', mapping))]).then(() => console.log(JSON.stringify(answers)));
`;

function largeText(length: number): string {
  const paragraph = 'Backups of production data are taken daily, encrypted, kept for ninety days and restored in a test every quarter; incidents are reported to the security team within one hour. ';
  return paragraph.repeat(Math.ceil(length / paragraph.length)).slice(0, length);
}

/** The issue's heavy upload: 1.4 million empty paragraphs, each with an empty run. */
function emptyParagraphsDocx(): Uint8Array {
  const xml = `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p><w:r><w:t></w:t></w:r></w:p>'.repeat(1_400_000)}<w:p><w:r><w:t>${SMALL_TEXT}</w:t></w:r></w:p></w:body></w:document>`;
  const data = deflateRawSync(Buffer.from(xml), { level: constants.Z_BEST_COMPRESSION });
  return officePackage('docx', { data, method: 8, declaredSize: xml.length });
}

async function waitForJob(baseUrl: string, key: string, body: Record<string, unknown>): Promise<void> {
  let status = body.status;
  while (status !== 'completed') {
    if (status === 'failed' || typeof body.jobId !== 'string') throw new Error(`job did not complete: ${JSON.stringify(body)}`);
    const job = await fetch(`${baseUrl}/jobs/${body.jobId}`, { headers: { authorization: `Bearer ${key}` } });
    status = ((await job.json()) as { status: string }).status;
  }
}

/** Milliseconds from sending a 400-character mapping to its completed job. */
async function timedMapping(baseUrl: string, key: string): Promise<number> {
  const started = performance.now();
  const answer = await fetch(`${baseUrl}/documents/map`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ framework: 'hipaa-security', content: SMALL_TEXT }) });
  await waitForJob(baseUrl, key, (await answer.json()) as Record<string, unknown>);
  return performance.now() - started;
}

/** Milliseconds from sending a small DOCX to its completed mapping job. */
async function timedUpload(baseUrl: string, key: string, docx: Uint8Array): Promise<number> {
  const started = performance.now();
  const answer = await uploadFile(baseUrl, key, docx, 'policy.docx');
  await waitForJob(baseUrl, key, answer.body);
  return performance.now() - started;
}

/** Busy loops in sessions of their own (as other users' processes are), until killed. */
function loadMachine(count: number): ChildProcess[] {
  return Array.from({ length: count }, () => spawn(process.execPath, ['-e', 'for (;;);'], { detached: true, stdio: 'ignore' }));
}

const p99 = (values: number[]) => Math.round(percentile(values, 99) * 10) / 10;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const tally = (statuses: Array<number | string>) => JSON.stringify(Object.fromEntries([...new Set(statuses)].sort().map((status) => [status, statuses.filter((s) => s === status).length])));
const megabytes = (bytes: number) => Math.round(bytes / MB);

/**
 * FAIRNESS_BEFORE_CLI: the compliance.cjs of another build (say the code before a change, built in a
 * copy of the repository) measured first, in the same run and under the same load, its figures
 * named "(before)". FAIRNESS_ARENA_MAX: this build measured again with the sandbox process under that
 * MALLOC_ARENA_MAX (glibc arenas; it must be set before the process starts), named by it.
 */
export async function bench(report: BenchReport): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);
  const builds: Array<[cli: string, label: string, env: Record<string, string>]> = [[CLI, 'loaded fairness', {}]];
  if (process.env.FAIRNESS_BEFORE_CLI) builds.unshift([process.env.FAIRNESS_BEFORE_CLI, 'loaded fairness (before)', {}]);
  // The same build again with the sandbox process's glibc arenas capped, beside the figures without.
  const arenaMax = process.env.FAIRNESS_ARENA_MAX;
  if (arenaMax) builds.push([CLI, `loaded fairness, MALLOC_ARENA_MAX=${arenaMax}`, { MALLOC_ARENA_MAX: arenaMax }]);
  // Busy loops in sessions of their own: ended at the end, whatever happens.
  const loops = loadMachine(Number(process.env.FAIRNESS_LOAD ?? Math.max(1, availableParallelism() - 1)));
  try {
    for (const [cli, label, env] of builds) await measure(report, cli, label, env, loops.length);
  } finally {
    for (const loop of loops) loop.kill('SIGKILL');
  }
}

async function measure(report: BenchReport, cli: string, label: string, env: Record<string, string>, busyLoops: number): Promise<void> {
  const { child, announced } = await startCliSandbox(cli, ['--job-seconds', '0', '--rate-limit', '1000000', '--key', FLOODING, '--key', OTHER], env);
  const { baseUrl } = announced;
  let flooder: ChildProcess | undefined;
  try {
    const heavy = emptyParagraphsDocx();
    const smallDocx = officePackage('docx', wordDocumentEntry([SMALL_TEXT]));

    // At rest (the busy loops running): warm the workers, then the other key's three figures.
    await timedUpload(baseUrl, OTHER, smallDocx);
    const restPings = pingLoop(baseUrl, OTHER);
    const mappingsAtRest: number[] = [];
    const uploadsAtRest: number[] = [];
    for (let i = 0; i < 5; i++) {
      mappingsAtRest.push(await timedMapping(baseUrl, OTHER));
      uploadsAtRest.push(await timedUpload(baseUrl, OTHER, smallDocx));
    }
    const pingsAtRest = await restPings.stop();
    const mappingAtRest = median(mappingsAtRest);
    const uploadAtRest = median(uploadsAtRest);
    const rssBefore = memoryOf(child.pid!).rss;
    report.figure(`${label}: other key ping p99 at rest`, p99(pingsAtRest), 'ms');
    report.figure(`${label}: 400-char mapping at rest (median)`, Math.round(mappingAtRest), 'ms');
    report.figure(`${label}: small DOCX upload at rest (median)`, Math.round(uploadAtRest), 'ms');

    // The flood, from a process of its own (as an attacker's is: the other key's timings share no
    // event loop with it), which stops by itself when its time is up.
    const payloads = mkdtempSync(join(tmpdir(), 'bench-flood-'));
    writeFileSync(join(payloads, 'heavy.docx'), heavy);
    writeFileSync(join(payloads, 'mapping.json'), JSON.stringify({ framework: 'hipaa-security', content: largeText(1_980_000) }));
    const flooding = spawn(process.execPath, ['-e', FLOOD_SCRIPT, baseUrl, FLOODING, payloads, String(FLOOD_MS)], { detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
    flooder = flooding;
    const floodAnswers = new Promise<string>((resolve) => {
      let out = '';
      flooding.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
      flooding.once('close', () => resolve(out.trim()));
    });
    const floodEnds = performance.now() + FLOOD_MS;
    const pings = pingLoop(baseUrl, OTHER);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const mappingsUnderFlood: number[] = [];
    const uploadsUnderFlood: number[] = [];
    while (performance.now() < floodEnds) {
      mappingsUnderFlood.push(await timedMapping(baseUrl, OTHER));
      uploadsUnderFlood.push(await timedUpload(baseUrl, OTHER, smallDocx));
    }
    const pingsUnderFlood = await pings.stop();
    const { uploads: uploadStatuses, mappings: mappingStatuses } = JSON.parse(await floodAnswers) as { uploads: Array<number | string>; mappings: Array<number | string> };
    rmSync(payloads, { recursive: true, force: true });
    const peak = memoryOf(child.pid!).peak;
    report.figure(`${label}: other key ping p99 during the flood`, p99(pingsUnderFlood), 'ms', '< 100 ms', `${label}: other key ping p99 at rest`);
    report.figure(`${label}: 400-char mapping during the flood (slowest)`, Math.round(Math.max(...mappingsUnderFlood)), 'ms', `≤ ${Math.round(mappingAtRest + 1_000)} ms`, {
      name: 'at rest + 1 s',
      value: Math.round(mappingAtRest + 1_000),
      unit: 'ms',
    });
    report.figure(`${label}: small DOCX upload during the flood (slowest)`, Math.round(Math.max(...uploadsUnderFlood)), 'ms', `≤ ${Math.round(uploadAtRest + 1_000)} ms`, {
      name: 'at rest + 1 s',
      value: Math.round(uploadAtRest + 1_000),
      unit: 'ms',
    });
    report.note(
      `${label}: ${busyLoops} busy loop(s); flood answers to the flooding key: uploads ${tally(uploadStatuses)}, mappings ${tally(mappingStatuses)}; ` +
        `other key: ${pingsUnderFlood.length} pings, mappings ${mappingsUnderFlood.map(Math.round).join(', ')} ms, uploads ${uploadsUnderFlood.map(Math.round).join(', ')} ms; heavy upload ${Math.round(heavy.length / 1024)} KB; peak RSS ${megabytes(peak)} MB`,
    );

    // Memory after the flood: sampled each second for a minute.
    const settled = performance.now() + SETTLE_MS;
    let rssAfter = memoryOf(child.pid!).rss;
    let backAfterMs: number | undefined;
    const floodOver = performance.now();
    while (performance.now() < settled) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      rssAfter = memoryOf(child.pid!).rss;
      if (backAfterMs === undefined && rssAfter <= rssBefore * 1.5) backAfterMs = performance.now() - floodOver;
    }
    report.figure(`${label}: sandbox RSS a minute after the flood`, megabytes(rssAfter), 'MB', `≤ ${megabytes(rssBefore * 1.5)} MB`, { name: '1.5 × RSS before the flood', value: megabytes(rssBefore * 1.5), unit: 'MB' });
    report.note(`${label}: sandbox MALLOC_ARENA_MAX ${env.MALLOC_ARENA_MAX ?? process.env.MALLOC_ARENA_MAX ?? "unset (glibc's default)"}; RSS before the flood ${megabytes(rssBefore)} MB; back under 1.5× ${backAfterMs === undefined ? 'not within the minute' : `${(backAfterMs / 1000).toFixed(0)} s after the flood's requests were answered`}`);
  } finally {
    // The flooder first: a measurement that failed mid-flood stops the sandbox, and its in-flight
    // requests would end as connections closed unanswered, hiding the failure itself.
    flooder?.kill('SIGKILL');
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}
