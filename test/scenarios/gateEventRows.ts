/**
 * The event rows of issue 34's scenario table (gate.test.ts runs them): one per line of
 * review/events.ts's table, plus the cases that hold on any event (no key in CI, a framework that
 * cannot be mapped, inputs that loosen, workflow commands in front matter). An event the table does
 * not list writes nothing beyond its own report and is judged like a pull request.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git } from '../actions/harness.js';
import { HOSTILE_FRONT_MATTER } from '../actions/hostileInputs.js';
import type { Run } from '../cli/helpers.js';
import { COMMENTED, edit, gitHubJob, GITLAB_MR, measuredPrMap, NO_GITHUB, prMap, threshold } from './gateRows.js';
import {
  actionStep, cliIn, cliStep, clone, EXAMPLE_POLICIES, EXAMPLES_CONFIG, facts, INGEST_PRICE, injected, MAP_PRICE, measure, payload, runAction, service,
  type GateWorld, type Row,
} from './gateWorld.js';
import type { FakeGitHub } from '../actions/fakeGitHub.js';

/** A GitHub event on the clone: the step `name` of the action bundle. */
function onEvent(world: GateWorld, row: number, github: FakeGitHub, root: string, name: string, event: { name: string; payload: Record<string, unknown> }, inputs: Record<string, string> = {}) {
  return runAction(name, { workspace: root, inputs: { ...service(world, row), ...inputs }, event, apiUrl: github.url, env: { GITHUB_REF: `refs/heads/${git(root, 'rev-parse', '--abbrev-ref', 'HEAD')}` } });
}

/** The default branch as it stands (the clone back on main): a push, schedule or dispatch of it. */
function onMain(): { root: string } {
  const { root } = clone(EXAMPLES_CONFIG(), () => undefined);
  git(root, 'checkout', '-q', 'main');
  return { root };
}

const SYNC_ALL = EXAMPLE_POLICIES.length * INGEST_PRICE;

