/**
 * Sandbox figures: cold start of the built CLI to listening (median of several runs), and requests
 * per second on loopback for GET /ping and for a generation submit-poll-download cycle. The server
 * runs in its own process (the built CLI), so client and server do not share a thread.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { median, type BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const COLD_START_RUNS = 7;
const PING_REQUESTS = 5_000;
const PING_CONCURRENCY = 16;
const CYCLES = 400;
const CYCLE_KEYS = 8;

async function startCli(args: string[]): Promise<{ child: ChildProcess; baseUrl: string; ms: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const ms = performance.now() - started;
  return { child, baseUrl: (JSON.parse(line) as { baseUrl: string }).baseUrl, ms };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function getJson(url: string, key: string, init: RequestInit = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers } });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export async function bench(report: BenchReport): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run node scripts/build.mjs first`);

  const starts: number[] = [];
  for (let i = 0; i < COLD_START_RUNS; i++) {
    const { child, ms } = await startCli([]);
    starts.push(ms);
    await stop(child);
  }
  report.figure(`cold start to listening (median of ${COLD_START_RUNS})`, Math.round(median(starts)), 'ms');

  const keys = Array.from({ length: CYCLE_KEYS }, (_, i) => `csk_sandbox_bench_${i}_key`);
  const { child, baseUrl } = await startCli([
    ...keys.flatMap((key) => ['--key', key]),
    '--rate-limit', '100000000', '--generations-per-day', '100000000', '--generations-per-30-days', '100000000', '--job-seconds', '0',
  ]);
  try {
    let sent = 0;
    const pingStart = performance.now();
    await Promise.all(
      Array.from({ length: PING_CONCURRENCY }, async (_, worker) => {
        while (sent < PING_REQUESTS) {
          sent++;
          const { status } = await getJson(`${baseUrl}/ping`, keys[worker % keys.length]!);
          if (status !== 200) throw new Error(`ping answered ${status}`);
        }
      }),
    );
    const pingSeconds = (performance.now() - pingStart) / 1000;
    report.figure(`GET /ping, ${PING_CONCURRENCY} concurrent`, Math.round(PING_REQUESTS / pingSeconds), 'req/s');

    let cycles = 0;
    const frameworks = ['gdpr', 'hipaa-security', 'nist-csf-2'];
    const cycleStart = performance.now();
    await Promise.all(
      keys.map(async (key, worker) => {
        while (cycles < CYCLES) {
          cycles++;
          const submitted = await getJson(`${baseUrl}/documents/generate`, key, {
            method: 'POST',
            body: JSON.stringify({ framework: frameworks[cycles % frameworks.length], organisation: { name: `Bench ${worker}` } }),
          });
          if (submitted.status !== 202) throw new Error(`generate answered ${submitted.status}: ${JSON.stringify(submitted.body)}`);
          let status = submitted.body.status;
          while (status !== 'completed') {
            const polled = await getJson(`${baseUrl}/jobs/${String(submitted.body.jobId)}`, key);
            status = polled.body.status;
            if (status === 'failed') throw new Error('generation failed');
          }
          const download = await fetch(`${baseUrl}/documents/${String(submitted.body.jobId)}?format=pdf`, { headers: { authorization: `Bearer ${key}` } });
          if (download.status !== 200) throw new Error(`download answered ${download.status}`);
          await download.arrayBuffer();
        }
      }),
    );
    const cycleSeconds = (performance.now() - cycleStart) / 1000;
    report.figure(`generate→poll→download pdf, ${CYCLE_KEYS} keys`, Math.round((CYCLES / cycleSeconds) * 10) / 10, 'cycles/s');
    report.note(`${PING_REQUESTS} pings and ${CYCLES} generation cycles against the built CLI over loopback (server in its own process)`);
  } finally {
    await stop(child);
  }
}
