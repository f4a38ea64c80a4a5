/**
 * GitHub's local runner, `@github/local-action` (from the real suites' tools): it runs an action's
 * entry (src/main.ts, through `npm exec tsx`) with its stubs of @actions/core, reading the inputs
 * and the runner's variables from a dotenv file. `root` is a checkout whose node_modules
 * linkLocalActionModules prepared.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toolPath } from '../../scripts/tools/install.mjs';
import { REPO_ROOT } from './harness.js';

/** Gives `root` a node_modules of this checkout's packages plus local-action's TypeScript runner (tsx). */
export function linkLocalActionModules(root: string): void {
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) if (name !== '.bin') symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name), 'dir');
  symlinkSync(toolPath('tsx'), join(modules, 'tsx'), 'dir');
  symlinkSync(toolPath('.bin/tsx'), join(modules, '.bin', 'tsx'));
}

export interface LocalActionRun {
  code: number | null;
  log: string;
  /** From its `::set-output` lines. */
  outputs: Record<string, string>;
}

/**
 * `local-action run actions/<name> src/main.ts <dotenv>` in `root`: `inputs` become INPUT_<NAME>,
 * `variables` (GITHUB_*, RUNNER_*) are written as given; `prepare` may add files to the run's own
 * folder (an event payload) and return more variables.
 */
export async function runLocalAction(root: string, name: string, inputs: Record<string, string | undefined>, variables: (dir: string) => Record<string, string>): Promise<LocalActionRun> {
  const dir = mkdtempSync(join(tmpdir(), 'local-action-'));
  const lines = { ...variables(dir) };
  for (const [input, value] of Object.entries(inputs)) if (value !== undefined) lines[`INPUT_${input.toUpperCase()}`] = value;
  const dotenv = join(dir, '.env');
  writeFileSync(dotenv, `${Object.entries(lines).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join('\n')}\n`);
  const child = spawn(process.execPath, [toolPath('@github/local-action/bin/local-action.js'), 'run', join('actions', name), 'src/main.ts', dotenv], {
    cwd: root,
    env: { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: dir, NO_COLOR: '1', npm_config_yes: 'false', npm_config_offline: 'true' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(dir, { recursive: true, force: true });
  const outputs = Object.fromEntries([...log.matchAll(/^::set-output name=([^:]+)::(.*)$/gm)].map((match) => [match[1] as string, match[2] as string]));
  return { code, log, outputs };
}