export const EVENT_ROWS: Row[] = [
  {
    id: 'pull_request',
    proves: "3: maps its own text against its base commit's gate, writes no library and no issue, comments only on itself",
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      return (await measuredPrMap(world, row, github, root, base)).outcome;
    },
  },
  {
    id: 'pull_request from a fork (no key)',
    proves: '3: GitHub gives a fork no secrets: not evaluated, so not passed (the step fails), nothing spent or written',
    expected: { steps: [{ name: 'map', status: 'skipped', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      return (await measuredPrMap(world, row, github, root, base, { 'api-key': '' }, { fork: true })).outcome;
    },
  },
  {
    id: 'merge_group',
    proves: "3: the merge queue is judged like a pull request (merge_group.base_sha's gate), writes nothing, comments on no pull request",
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      const event = { name: 'merge_group', payload: payload('merge_group.checks_requested', { base }) };
      return measure(world, row, github, undefined, async () => [actionStep('map', await onEvent(world, row, github, root, 'map', event))]);
    },
  },
  {
    id: 'push to the default branch',
    proves: '3: the library mirrors the default branch: a push syncs every new document and maps, paying exactly that',
    expected: { steps: [{ name: 'sync', status: `ingested ${EXAMPLE_POLICIES.length}`, exitCode: 0 }, { name: 'map', status: 'passed', exitCode: 0 }], github: NO_GITHUB, libraryWrites: EXAMPLE_POLICIES.length, tokens: SYNC_ALL + MAP_PRICE },
    async run(world, row, github) {
      const { root } = onMain();
      const event = { name: 'push', payload: payload('push', { ref: 'refs/heads/main' }) };
      return measure(world, row, github, undefined, async () => [actionStep('sync', await onEvent(world, row, github, root, 'sync', event)), actionStep('map', await onEvent(world, row, github, root, 'map', event))]);
    },
  },
  {
    id: 'push to another branch',
    proves: "3: unlisted: judged like a pull request against the default branch's gate, no comment, and its sync is refused: nothing written",
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }, { name: 'sync', status: 'refused', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG(), edit);
      const event = { name: 'push', payload: payload('push', { ref: 'refs/heads/feature' }) };
      return measure(world, row, github, undefined, async () => [actionStep('map', await onEvent(world, row, github, root, 'map', event)), actionStep('sync', await onEvent(world, row, github, root, 'sync', event))]);
    },
  },
  {
    id: 'schedule',
    proves: "3: a scheduled review of the default branch syncs, maps and opens gap issues (examples/compliance.yml's maxNewPerRun: 5, the waived gap never)",
    expected: { steps: [{ name: 'review', status: 'passed', exitCode: 0 }], github: { ownComment: 0, issues: 5, labels: 2, other: [] }, libraryWrites: EXAMPLE_POLICIES.length, tokens: SYNC_ALL + MAP_PRICE },
    async run(world, row, github) {
      const { root } = onMain();
      const event = { name: 'schedule', payload: payload('schedule') };
      return measure(world, row, github, undefined, async () => [actionStep('review', await onEvent(world, row, github, root, 'review', event, { 'gap-issues': 'true' }))]);
    },
  },
  {
    id: 'workflow_dispatch on the default branch',
    proves: '3: a run by hand of the default branch may sync the library',
    expected: { steps: [{ name: 'sync', status: `ingested ${EXAMPLE_POLICIES.length}`, exitCode: 0 }], github: NO_GITHUB, libraryWrites: EXAMPLE_POLICIES.length, tokens: SYNC_ALL },
    async run(world, row, github) {
      const { root } = onMain();
      const event = { name: 'workflow_dispatch', payload: payload('workflow_dispatch', { ref: 'refs/heads/main' }) };
      return measure(world, row, github, undefined, async () => [actionStep('sync', await onEvent(world, row, github, root, 'sync', event))]);
    },
  },
  {
    id: 'workflow_dispatch on another branch',
    proves: '3: unlisted: a run by hand of a branch is refused the library (it refreshed it with the branch\'s text before), nothing spent',
    expected: { steps: [{ name: 'sync', status: 'refused', exitCode: 1 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG(), edit);
      const event = { name: 'workflow_dispatch', payload: payload('workflow_dispatch', { ref: 'refs/heads/feature' }) };
      return measure(world, row, github, undefined, async () => [actionStep('sync', await onEvent(world, row, github, root, 'sync', event))]);
    },
  },
  {
    id: 'issue_comment on a pull request',
    proves: '3: unlisted: map is judged like a pull request and comments nowhere; gap-issues opens no issue or label (it made 2 labels and 5 issues before); sync is refused (it refreshed the library before)',
    expected: {
      steps: [{ name: 'map', status: 'passed', exitCode: 0 }, { name: 'gap-issues', status: 'created 0', exitCode: 0 }, { name: 'sync', status: 'refused', exitCode: 1 }],
      github: NO_GITHUB,
      libraryWrites: 0,
      tokens: MAP_PRICE,
    },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG(), edit);
      const pr = github.addPullRequest();
      const event = { name: 'issue_comment', payload: payload('issue_comment.created', { pullRequest: pr }) };
      return measure(world, row, github, pr, async () => [
        actionStep('map', await onEvent(world, row, github, root, 'map', event, { comment: 'always' })),
        actionStep('gap-issues', await onEvent(world, row, github, root, 'gap-issues', event)),
        actionStep('sync', await onEvent(world, row, github, root, 'sync', event)),
      ]);
    },
  },
  {
    id: 'GitLab merge_request_event (CLI)',
    proves: "3: a merge request pipeline is judged by the target branch's gate (read from git), writes no library",
    expected: { steps: [{ name: 'compliance map', status: 'passed', exitCode: 0 }], github: NO_GITHUB, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG(), edit);
      return measure(world, row, github, undefined, async () => [cliStep('compliance map', await cliIn(world, row, root, GITLAB_MR)(['map']))]);
    },
  },
  {
    id: 'plain CI=true without a key (CLI)',
    proves: '4: in any CI a missing key is a refusal (exit 2, the fix), never a run against the embedded sandbox',
    expected: { steps: [{ name: 'compliance map', status: 'usage', exitCode: 2 }, { name: 'compliance map --sandbox', status: 'passed', exitCode: 0 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root } = onMain();
      const map = cliIn(world, row, root, {}, { keyless: true });
      return measure(world, row, github, undefined, async () => [cliStep('compliance map', await map(['map'])), cliStep('compliance map --sandbox', await map(['map', '--sandbox', '--ephemeral']))]);
    },
  },
  {
    id: 'GitLab merge request without a key (protected variable)',
    proves: '4: GitLab gives merge request pipelines no protected variables: the CLI refuses (exit 2) and says to mark the key masked, not protected',
    expected: { steps: [{ name: 'compliance map', status: 'usage', exitCode: 2 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root } = clone(EXAMPLES_CONFIG(), edit);
      let run!: Run;
      const outcome = await measure(world, row, github, undefined, async () => [cliStep('compliance map', (run = await cliIn(world, row, root, GITLAB_MR, { keyless: true })(['map'])))]);
      facts.set(this.id, { hint: run.json?.error?.hint });
      return outcome;
    },
  },
  {
    id: 'a framework that cannot be mapped (misspelt)',
    proves: '5: not evaluated everywhere: status, exit code, the frameworks output (listed), report.json (not passed), a comment under auto',
    expected: { steps: [{ name: 'map', status: 'not-evaluated', exitCode: 1 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), edit);
      const { outcome, run } = await measuredPrMap(world, row, github, root, base, { framework: 'hippa', threshold: '50' });
      const report = JSON.parse(readFileSync(join(root, 'compliance-report', 'report.json'), 'utf8')) as { passed: boolean; notEvaluated?: Array<{ framework: string }> };
      const frameworks = JSON.parse(run.outputs.frameworks ?? '[]') as Array<{ key: string; evaluated?: boolean }>;
      facts.set(this.id, { reportPassed: report.passed, notEvaluated: report.notEvaluated?.map((entry) => entry.framework), listed: frameworks.map((entry) => `${entry.key}${entry.evaluated === false ? ' (not evaluated)' : ''}`), headline: run.summary.split('\n')[0] });
      return outcome;
    },
  },
  {
    id: 'a framework that cannot be mapped (misspelt, CLI)',
    proves: '5 and 35.5: compliance map --framework hippa is a usage mistake: exit 2, not evaluated',
    expected: { steps: [{ name: 'compliance map --framework hippa', status: 'not-evaluated', exitCode: 2 }], github: NO_GITHUB, libraryWrites: 0, tokens: 0 },
    async run(world, row, github) {
      const { root } = onMain();
      return measure(world, row, github, undefined, async () => [cliStep('compliance map --framework hippa', await cliIn(world, row, root, { CI: 'false' })(['map', '--framework', 'hippa', '--threshold', '50']))]);
    },
  },
  {
    id: 'inputs that loosen on a pull request',
    proves: '6: fail-below: false and fail-on-refusal: false are not applied on a pull request (the gate fails the step); dry-run: true evaluates nothing, so its step fails too',
    expected: { steps: [{ name: 'map', status: 'failed', exitCode: 1 }, { name: 'map (dry run)', status: 'skipped', exitCode: 1 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(threshold(99), edit);
      const pr = github.addPullRequest();
      return measure(world, row, github, pr, async () => [
        actionStep('map', await prMap(world, row, github, root, base, pr, { 'fail-below': 'false', 'fail-on-refusal': 'false' })),
        actionStep('map (dry run)', await prMap(world, row, github, root, base, pr, { 'dry-run': 'true' })),
      ]);
    },
  },
  {
    id: 'workflow commands in front matter',
    proves: '7: the YAML library warns about front matter by quoting its line; no line that reaches stdout or stderr starts a workflow command (action, then the CLI, which reuses the confirmed mapping)',
    expected: { steps: [{ name: 'map', status: 'passed', exitCode: 0 }, { name: 'compliance map', status: 'passed', exitCode: 0 }], github: COMMENTED, libraryWrites: 0, tokens: MAP_PRICE },
    async run(world, row, github) {
      const { root, base } = clone(EXAMPLES_CONFIG(), (dir) => {
        const path = join(dir, 'policies', 'access-control.md');
        writeFileSync(path, `${HOSTILE_FRONT_MATTER}${readFileSync(path, 'utf8')}`);
      });
      const pr = github.addPullRequest();
      const printed: string[] = [];
      const outcome = await measure(world, row, github, pr, async () => {
        const action = await prMap(world, row, github, root, base, pr);
        const command = await cliIn(world, row, root, gitHubJob(root, pr, base))(['map']);
        printed.push(action.stdout, action.stderr, command.stdout, command.stderr);
        return [actionStep('map', action), cliStep('compliance map', command)];
      });
      facts.set(this.id, { injected: printed.flatMap(injected) });
      return outcome;
    },
  },
];
