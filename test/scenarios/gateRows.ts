/**
 * The rows of issue 34's cases (gate.test.ts runs them): each a way a change met a check that did
 * not evaluate it, or judged it by rules it wrote itself, as the issue found it, with what must hold
 * now. The event rows are in gateEventRows.ts.
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeGitHub } from '../actions/fakeGitHub.js';
import { git } from '../actions/harness.js';
import type { Run } from '../cli/helpers.js';
import {
  actionStep, cliIn, cliStep, clone, EXAMPLES_CONFIG, facts, MAP_PRICE, measure, payload, runAction, service,
  type GateWorld, type Row,
} from './gateWorld.js';

export const NO_GITHUB = { ownComment: 0, issues: 0, labels: 0, other: [] };
export const COMMENTED = { ...NO_GITHUB, ownComment: 1 };
export const edit = (root: string) => writeFileSync(join(root, 'policies', 'access-control.md'), '\nAccess rights are recertified every quarter by the system owner.\n', { flag: 'a' });
export const threshold = (value: number, extra = '') => EXAMPLES_CONFIG(extra).replace('threshold: 80', `threshold: ${value}`);

/** The default branch's report, as its push run saves it (with the row's key, before the row is measured), restored where the PR template's cache puts it. */
export async function savedBaseline(world: GateWorld, row: number, config: string, into: string): Promise<void> {
  const { root } = clone(config, () => undefined);
  git(root, 'checkout', '-q', 'main');
  const saved = await runAction('map', { workspace: root, inputs: { ...service(world, row), 'report-dir': 'out', 'fail-below': 'false', comment: 'never' } });
  if (saved.code !== 0) throw new Error(`no baseline: ${saved.stdout}`);
  mkdirSync(join(into, '.compliance-baseline'), { recursive: true });
  writeFileSync(join(into, '.compliance-baseline', 'report.json'), readFileSync(join(root, 'out', 'report.json')));
}

/** The PR template's map step on pull request `pr` of `root` (based on `base`). */
export function prMap(world: GateWorld, row: number, github: FakeGitHub, root: string, base: string, pr: number, inputs: Record<string, string> = {}, options: { fork?: boolean } = {}) {
  const baseline = inputs.baseline ?? '.compliance-baseline/report.json';
  return runAction('map', { workspace: root, inputs: { ...service(world, row), baseline, ...inputs }, event: { name: 'pull_request', payload: payload('pull_request.synchronize', { pullRequest: pr, base, fork: options.fork }) }, apiUrl: github.url });
}

/** A new pull request of `root`, its PR template map step measured; `run` is the step as it ran. */
export async function measuredPrMap(world: GateWorld, row: number, github: FakeGitHub, root: string, base: string, inputs: Record<string, string> = {}, options: { fork?: boolean } = {}) {
  const pr = github.addPullRequest();
  let run!: Awaited<ReturnType<typeof prMap>>;
  const outcome = await measure(world, row, github, pr, async () => [actionStep('map', (run = await prMap(world, row, github, root, base, pr, inputs, options)))]);
  return { outcome, run };
}

/** The CLI in a GitHub Actions pull_request job of pull request `pr`. */
export function gitHubJob(root: string, pr: number, base: string): Record<string, string> {
  const path = join(mkdtempSync(join(tmpdir(), 'gate-event-')), 'event.json');
  writeFileSync(path, JSON.stringify(payload('pull_request.synchronize', { pullRequest: pr, base })));
  return { GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path, GITHUB_REPOSITORY: 'acme/policies' };
}

/** The CLI in a GitLab merge request pipeline targeting main. */
export const GITLAB_MR = { GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_MERGE_REQUEST_IID: '3', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_DEFAULT_BRANCH: 'main', CI_PROJECT_PATH: 'acme/policies', CI_SERVER_URL: 'https://gitlab.example' };

