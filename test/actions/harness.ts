/**
 * Runs a bundled action the way the runner does: `node actions/<name>/dist/index.js` in a child
 * process with INPUT_<NAME> variables (upper-cased, dashes kept), GITHUB_OUTPUT,
 * GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH, GITHUB_REPOSITORY, GITHUB_API_URL and the workspace, and
 * returns its exit code, output, outputs, summary and annotations.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../..');
export const REPOSITORY = 'acme/policies';
export const API_KEY = 'csk_sandbox_actions_test_key_0001';
export const LIVE_API_KEY = 'csk_live_actions_test_key_0002';
export const GITHUB_TOKEN = 'ghs_fakeGitHubTokenForActionsTests0001';

const PUSH_PAYLOAD = JSON.parse(readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'events', 'push.json'), 'utf8')) as { repository: unknown };

/** Every webhook payload of a repository's event names the repository (and its default branch), as GitHub sends it. */
function withRepository(payload: unknown): unknown {
  return payload !== null && typeof payload === 'object' && !('repository' in payload) ? { repository: PUSH_PAYLOAD.repository, ...payload } : payload;
}

export interface ActionRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  annotations: Array<{ kind: 'error' | 'warning' | 'notice'; properties: string; message: string }>;
}

export interface RunOptions {
  inputs?: Record<string, string | undefined>;
  workspace: string;
  event?: { name: string; payload: unknown };
  apiUrl?: string;
  env?: Record<string, string | undefined>;
  /** The repository whose actions/<name>/dist/index.js runs (default: this one; the release rehearsal passes a copy). */
  root?: string;
}

/** `::add-mask::` lines are the runner protocol for masking and are never printed by the runner. */
export function visibleLog(text: string): string {
  return text.split('\n').filter((line) => !line.startsWith('::add-mask::')).join('\n');
}

/** The GITHUB_OUTPUT file format: `name<<DELIMITER\nvalue\nDELIMITER`. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const match = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!match) continue;
    const [, name, delimiter] = match;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
    outputs[name as string] = value.join('\n');
  }
  return outputs;
}

function unescapeCommand(text: string): string {
  return text.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

function parseAnnotations(stdout: string): ActionRun['annotations'] {
  return stdout
    .split('\n')
    .flatMap((line) => {
      const match = /^::(error|warning|notice)( [^:]*)?::(.*)$/.exec(line);
      return match ? [{ kind: match[1] as 'error' | 'warning' | 'notice', properties: unescapeCommand(match[2]?.trim() ?? ''), message: unescapeCommand(match[3] ?? '') }] : [];
    });
}

/**
 * What the runner gives every step, with the event payload written to `dir/event.json` and the job
 * summary at `dir/summary.md`. Without an event: a push to the default branch, as the runner gives it
 * (an event payload that names no default branch is unlisted, deny-by-default).
 */
export function runnerVariables(options: Pick<RunOptions, 'workspace' | 'event' | 'apiUrl'>, dir: string): Record<string, string> {
  writeFileSync(join(dir, 'event.json'), JSON.stringify(options.event ? withRepository(options.event.payload) : PUSH_PAYLOAD));
  writeFileSync(join(dir, 'summary.md'), '');
  return {
    GITHUB_ACTIONS: 'true',
    CI: 'true',
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
    GITHUB_EVENT_NAME: options.event?.name ?? 'push',
    GITHUB_REF: 'refs/heads/main',
    GITHUB_REPOSITORY: REPOSITORY,
    GITHUB_WORKSPACE: options.workspace,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '4242',
    GITHUB_ACTOR: 'octocat',
    RUNNER_TEMP: dir,
    ...(options.apiUrl ? { GITHUB_API_URL: options.apiUrl } : {}),
  };
}

