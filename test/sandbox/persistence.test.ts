/**
 * State in --data DIR survives a clean restart and a kill -9 of the `compliance sandbox` process:
 * every acknowledged write is there afterwards, and a job in flight at the crash is failed and
 * refunded on start.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, LIVE_KEY, sandbox } from './helpers.js';

const CLI = 'dist/cli/compliance.cjs';
const dirs: string[] = [];
const children: ChildProcess[] = [];

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-data-'));
  dirs.push(dir);
  return dir;
}

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'cli'], { stdio: 'pipe' });
}, 120_000);
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts the built CLI and resolves with its --json announcement. */
async function startCli(args: string[]): Promise<{ child: ChildProcess; baseUrl: string; origin: string }> {
  const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  const { baseUrl } = JSON.parse(firstLine) as { baseUrl: string };
  return { child, baseUrl, origin: new URL(baseUrl).origin };
}

async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

describe('persistence', () => {
  it('keeps balance, ledger, settings and jobs across a clean restart', async () => {
    const dir = dataDir();
    const keys = [`${LIVE_KEY}:live:5000000`];
    let box = await sandbox({ dataDir: dir, keys });
    let call = client(box, LIVE_KEY);
    await call('POST', '/frameworks/suggest', { body: { query: 'privacy' } });
    await call('PUT', '/calendar', { body: { cadence: 'quarterly', firstReviewAt: '2030-01-01T00:00:00Z' } });
    await call('PUT', '/billing/auto-topup', { body: { enabled: true, thresholdTokens: 100_000, pack: 'pack50' } });
    const before = (await call('GET', '/billing')).body;
    await box.close();

    box = await sandbox({ dataDir: dir, keys });
    call = client(box, LIVE_KEY);
    const after = (await call('GET', '/billing')).body;
    expect(after.balanceTokens).toBe(before.balanceTokens);
    expect(after.ledger).toEqual(before.ledger);
    expect(after.autoTopUp).toEqual({ enabled: true, thresholdTokens: 100_000, pack: 'pack50' });
    expect((await call('GET', '/calendar')).body).toMatchObject({ cadence: 'quarterly', nextReviewAt: '2030-01-01T00:00:00.000Z' });
    await box.close();
  });

  it('loses no acknowledged write to kill -9, and fails and refunds the job in flight', async () => {
    const dir = dataDir();
    const key = `${LIVE_KEY}:live:5000000`;
    const first = await startCli(['--data', dir, '--key', key, '--job-seconds', '600']);
    const call = client({ baseUrl: first.baseUrl } as never, LIVE_KEY);
    for (let i = 0; i < 5; i++) expect((await call('POST', '/frameworks/suggest', { body: { query: `q${i}` } })).status).toBe(200);
    expect((await call('PUT', '/calendar', { body: { cadence: 'monthly', firstReviewAt: '2030-02-01T00:00:00Z' } })).status).toBe(200);
    const checkout = await call('POST', '/billing/checkout', { body: { pack: 'pack10' } });
    expect((await fetch(`${checkout.body.url}/pay`, { method: 'POST' })).status).toBe(200);
    const job = await call('POST', '/documents/generate', { body: { framework: 'gdpr' } });
    expect(job.status).toBe(202);
    const acknowledged = (await call('GET', '/billing')).body;
    await kill9(first.child);

    const second = await startCli(['--data', dir, '--key', key]);
    const again = client({ baseUrl: second.baseUrl } as never, LIVE_KEY);
    const failed = await again('GET', `/jobs/${job.body.jobId}`);
    expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'interrupted' } });
    const billing = (await again('GET', '/billing')).body;
    const price = acknowledged.prices.generateDocument as number;
    expect(billing.balanceTokens).toBe(acknowledged.balanceTokens + price);
    expect(billing.ledger.slice(1)).toEqual(acknowledged.ledger);
    expect(billing.ledger[0]).toMatchObject({ operation: 'refund', tokens: price, reference: job.body.jobId });
    expect((await again('GET', '/calendar')).body.nextReviewAt).toBe('2030-02-01T00:00:00.000Z');
    await kill9(second.child);
  }, 60_000);

  it('closes cleanly on SIGTERM and prints the text announcement', async () => {
    const child = spawn(process.execPath, [CLI, 'sandbox', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const lines: string[] = [];
    const reader = createInterface({ input: child.stdout! });
    await new Promise<void>((resolve) => {
      reader.on('line', (line) => {
        lines.push(line);
        if (line.startsWith('API key:')) resolve();
      });
    });
    expect(lines[0]).toMatch(/^Sandbox listening at http:\/\/127\.0\.0\.1:\d+\/api\/public\/v1$/);
    expect(lines[1]).toMatch(/^API key: csk_sandbox_\w+ \(sandbox\)$/);
    const code = await new Promise<number | null>((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    expect(code).toBe(0);
  }, 30_000);
});