export const CASE_ROWS: Row[] = [
  {
    id: 'a policy moved out of scope (rename)',
    proves: '1: git lists both sides of a move (no-renames), so a policy moved to archive/ is in scope: mapped, 86.9 → 82.3 % with 3 new gaps, and failOn new-gaps fails it',
    expected: { steps: [{ name: 'map', status: 'failed', exitCode: 1 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const config = EXAMPLES_CONFIG('failOn: new-gaps\n');
      const { root, base } = clone(config, (dir) => {
        mkdirSync(join(dir, 'archive'));
        renameSync(join(dir, 'policies', 'business-continuity.md'), join(dir, 'archive', 'business-continuity.md'));
      });
      await savedBaseline(world, row, config, root);
      // What the old template's list gave the check: the new path only, out of scope.
      facts.set(this.id, { nameOnly: git(root, 'diff', '--name-only', `${base}...HEAD`) });
      const { outcome, run } = await measuredPrMap(world, row, github, root, base);
      facts.set(this.id, { ...(facts.get(this.id) as object), coverage: run.outputs.coverage, newGaps: run.outputs['new-gaps'] });
      return outcome;
    },
  },
  {
    id: 'a non-ASCII file name',
    proves: '1: git -z lists policies/continuité.md as written (git diff --name-only quotes it), so the document is in scope and mapped',
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), (dir) => writeFileSync(join(dir, 'policies', 'continuité.md'), '# Continuité\n\nBackups are restored and tested every quarter; the recovery plan names an owner.\n'));
      facts.set(this.id, { nameOnly: git(root, 'diff', '--name-only', `${base}...HEAD`) });
      return (await measuredPrMap(world, row, github, root, base)).outcome;
    },
  },
  {
    id: 'a mapping store the change committed (GitLab, CLI)',
    proves: '2: a store in the checkout is ignored on every surface: the merge request is mapped again (charged) and judged 80.8 % < 99 %, failed',
    expected: { steps: [{ name: 'compliance map', status: 'failed', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root } = clone(threshold(99), (dir) => rmSync(join(dir, 'policies', 'business-continuity.md')));
      const map = cliIn(world, row, root, GITLAB_MR);
      // An honest store of this very change, then committed: even so, never read.
      await map(['map']);
      git(root, 'add', '-f', '.compliance-mappings/mappings.json');
      git(root, 'commit', '-q', '-m', 'a store of its own');
      let run!: Run;
      const outcome = await measure(world, row, github, undefined, async () => [cliStep('compliance map', (run = await map(['map'])))]);
      facts.set(this.id, { coverage: run.json?.frameworks?.[0]?.coverage, warned: run.stderr.includes('is committed in the checkout, so the change could have written it: ignored') });
      return outcome;
    },
  },
  {
    id: "a stored mapping from the branch's cache the service does not confirm",
    proves: '2: a store a branch run could have written counts only once the service confirms its job: an unknown job id is mapped again (charged; the comment already says the same)',
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      const pr = github.addPullRequest();
      await prMap(world, row, github, root, base, pr);
      const path = join(root, '.compliance-mappings', 'mappings.json');
      writeFileSync(path, readFileSync(path, 'utf8').replace(/"jobId":"[^"]+"/g, '"jobId":"00000000-0000-4000-8000-000000000000"'));
      return measure(world, row, github, pr, async () => [actionStep('map', await prMap(world, row, github, root, base, pr))]);
    },
  },
  {
    id: "the gate from the change (no saved copy of the default branch's compliance.yml)",
    proves: "2: with no base-config and no cache the pull request is judged by its base commit's compliance.yml in git (90 %), never by its own (10 %)",
    expected: { steps: [{ name: 'map', status: 'failed', exitCode: 1 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(threshold(90), (dir) => {
        edit(dir);
        writeFileSync(join(dir, 'compliance.yml'), threshold(10));
      });
      return (await measuredPrMap(world, row, github, root, base)).outcome;
    },
  },
  {
    id: 'the base commit not in the clone',
    proves: '2: a shallow checkout without the base commit fails as not evaluated, naming fetch-depth: 0; nothing is called or spent',
    expected: { steps: [{ name: 'map', status: 'not-evaluated', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      const shallow = mkdtempSync(join(tmpdir(), 'gate-shallow-'));
      git(shallow, 'clone', '-q', '--depth', '1', '--branch', 'feature', `file://${root}`, 'clone');
      return (await measuredPrMap(world, row, github, join(shallow, 'clone'), base)).outcome;
    },
  },
  {
    id: "a GitLab merge request under the target's failOn: new-gaps with no baseline",
    proves: '2: without a confirmed report of the default branch every gap counts as new, so the target branch\'s failOn: new-gaps fails the merge request',
    expected: { steps: [{ name: 'compliance map', status: 'failed', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG('failOn: new-gaps\n'), edit);
      return measure(world, row, github, undefined, async () => [cliStep('compliance map', await cliIn(world, row, root, GITLAB_MR)(['map']))]);
    },
  },
];

