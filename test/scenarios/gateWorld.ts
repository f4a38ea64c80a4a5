/**
 * The world the gate's scenario table (gate.test.ts) runs in: one sandbox with a live key per row
 * (its ledger and library are the row's alone), a clone per row whose base commit is the default
 * branch (main) and whose HEAD is the change, real GitHub event payloads (test/fixtures/events)
 * pointed at that clone, a fresh fake GitHub per row, and the steps as GitHub's runner (the action
 * bundles) or a CI job (the built CLI) runs them. What a row shows is measured, never reported by
 * the code under test: the key's ledger, its library, the fake GitHub's recorded writes.
 */
import { cpSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from '../actions/fakeGitHub.js';
import { API_KEY, git, GITHUB_TOKEN, REPO_ROOT, REPOSITORY, runAction, type ActionRun } from '../actions/harness.js';
import { runnerCommands } from '../actions/hostileInputs.js';
import { cli, type Run } from '../cli/helpers.js';
import { balanceOf, libraryDocuments } from './world.js';

const BALANCE = 50_000_000;
export const MAP_PRICE = 250_000;
export const INGEST_PRICE = 400_000;
export const EXAMPLE_POLICIES = readdirSync(join(REPO_ROOT, 'examples', 'policies')).filter((file) => file.endsWith('.md'));

/** examples/compliance.yml (HIPAA at 80 %, a waiver) with `extra` appended. */
export const EXAMPLES_CONFIG = (extra = '') => `${readFileSync(join(REPO_ROOT, 'examples', 'compliance.yml'), 'utf8').trimEnd()}\n${extra}`;

/** A row of the table: what it proves, what must hold, and how it is staged and measured. */
export interface Row {
  id: string;
  /** What the row proves (issue 34's item, or the event's line of the table). */
  proves: string;
  expected: Outcome;
  run(world: GateWorld, row: number, github: FakeGitHub): Promise<Outcome>;
}

/** Extra facts a row measures beside its outcome (figures, what the old file list said), keyed by row id. */
export const facts = new Map<string, unknown>();

export interface GateWorld {
  sandbox: RunningSandbox;
  key(row: number): string;
  close(): Promise<void>;
}

export async function startGateWorld(rows: number): Promise<GateWorld> {
  const key = (row: number) => `csk_live_gate_row_${String(row).padStart(2, '0')}`;
  const keys = Array.from({ length: rows }, (_, row) => `${key(row)}:live:${BALANCE}`);
  const sandbox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [API_KEY, ...keys] });
  return { sandbox, key, close: () => sandbox.close() };
}

/** A clone of examples/ (compliance.yml `baseConfig` on main) with `change` applied on branch feature, committed as a pull request's head is. */
export function clone(baseConfig: string, change: (root: string) => void, options: { commitChange?: boolean } = {}): { root: string; base: string } {
  const root = mkdtempSync(join(tmpdir(), 'gate-row-'));
  cpSync(join(REPO_ROOT, 'examples', 'policies'), join(root, 'policies'), { recursive: true });
  writeFileSync(join(root, 'compliance.yml'), baseConfig);
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'The default branch');
  const base = git(root, 'rev-parse', 'HEAD');
  git(root, 'checkout', '-q', '-b', 'feature');
  change(root);
  if (options.commitChange !== false) {
    git(root, 'add', '-A');
    git(root, 'commit', '-q', '--allow-empty', '-m', 'The change');
  }
  return { root, base };
}

type EventFile = 'pull_request.synchronize' | 'push' | 'schedule' | 'merge_group.checks_requested' | 'issue_comment.created' | 'workflow_dispatch';

/** A real payload (test/fixtures/events) pointed at this clone: its pull request, base commit, ref, fork. */
export function payload(file: EventFile, options: { pullRequest?: number; base?: string; ref?: string; fork?: boolean } = {}): Record<string, any> { // eslint-disable-line @typescript-eslint/no-explicit-any -- webhook JSON
  const event = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'events', `${file}.json`), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- webhook JSON
  if (options.ref) event.ref = options.ref;
  if (event.pull_request && options.pullRequest !== undefined) {
    event.number = options.pullRequest;
    Object.assign(event.pull_request, { number: options.pullRequest });
    if (options.base) event.pull_request.base.sha = options.base;
    if (options.fork) Object.assign(event.pull_request.head, { repo: { ...event.pull_request.head.repo, full_name: 'contributor/policies', fork: true } });
  }
  if (event.issue && options.pullRequest !== undefined) event.issue.number = options.pullRequest;
  if (event.merge_group && options.base) event.merge_group.base_sha = options.base;
  return event;
}

