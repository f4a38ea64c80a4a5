/**
 * The built CLI for sandbox tests that need the server in its own process: built once, then run
 * from a private copy of dist/cli and dist/workers, so a build another suite starts meanwhile cannot
 * pull files from under it.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export interface BuiltCli {
  /** Path of the copied bin (compliance.cjs). */
  cli: string;
  remove(): void;
}

export function copyOfBuiltCli(): BuiltCli {
  execFileSync(process.execPath, ['scripts/build.mjs', 'cli'], { stdio: 'pipe' });
  const copy = mkdtempSync(join(tmpdir(), 'built-cli-'));
  for (const part of ['dist/cli', 'dist/workers']) cpSync(part, join(copy, part), { recursive: true });
  return { cli: join(copy, 'dist/cli/compliance.cjs'), remove: () => rmSync(copy, { recursive: true, force: true }) };
}

/** `compliance sandbox --port 0 --json ...args` from `cli` (its environment: ours, with `env` over it); resolves with the process and its announcement. */
export async function startCliSandbox(cli: string, args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; announced: { baseUrl: string; controlToken?: string } }> {
  const child = spawn(process.execPath, [cli, 'sandbox', '--port', '0', '--json', ...args], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}`)));
  });
  return { child, announced: JSON.parse(line) as { baseUrl: string; controlToken?: string } };
}