export async function runAction(name: string, options: RunOptions): Promise<ActionRun> {
  const runnerDir = mkdtempSync(join(tmpdir(), `action-${name}-`));
  const outputFile = join(runnerDir, 'output');
  const summaryFile = join(runnerDir, 'summary.md');
  writeFileSync(outputFile, '');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: runnerDir, GITHUB_OUTPUT: outputFile, ...runnerVariables(options, runnerDir) };
  for (const [key, value] of Object.entries(options.env ?? {})) if (value !== undefined) env[key] = value;
  for (const [input, value] of Object.entries(options.inputs ?? {})) {
    if (value !== undefined) env[`INPUT_${input.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  const child = spawn(process.execPath, [join(options.root ?? REPO_ROOT, 'actions', name, 'dist', 'index.js')], { cwd: options.workspace, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolveExit) => child.on('close', resolveExit));
  const run: ActionRun = {
    code,
    stdout,
    stderr,
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
    summary: readFileSync(summaryFile, 'utf8'),
    annotations: parseAnnotations(stdout),
  };
  rmSync(runnerDir, { recursive: true, force: true });
  return run;
}

/** Every place a secret could leak to: the visible log, the summary, outputs and GitHub bodies. */
export function leakedSecrets(run: ActionRun, secrets: readonly string[], bodies: readonly unknown[] = []): string[] {
  const places: Record<string, string> = {
    stdout: visibleLog(run.stdout),
    stderr: run.stderr,
    summary: run.summary,
    outputs: JSON.stringify(run.outputs),
    'GitHub bodies': JSON.stringify(bodies),
  };
  return Object.entries(places).flatMap(([place, text]) => secrets.filter((secret) => text.includes(secret)).map(() => place));
}

/** The fixture policies map to 93.1 % of the HIPAA Security Rule with 5 gaps (6 without the asset management standard). */
export const HIPAA_CONFIG = (threshold: number, extra = '') => `repository: acme/policies
documents:
  - name: policies
    paths: ["policies/*.md"]
    category: Policies
frameworks:
  - framework: hipaa-security
    threshold: ${threshold}
${extra}`;

/** A compliance.yml `generate:` section with one Markdown document, for HIPAA_CONFIG's `extra`. */
export const GENERATE_ACCESS_CONTROL = `generate:
  - type: access_control_policy
    framework: hipaa-security
    organisation: { name: Acme Health, country: US }
    output: generated/access-control
    formats: [md]
`;

const POLICIES = join(REPO_ROOT, 'test', 'fixtures', 'policies');

export const POLICY_FILES = readdirSync(POLICIES).filter((file) => file.endsWith('.md')).sort();

/** A checked-out repository: compliance.yml and the fixture policies under policies/ (minus `without`). */
export function makeWorkspace(config: string, options: { without?: readonly string[] } = {}): string {
  const root = mkdtempSync(join(tmpdir(), 'action-workspace-'));
  mkdirSync(join(root, 'policies'));
  for (const file of POLICY_FILES) if (!options.without?.includes(file)) cpSync(join(POLICIES, file), join(root, 'policies', file));
  writeFileSync(join(root, 'compliance.yml'), config);
  return root;
}

export function addPolicy(workspace: string, file: string): void {
  cpSync(join(POLICIES, file), join(workspace, 'policies', file));
}

/** git for test checkouts: no user or system configuration, a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
  const env = { PATH: process.env.PATH ?? '', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'Octocat', GIT_AUTHOR_EMAIL: 'octocat@example.com', GIT_COMMITTER_NAME: 'Octocat', GIT_COMMITTER_EMAIL: 'octocat@example.com' };
  return execFileSync('git', args, { cwd, env, encoding: 'utf8' }).trim();
}

/**
 * Makes `workspace` a pull request's checkout as actions/checkout leaves it with fetch-depth: 0:
 * the base commit (on main) holds compliance.yml `baseConfig` (default: the workspace's own) and
 * the documents as they are now (with `baseDiffers`, the first policy as the pull request has not
 * yet changed it); the workspace as it stands is committed on top. Later edits are the pull
 * request's further changes. Returns the base commit, for pullRequestEvent.
 */
export function checkoutPullRequest(workspace: string, options: { baseConfig?: string; baseDiffers?: boolean } = {}): string {
  const head = readFileSync(join(workspace, 'compliance.yml'), 'utf8');
  const first = join(workspace, 'policies', readdirSync(join(workspace, 'policies')).filter((file) => file.endsWith('.md')).sort()[0] as string);
  const firstText = options.baseDiffers ? readFileSync(first, 'utf8') : undefined;
  git(workspace, 'init', '-q', '-b', 'main');
  if (options.baseConfig !== undefined) writeFileSync(join(workspace, 'compliance.yml'), options.baseConfig);
  if (firstText !== undefined) writeFileSync(first, `${firstText}\nThis line is the default branch's; the pull request removes it.\n`);
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '--allow-empty', '-m', 'The default branch');
  const base = git(workspace, 'rev-parse', 'HEAD');
  git(workspace, 'checkout', '-q', '-b', 'feature');
  writeFileSync(join(workspace, 'compliance.yml'), head);
  if (firstText !== undefined) writeFileSync(first, firstText);
  git(workspace, 'add', '-A');
  git(workspace, 'commit', '-q', '--allow-empty', '-m', 'The pull request');
  return base;
}

const pullRequestBases = new Map<string, string>();

/**
 * A pull request `number` that changes a policy of `workspace` (made its checkout on first use,
 * then kept): the event a run of its check gets.
 */
export function onPullRequest(workspace: string, number: number, options: { fork?: boolean; baseConfig?: string } = {}) {
  let base = pullRequestBases.get(workspace);
  if (base === undefined) pullRequestBases.set(workspace, (base = checkoutPullRequest(workspace, { baseConfig: options.baseConfig, baseDiffers: true })));
  return pullRequestEvent(number, { fork: options.fork ?? false, base });
}

/** A pull_request event whose base commit is `base` (checkoutPullRequest's; the workflow runner fills in its origin's main). */
export function pullRequestEvent(number: number, options: { fork?: boolean; base?: string } = {}) {
  const head = options.fork ? 'contributor/policies' : REPOSITORY;
  return {
    name: 'pull_request',
    payload: {
      action: 'synchronize',
      number,
      pull_request: { number, head: { ref: 'feature', repo: { full_name: head, fork: options.fork ?? false } }, base: { ref: 'main', ...(options.base ? { sha: options.base } : {}), repo: { full_name: REPOSITORY } } },
      repository: { full_name: REPOSITORY, name: 'policies', owner: { login: 'acme' }, default_branch: 'main' },
    },
  };
}
