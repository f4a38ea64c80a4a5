/**
 * A row of the scenario table as GitHub's templates run the actions: the library-sync template on a
 * push (sync, then map into the baseline), the PR template's map step on a pull request (baseline
 * and base-config from the cache, comment always, its cap), the scheduled template's review. The
 * runner is the surface: the bundles run runner-style, or the entries under @github/local-action.
 */
import { GITHUB_TOKEN, type RunOptions } from '../actions/harness.js';
import { capOf, type Scenario } from './table.js';
import { liveKey, observe, stage, type Observed, type World } from './world.js';

/** What a step shows: its exit code and its outputs. */
export interface StepRun {
  code: number | null;
  outputs: Record<string, string>;
  /** What it printed, for a failure's message. */
  log: string;
}

export type ActionRunner = (name: string, options: RunOptions) => Promise<StepRun>;

export async function actionRow(world: World, row: Scenario, surface: 'bundle' | 'local-action', runner: ActionRunner): Promise<Observed> {
  const key = liveKey(row.id, surface);
  const staged = await stage(world, row.id, key);
  try {
    const service = { ...(staged.hasKey ? { 'api-key': key } : {}), 'base-url': world.sandbox.baseUrl, 'github-token': GITHUB_TOKEN, 'max-tokens': capOf(row) };
    const run = (name: string, inputs: Record<string, string>) => runner(name, { workspace: staged.workspace, inputs: { ...service, ...inputs }, event: staged.event, apiUrl: staged.github.url });
    const verdictOf = (runs: StepRun[]) => {
      const last = runs.at(-1) as StepRun;
      return { status: last.outputs.status, passed: last.outputs.passed === undefined ? undefined : last.outputs.passed === 'true', stepFails: runs.some((each) => each.code !== 0) };
    };
    // The PR template's map step: the default branch's report from the cache (its gate is read from git).
    const prMap = () => run('map', { baseline: staged.pullRequestFiles!.baseline, comment: 'always', 'fail-below': 'true' });
    switch (row.id) {
      case 'push to the default branch':
        // The library-sync template: sync, then map the default branch into its baseline.
        return await observe(world, row, surface, staged, async () => verdictOf([await run('sync', {}), await run('map', { 'report-dir': '.compliance-baseline', comment: 'never', 'fail-below': 'false' })]));
      case 'schedule with a waiver':
        return await observe(world, row, surface, staged, async () => verdictOf([await run('review', { 'gap-issues': 'true', 'fail-below': 'false' })]));
      case 're-run of a pull request': {
        const first = await prMap();
        if (first.code !== 0) throw new Error(`the first run of the pull request failed (exit ${first.code}): ${first.log}`);
        return await observe(world, row, surface, staged, async () => verdictOf([await prMap()]));
      }
      default:
        return await observe(world, row, surface, staged, async () => verdictOf([await prMap()]));
    }
  } finally {
    await staged.github.close();
  }
}
