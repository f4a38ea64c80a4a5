/**
 * The world every surface meets a scenario in: one sandbox per test file with one live key per
 * scenario × surface (so ledger and library deltas stay per run, and runs may go concurrently), the
 * default branch's saved report and compliance.yml (what the PR template restores from its cache),
 * a checked-out workspace per run, the GitHub event payload, and a fresh fake GitHub per run whose
 * recorded writes are sorted into "own comment", "gap issues" and anything else.
 */
import { mkdirSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { FakeGitHub } from '../actions/fakeGitHub.js';
import { API_KEY, checkoutPullRequest, GITHUB_TOKEN, HIPAA_CONFIG, makeWorkspace, REPO_ROOT, REPOSITORY, runAction } from '../actions/harness.js';
import { expectedGitHub, NOT_SHOWN, SCENARIOS, type Expected, type Scenario, type ScenarioId, type Surface } from './table.js';

const BALANCE = 50_000_000;
const SURFACE_TAG: Record<Surface, string> = { cli: 'cli', bundle: 'bundle', 'local-action': 'local', mcp: 'mcp', n8n: 'n8n' };

/** The live key of one scenario × surface: its ledger and library belong to that run alone. */
export function liveKey(id: ScenarioId, surface: Surface): string {
  return `csk_live_scenario_${SCENARIOS.findIndex((entry) => entry.id === id)}_${SURFACE_TAG[surface]}`;
}

/** The default branch's gate in the "changes compliance.yml" row: 95 % fails the fixture's 93.8 %. */
const STRICT_BASE = 95;
/** The fixture's gate elsewhere: 80 % passes 93.8 %. */
const THRESHOLD = 80;

/** The gap the schedule row waives (until 2030): its first. */
export const waivedOnSchedule = (world: World): string[] => world.gapControls.slice(0, 1);

export interface World {
  sandbox: RunningSandbox;
  /** The default branch's report.json (mapped once with a sandbox key, free), and its gap controls. */
  baselineReport: string;
  gapControls: string[];
  close(): Promise<void>;
}

export async function startWorld(surfaces: readonly Surface[]): Promise<World> {
  const keys = SCENARIOS.flatMap((entry) => surfaces.map((surface) => `${liveKey(entry.id, surface)}:live:${BALANCE}`));
  const sandbox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [API_KEY, ...keys] });
  // The default branch's latest report, as its push run saves it (a sandbox key: free, same figures).
  const main = makeWorkspace(HIPAA_CONFIG(THRESHOLD));
  const saved = await runAction('map', { workspace: main, inputs: { 'api-key': API_KEY, 'base-url': sandbox.baseUrl, 'report-dir': '.compliance-baseline' }, event: gitHubEvent('push') });
  if (saved.code !== 0) throw new Error(`the default branch's report could not be made: ${saved.stdout}${saved.stderr}`);
  const baselineReport = readFileSync(join(main, '.compliance-baseline', 'report.json'), 'utf8');
  const report = JSON.parse(baselineReport) as { frameworks: Array<{ gaps: Array<{ controlId: string }> }> };
  const gapControls = report.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.controlId));
  return { sandbox, baselineReport, gapControls, close: () => sandbox.close() };
}

type EventName = 'push' | 'pull_request' | 'schedule';
const EVENT_FILE: Record<EventName, string> = { push: 'push.json', pull_request: 'pull_request.synchronize.json', schedule: 'schedule.json' };

/** A GitHub event as the runner gives it: the payload file of test/fixtures/events, numbered for this pull request. */
export function gitHubEvent(name: EventName, pullRequest?: { number: number; fork: boolean; base: string }): { name: string; payload: Record<string, unknown> } {
  const payload = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'events', EVENT_FILE[name]), 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- webhook JSON
  if (pullRequest) {
    payload.number = pullRequest.number;
    Object.assign(payload.pull_request, { number: pullRequest.number, url: `https://api.github.com/repos/${REPOSITORY}/pulls/${pullRequest.number}` });
    payload.pull_request.base.sha = pullRequest.base;
    if (pullRequest.fork) {
      const fork = { ...payload.pull_request.head.repo, full_name: 'contributor/policies', owner: { login: 'contributor', id: 583231, type: 'User' }, fork: true };
      Object.assign(payload.pull_request.head, { label: 'contributor:changes', repo: fork });
    }
  }
  return { name, payload };
}