/** One step as a row records it: which, its verdict status (or its own answer), its exit code. */
export interface Step {
  name: string;
  status: string;
  exitCode: number;
}

export interface Outcome {
  steps: Step[];
  /** Writes to GitHub by kind: the comment on the change's own pull request, issues opened, labels created, anything else. */
  github: { ownComment: number; issues: number; labels: number; other: string[] };
  /** Documents the run added to or changed in the row's library. */
  libraryWrites: number;
  /** Tokens drawn from the row's live key (GET /billing before and after). */
  tokens: number;
}

/** An action step: its `status` output, else what it did (the sync's counts, the gap issues', a refusal). */
export function actionStep(name: string, run: ActionRun): Step {
  const refused = /## Compliance \w[\w-]*: refused/.test(run.summary);
  const status = run.outputs.status ?? (refused ? 'refused' : run.outputs.ingested !== undefined ? `ingested ${run.outputs.ingested}` : run.outputs.created !== undefined ? `created ${run.outputs.created}` : 'done');
  return { name, status, exitCode: run.code ?? -1 };
}

/** A CLI step: its --json verdict's status (or the error's code), its exit code. */
export function cliStep(name: string, run: Run): Step {
  const status = run.json?.verdict?.status ?? run.json?.status ?? run.json?.error?.code ?? (run.code === 0 ? 'done' : 'error');
  return { name, status: String(status), exitCode: run.code };
}

/** Lines a runner would read as a workflow command that were not ours to print (a repository's text). */
export function injected(text: string): string[] {
  return runnerCommands(text).filter((line) => line.includes('INJECTED'));
}

/** Runs `act` against the row's key and fake GitHub and measures what it changed. */
export async function measure(world: GateWorld, row: number, github: FakeGitHub, pullRequest: number | undefined, act: () => Promise<Step[]>): Promise<Outcome> {
  const key = world.key(row);
  const [balance, library] = [await balanceOf(world.sandbox, key), await libraryDocuments(world.sandbox, key)];
  const writesBefore = github.writes().length;
  const steps = await act();
  const own = pullRequest === undefined ? new Set<number>() : new Set(github.commentsOn(pullRequest).map((comment) => comment.id));
  const outcome: Outcome = { steps, github: { ownComment: 0, issues: 0, labels: 0, other: [] }, libraryWrites: 0, tokens: 0 };
  for (const write of github.writes().slice(writesBefore)) {
    const where = write.path.replace(`/repos/${REPOSITORY}`, '');
    const comment = /^\/issues\/(\d+)\/comments$/.exec(where);
    const edit = /^\/issues\/comments\/(\d+)$/.exec(where);
    if ((comment && Number(comment[1]) === pullRequest) || (edit && own.has(Number(edit[1])))) outcome.github.ownComment++;
    else if (write.method === 'POST' && where === '/issues') outcome.github.issues++;
    else if (write.method === 'POST' && where === '/labels') outcome.github.labels++;
    else outcome.github.other.push(`${write.method} ${where}`);
  }
  outcome.libraryWrites = (await libraryDocuments(world.sandbox, key)) - library;
  outcome.tokens = balance - (await balanceOf(world.sandbox, key));
  return outcome;
}

/** The connection and GitHub inputs of an action step for the row. */
export function service(world: GateWorld, row: number): Record<string, string> {
  return { 'api-key': world.key(row), 'base-url': world.sandbox.baseUrl, 'github-token': GITHUB_TOKEN, 'max-tokens': '10000000', comment: 'auto' };
}

export async function newGitHub(): Promise<FakeGitHub> {
  return new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
}

/** The built CLI in a CI job of `forge`, in the clone, with the row's key unless `keyless`. */
export function cliIn(world: GateWorld, row: number, root: string, env: Record<string, string>, options: { keyless?: boolean } = {}) {
  const connection: Record<string, string> = options.keyless ? { COMPLIANCE_SANDBOX: '' } : { COMPLIANCE_BASE_URL: world.sandbox.baseUrl, COMPLIANCE_API_KEY: world.key(row) };
  return (args: string[]) => cli([...args, '--json'], { cwd: root, env: { HOME: root, COMPLIANCE_DATA_DIR: join(root, '..', `${row}-data`), ...connection, ...env } });
}

export { runAction };
