/**
 * The README's shell examples run as written (issue 21), in a folder shaped like this checkout (its
 * package.json, so `npx compliance` runs the root bin, the built dist/ and a copy of examples/):
 * - "Against the real service", each line against a live-mode sandbox key given as the README says
 *   (COMPLIANCE_BASE_URL and COMPLIANCE_API_KEY exported);
 * - "The sandbox", as one bash script, which must leave no server behind once it has run its `kill $!`.
 * The README's lines are read from the file, not copied here; only `<host>` and `<key>` are filled in.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { balance, buildCli, liveSandbox, LIVE_KEY, ROOT } from '../cli/helpers.js';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The ```sh block that follows a heading or sentence containing `after`. */
function shellBlock(after: string): string[] {
  const start = README.indexOf(after);
  expect(start, `README.md no longer contains "${after}"`).toBeGreaterThan(-1);
  const block = /```sh\n([\s\S]*?)```/.exec(README.slice(start));
  return (block?.[1] ?? '').split('\n').filter((line) => line.trim() !== '');
}

function run(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, NO_COLOR: '1', npm_config_yes: 'false', ...env } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Whether something accepts connections on 127.0.0.1:port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

let checkout: string;
let box: RunningSandbox;

beforeAll(async () => {
  buildCli();
  checkout = mkdtempSync(join(tmpdir(), 'readme-'));
  cpSync(join(ROOT, 'package.json'), join(checkout, 'package.json'));
  cpSync(join(ROOT, 'examples'), join(checkout, 'examples'), { recursive: true });
  symlinkSync(join(ROOT, 'dist'), join(checkout, 'dist'), 'dir');
  box = await liveSandbox(50_000_000);
});
afterAll(async () => box?.close());

describe('README: against the real service', () => {
  const lines = shellBlock('Against the real service');
  const env = () => ({ COMPLIANCE_BASE_URL: box.baseUrl, COMPLIANCE_API_KEY: LIVE_KEY });
  const line = (pattern: RegExp) => {
    const found = lines.find((text) => pattern.test(text));
    expect(found, `README line ${pattern}`).toBeDefined();
    return found as string;
  };

  it('exports the two variables it documents', () => {
    expect(lines[0]).toBe('export COMPLIANCE_BASE_URL=https://<host>/api/public/v1 COMPLIANCE_API_KEY=<key>');
  });

  it('ping names the key mode', async () => {
    const result = await run(line(/compliance ping/), checkout, env());
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/live/);
  });

  it('review --dry-run prices the examples and spends nothing', async () => {
    const before = await balance(box);
    const result = await run(line(/review .*--dry-run/), checkout, env());
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/400,000/);
    expect(await balance(box)).toBe(before);
  });

  it('review --max-tokens 2000000 refuses the 3.2M-token first sync before spending', async () => {
    const before = await balance(box);
    const result = await run(line(/review .*--max-tokens 2000000/), checkout, env());
    expect(result.code, result.output).not.toBe(0);
    expect(result.output).toMatch(/2,000,000/);
    expect(await balance(box)).toBe(before);
  });

  it('generate writes the PDF it names', async () => {
    const result = await run(line(/compliance generate/), checkout, env());
    expect(result.code, result.output).toBe(0);
    expect(readFileSync(join(checkout, 'policy.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('library ingest --dry-run prices each of the eight example policies', async () => {
    const before = await balance(box);
    const result = await run(line(/library ingest/), checkout, env());
    expect(result.code, result.output).toBe(0);
    expect(result.output.match(/400,000/g)?.length).toBeGreaterThanOrEqual(8);
    expect(await balance(box)).toBe(before);
  });
});

describe('README: the sandbox', () => {
  it('runs as one script and leaves no server listening after its kill $!', { timeout: 60_000 }, async () => {
    const script = shellBlock('## The sandbox').join('\n');
    const port = Number(/--port (\d+)/.exec(script)?.[1]);
    expect(await listening(port), `port ${port} is taken before the README's script runs`).toBe(false);
    rmSync(join(checkout, 'policy.pdf'), { force: true });
    const result = await run(`set -e\n${script}`, checkout, {});
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/"status":"completed"/);
    expect(statSync(join(checkout, 'policy.pdf')).size).toBeGreaterThan(1000);
    // The sandbox notices within a second that the npx which started it is gone; poll until the port closes.
    const deadline = Date.now() + 10_000;
    while ((await listening(port)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listening(port), `the README's sandbox still listens on ${port} after kill $!`).toBe(false);
  });
});