/** One run of a row: its checked-out workspace, event, fake GitHub and pull request. */
export interface Stage {
  workspace: string;
  event: { name: string; payload: Record<string, unknown> };
  github: FakeGitHub;
  pullRequest: number | undefined;
  /** The row's key has an API key at all (a fork gets no secrets). */
  hasKey: boolean;
  /** The baseline the PR template restores from the cache; none outside a pull request. */
  pullRequestFiles: { baseline: string } | undefined;
}

const BASELINE_DIR = '.compliance-baseline';

/**
 * Stages a row for `key`: the workspace as the event's checkout leaves it; on a pull request the
 * default branch's cache restored and the key's library synced from the default branch (as its
 * push run left it), before anything is measured.
 */
export async function stage(world: World, id: ScenarioId, key: string): Promise<Stage> {
  const github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY }).start();
  const waivers = (controls: readonly string[]) => `waivers:\n${controls.map((control) => `  - { framework: hipaa-security, control: "${control}", reason: accepted, owner: ciso, expires: "2030-01-01" }\n`).join('')}`;
  const onPullRequest = async (config: string, baseConfig: string, options: { fork?: boolean; edit?: boolean } = {}): Promise<Stage> => {
    // The default branch's push run with the row's key, as the library-sync template runs it: sync, then its report.
    const main = makeWorkspace(baseConfig);
    const service = { 'api-key': key, 'base-url': world.sandbox.baseUrl };
    const synced = await runAction('sync', { workspace: main, inputs: service, event: gitHubEvent('push') });
    if (synced.code !== 0) throw new Error(`the default branch's library could not be synced: ${synced.stdout}${synced.stderr}`);
    const saved = await runAction('map', { workspace: main, inputs: { ...service, 'report-dir': BASELINE_DIR, 'fail-below': 'false' }, event: gitHubEvent('push') });
    if (saved.code !== 0) throw new Error(`the default branch's report could not be made: ${saved.stdout}${saved.stderr}`);
    // The checkout as actions/checkout leaves it (fetch-depth: 0): the base commit holds the default branch's compliance.yml.
    const workspace = makeWorkspace(config);
    const base = checkoutPullRequest(workspace, { baseConfig });
    mkdirSync(join(workspace, BASELINE_DIR));
    writeFileSync(join(workspace, BASELINE_DIR, 'report.json'), readFileSync(join(main, BASELINE_DIR, 'report.json')));
    // A pull request that changes a document in scope (an unchanged one is its own row).
    if (options.edit) appendFileSync(join(workspace, 'policies', 'access-control-policy.md'), '\nAccess rights are reviewed every quarter by the system owner.\n');
    const number = github.addPullRequest();
    return {
      workspace,
      event: gitHubEvent('pull_request', { number, fork: options.fork ?? false, base }),
      github,
      pullRequest: number,
      hasKey: !options.fork,
      pullRequestFiles: { baseline: `${BASELINE_DIR}/report.json` },
    };
  };
  const base = HIPAA_CONFIG(THRESHOLD);
  switch (id) {
    case 'push to the default branch':
      return { workspace: makeWorkspace(base), event: gitHubEvent('push'), github, pullRequest: undefined, hasKey: true, pullRequestFiles: undefined };
    case 'schedule with a waiver':
      return { workspace: makeWorkspace(HIPAA_CONFIG(THRESHOLD, waivers(waivedOnSchedule(world)))), event: gitHubEvent('schedule'), github, pullRequest: undefined, hasKey: true, pullRequestFiles: undefined };
    case 'same-repo pull request':
    case 're-run of a pull request':
    case 'pull request under a too-small cap':
      return onPullRequest(base, base, { edit: true });
    case 'fork pull request':
      return onPullRequest(base, base, { fork: true, edit: true });
    case 'pull request that changes compliance.yml':
      // The default branch gates at 95 % (the fixture's 93.8 % fails it) with failOn new-gaps; the
      // pull request lowers it to 10 %, waives every gap and relaxes failOn to coverage: none of
      // them may judge it (BASE_BRANCH_GATE_FIELDS).
      return onPullRequest(HIPAA_CONFIG(10, `failOn: coverage\n${waivers(world.gapControls)}`), HIPAA_CONFIG(STRICT_BASE, 'failOn: new-gaps\n'), { edit: true });
    case 'unchanged repository':
      return onPullRequest(base, base);
  }
}

