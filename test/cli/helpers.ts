/** End-to-end helpers: the BUILT CLI as a subprocess, a live-mode sandbox on loopback, a temp repo. */
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';

export const ROOT = resolve(__dirname, '../..');
export const CLI = join(ROOT, 'dist/cli/compliance.cjs');
export const LIVE_KEY = 'csk_live_clie2e_secret_0001';
export const PRICE = 400_000;

let built = false;
export function buildCli(): void {
  if (built) return;
  execFileSync(process.execPath, ['scripts/build.mjs', 'cli'], { cwd: ROOT, stdio: 'pipe' });
  built = true;
}

export async function liveSandbox(balance = 10_000_000, extra: Parameters<typeof startSandbox>[0] = {}): Promise<RunningSandbox> {
  return startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${LIVE_KEY}:live:${balance}`], ...extra });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- the CLI's --json documents
}

/**
 * Runs the built CLI; `env` replaces the connection variables (undefined: none, the embedded
 * sandbox, asked for by name as CI requires: COMPLIANCE_SANDBOX=1, which `env` may unset with '').
 */
export function cli(args: string[], options: { cwd?: string; box?: RunningSandbox; key?: string; env?: Record<string, string> } = {}): Promise<Run> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', CI: 'true', NO_COLOR: '1', COMPLIANCE_SANDBOX: '1', ...options.env };
  if (options.box) {
    env.COMPLIANCE_BASE_URL = options.box.baseUrl;
    env.COMPLIANCE_API_KEY = options.key ?? LIVE_KEY;
  }
  return new Promise((resolvePromise) => {
    execFile(process.execPath, [CLI, ...args], { cwd: options.cwd ?? ROOT, env, maxBuffer: 32 * 1024 * 1024 }, (error, stdout, stderr) => {
      let json: unknown;
      try {
        json = JSON.parse(stdout);
      } catch {
        json = undefined;
      }
      const code = error ? (typeof error.code === 'number' ? error.code : 99) : 0;
      resolvePromise({ code, stdout, stderr, json });
    });
  });
}

export async function balance(box: RunningSandbox, key = LIVE_KEY): Promise<number> {
  const response = await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${key}` } });
  const body = (await response.json()) as { balanceTokens: number };
  return body.balanceTokens;
}

/** A temp copy of `count` example policies with a compliance.yml; returns its root. */
export function tempRepo(options: { count?: number; threshold?: number; config?: string } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'compliance-cli-'));
  mkdirSync(join(root, 'policies'));
  const names = ['access-control.md', 'incident-response.md', 'information-security.md', 'business-continuity.md', 'vendor-management.md'];
  for (const name of names.slice(0, options.count ?? 3)) cpSync(join(ROOT, 'examples/policies', name), join(root, 'policies', name));
  writeFileSync(join(root, 'compliance.yml'), options.config ?? [
    'repository: acme/policies',
    'documents:',
    '  - name: policies',
    '    paths: ["policies/*.md"]',
    '    category: Policies',
    'frameworks:',
    '  - framework: hipaa-security',
    `    threshold: ${options.threshold ?? 10}`,
    '',
  ].join('\n'));
  return root;
}

export function removeRepo(root: string): void {
  rmSync(root, { recursive: true, force: true });
}
