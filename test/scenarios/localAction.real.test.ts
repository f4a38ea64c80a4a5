/**
 * The scenario table's rows through GitHub's own local runner, `@github/local-action`: it runs each
 * action's entry (src/main.ts, through its TypeScript runner) with the runner's stubs of
 * @actions/core, and must show what the bundles show (surfaces.test.ts): the same ledger delta,
 * status, library and GitHub writes. In the real project: tsx transpiles every entry afresh.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, runnerVariables, type RunOptions } from '../actions/harness.js';
import { linkLocalActionModules, runLocalAction } from '../actions/localAction.js';
import { actionRow, type StepRun } from './actionRows.js';
import { rowsFor } from './table.js';
import { expectedFor, startWorld, type World } from './world.js';

let world: World;
/** This checkout seen through symlinks, with local-action's TypeScript runner added to its node_modules. */
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'local-action-root-'));
  for (const name of readdirSync(REPO_ROOT)) if (name !== 'node_modules') symlinkSync(join(REPO_ROOT, name), join(root, name));
  linkLocalActionModules(root);
  world = await startWorld(['local-action']);
}, 600_000);
afterAll(async () => {
  await world?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** The runner's variables of a step (the event payload in the run's folder, the workspace, the fake GitHub), as runAction gives them. */
function localAction(name: string, options: RunOptions): Promise<StepRun> {
  return runLocalAction(root, name, options.inputs ?? {}, (dir) => runnerVariables(options, dir));
}

// Concurrent: each row has its own key, workspace and fake GitHub; the world is read-only.
describe.concurrent('on local-action', () => {
  for (const { scenario: row, disagreement } of rowsFor('local-action')) {
    it(`${row.id} (local-action)${disagreement ? `: disagrees today, ${disagreement.disagrees}` : ''}`, { timeout: 300_000 }, async ({ expect }) => {
      expect(await actionRow(world, row, 'local-action', localAction)).toEqual({ ...expectedFor(row, 'local-action'), ...disagreement?.today });
    });
  }
});