export async function balanceOf(sandbox: RunningSandbox, key: string): Promise<number> {
  const response = await fetch(`${sandbox.baseUrl}/billing`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { balanceTokens: number }).balanceTokens;
}

export async function libraryDocuments(sandbox: RunningSandbox, key: string): Promise<number> {
  const response = await fetch(`${sandbox.baseUrl}/library`, { headers: { authorization: `Bearer ${key}` } });
  return ((await response.json()) as { storage: { documents: number } }).storage.documents;
}

export interface Observed {
  ledgerDelta: number;
  status: string | undefined;
  passed: boolean | undefined;
  libraryWrites: number;
  github: Expected['github'];
  /** Writes to GitHub besides the own comment and (where the row opens them) gap issues: must stay empty. */
  foreignWrites: string[];
  stepFails: boolean | undefined;
}

/** Sorts the fake GitHub's recorded writes: the own pull request's comment, gap issues (and their labels), anything else. */
export function gitHubWrites(stageOf: Stage, issuesAllowed: boolean): { github: Expected['github']; foreignWrites: string[] } {
  const base = `/repos/${REPOSITORY}`;
  const own = stageOf.pullRequest;
  const ownIds = new Set(own === undefined ? [] : stageOf.github.commentsOn(own).map((comment) => comment.id));
  let ownComment = false;
  let issuesOpened = 0;
  const foreignWrites: string[] = [];
  for (const write of stageOf.github.writes()) {
    const where = write.path.startsWith(base) ? write.path.slice(base.length) : write.path;
    const comment = /^\/issues\/(\d+)\/comments$/.exec(where);
    const edit = /^\/issues\/comments\/(\d+)$/.exec(where);
    if ((comment && Number(comment[1]) === own) || (edit && ownIds.has(Number(edit[1])))) ownComment = true;
    else if (issuesAllowed && write.method === 'POST' && where === '/issues') issuesOpened++;
    else if (issuesAllowed && (/^\/issues\/\d+$/.test(where) || where.startsWith('/labels'))) continue;
    else foreignWrites.push(`${write.method} ${where}`);
  }
  return { github: { ownComment, issuesOpened }, foreignWrites };
}

export interface Verdict {
  status: string | undefined;
  passed: boolean | undefined;
  stepFails: boolean | undefined;
}

/** Runs `act` (the surface's run of the row) and measures it against the row's own key and fake GitHub. */
export async function observe(world: World, row: Scenario, surface: Surface, staged: Stage, act: () => Promise<Verdict>): Promise<Observed> {
  const key = liveKey(row.id, surface);
  const [balance, library] = [await balanceOf(world.sandbox, key), await libraryDocuments(world.sandbox, key)];
  const verdict = await act();
  const writes = gitHubWrites(staged, row.expected.github.issuesOpened > 0);
  return {
    ledgerDelta: balance - (await balanceOf(world.sandbox, key)),
    status: verdict.status,
    passed: verdict.passed,
    libraryWrites: (await libraryDocuments(world.sandbox, key)) - library,
    ...writes,
    stepFails: verdict.stepFails,
  };
}

/** The row's expectation as `surface` can show it (its own comment only where it renders one). */
export function expectedFor(row: Scenario, surface: Surface): Observed {
  const { ledgerDelta, status, passed, libraryWrites, stepFails } = row.expected;
  const expected: Observed = { ledgerDelta, status, passed, libraryWrites, github: expectedGitHub(row, surface), foreignWrites: [], stepFails };
  for (const field of NOT_SHOWN[surface]?.fields ?? []) expected[field] = undefined;
  return expected;
}
