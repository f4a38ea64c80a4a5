/**
 * The scenario table's rows through GitHub's own local runner, `@github/local-action`: it runs each
 * action's entry (src/main.ts, through its TypeScript runner) with the runner's stubs of
 * @actions/core, and must show what the bundles show (surfaces.test.ts): the same ledger delta,
 * status, library and GitHub writes. In the real project: tsx transpiles every entry afresh.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { toolPath } from '../../scripts/tools/install.mjs';
import { REPO_ROOT, REPOSITORY, type RunOptions } from '../actions/harness.js';
import { actionRow, type StepRun } from './actionRows.js';
import { rowsFor } from './table.js';
import { expectedFor, startWorld, type World } from './world.js';

let world: World;
/** This checkout seen through symlinks, with local-action's TypeScript runner added to its node_modules. */
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'local-action-root-'));
  for (const name of readdirSync(REPO_ROOT)) if (name !== 'node_modules') symlinkSync(join(REPO_ROOT, name), join(root, name));
  const modules = join(root, 'node_modules');
  mkdirSync(join(modules, '.bin'), { recursive: true });
  for (const name of readdirSync(join(REPO_ROOT, 'node_modules'))) if (name !== '.bin') symlinkSync(join(REPO_ROOT, 'node_modules', name), join(modules, name), 'dir');
  symlinkSync(toolPath('tsx'), join(modules, 'tsx'), 'dir');
  symlinkSync(toolPath('.bin/tsx'), join(modules, '.bin', 'tsx'));
  world = await startWorld(['local-action']);
}, 600_000);
afterAll(async () => {
  await world?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** `local-action run actions/<name> src/main.ts <dotenv>`: the inputs and the runner's variables in the dotenv file, outputs from its `::set-output` lines. */
async function localAction(name: string, options: RunOptions): Promise<StepRun> {
  const dir = mkdtempSync(join(tmpdir(), 'local-action-'));
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, JSON.stringify(options.event?.payload ?? {}));
  writeFileSync(join(dir, 'summary.md'), '');
  const variables: Record<string, string> = {
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_EVENT_NAME: options.event?.name ?? 'push',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_RUN_ID: '4242',
    RUNNER_TEMP: dir,
    ...(options.apiUrl ? { GITHUB_API_URL: options.apiUrl } : {}),
  };
  for (const [input, value] of Object.entries(options.inputs ?? {})) if (value !== undefined) variables[`INPUT_${input.toUpperCase()}`] = value;
  const dotenv = join(dir, '.env');
  writeFileSync(dotenv, `${Object.entries(variables).map(([key, value]) => `${key}=${JSON.stringify(value)}`).join('\n')}\n`);
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
  return { code, outputs, log };
}

describe('on local-action', () => {
  for (const { scenario: row, disagreement } of rowsFor('local-action')) {
    it(`${row.id} (local-action)${disagreement ? `: disagrees today, ${disagreement.disagrees}` : ''}`, { timeout: 300_000 }, async () => {
      expect(await actionRow(world, row, 'local-action', localAction)).toEqual({ ...expectedFor(row, 'local-action'), ...disagreement?.today });
    });
  }
});
