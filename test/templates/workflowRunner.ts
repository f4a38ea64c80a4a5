/**
 * Runs a workflow file's jobs and steps in order, the way the GitHub runner does, as far as the
 * templates need it:
 * - jobs in `needs` order, each with a fresh checkout workspace, its own GITHUB_TOKEN carrying its
 *   `permissions:` (GitHubGateway enforces them), job `if:`, `env:` and `outputs:`;
 * - `uses: <this repository>/actions/<name>@<major tag>` runs this repository's bundle through test/actions'
 *   runAction (INPUT_* from `with:` plus the action.yml defaults, expressions evaluated);
 * - `run:` steps run in bash (`bash --noprofile --norc -eo pipefail`) with the runner's variables,
 *   GITHUB_OUTPUT / GITHUB_ENV / GITHUB_STEP_SUMMARY files and workflow commands (annotations);
 * - the pinned third-party actions the templates use (checkout, upload-artifact, download-artifact,
 *   cache/restore, cache/save, codeql-action/upload-sarif) are simulated: checkout clones a local bare
 *   "origin" (a push needs `contents: write` and persisted credentials), artifacts are copied between
 *   jobs, caches live in a CacheStore shared by the runs of one repository with GitHub's scope rule (a
 *   run restores caches of its own ref and of the default branch; keys are immutable); upload-sarif
 *   validates the SARIF 2.1.0 file, sets its category as the action does and sends it with the job's
 *   token (GitHubGateway checks `actions: read` and `security-events: write` and keeps it);
 * - `if:` conditions with the status functions, step outputs, `needs.<job>.outputs`.
 * Anything else (other actions, shells, matrix, continue-on-error, …) throws: a template must not
 * depend on what the harness would only pretend to do.
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { REPO_ROOT, REPOSITORY, runAction, visibleLog } from '../actions/harness.js';
import { sarifErrors } from '../fixtures/sarif/validateSarif.js';
import { condition, interpolate, type ExpressionContext, type Value } from './expressions.js';
import { PERMISSION_SCOPES, type Access, type GitHubGateway, type Permissions } from './githubGateway.js';

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** owner/name of this repository: from the root package.json `repository` field, the one place it is written. */
export const OWN_REPOSITORY = ((): string => {
  const { repository } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { repository?: string | { url?: string } };
  const url = typeof repository === 'string' ? repository : repository?.url ?? '';
  const match = /github\.com[/:]([^/\s]+\/[^/\s]+?)(?:\.git)?$/.exec(url);
  if (!match) throw new Error(`package.json: repository ${JSON.stringify(url)} names no GitHub owner/name`);
  return match[1] as string;
})();

/** The ref our `uses:` lines name: the major tag the release workflow moves (its env ACTIONS_MAJOR). */
export const ACTIONS_REF = ((): string => {
  const release = parse(readFileSync(join(REPO_ROOT, '.github', 'workflows', 'release.yml'), 'utf8')) as { env?: { ACTIONS_MAJOR?: unknown } };
  const major = release.env?.ACTIONS_MAJOR;
  if (typeof major !== 'string' || !/^v\d+$/.test(major)) throw new Error('.github/workflows/release.yml: env.ACTIONS_MAJOR must be the major tag, e.g. v1');
  return major;
})();

/** How the templates and READMEs refer to this repository's actions; see actions/README.md. */
export const OUR_ACTION = new RegExp(`^${escapeRegExp(OWN_REPOSITORY)}/actions/([a-z][a-z-]*)@${escapeRegExp(ACTIONS_REF)}$`);
export const THIRD_PARTY = /^([A-Za-z0-9-]+\/[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*)@([0-9a-f]{40})$/;

/** The metadata file of a pinned third-party action (`owner/repo[/path]@sha`) under THIRD_PARTY_DIR. */
export const thirdPartyFile = (repo: string, sha: string) => `${repo.replaceAll('/', '+')}@${sha}.yml`;
export const THIRD_PARTY_DIR = join(REPO_ROOT, 'test', 'templates', 'github', 'third-party');

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Workflow = Record<string, any>;
export type Step = Record<string, any>;

export interface Annotation {
  kind: 'error' | 'warning' | 'notice';
  properties: string;
  message: string;
}

export interface StepResult {
  name: string;
  id: string | undefined;
  kind: 'action' | 'run' | 'third-party';
  uses: string | undefined;
  outcome: 'success' | 'failure' | 'skipped';
  outputs: Record<string, string>;
  log: string;
  summary: string;
  annotations: Annotation[];
  /** Inputs given to an action (after expressions and defaults). */
  inputs: Record<string, string>;
}

export interface JobResult {
  name: string;
  result: 'success' | 'failure' | 'skipped';
  steps: StepResult[];
  outputs: Record<string, string>;
  permissions: Permissions;
  summary: string;
  workspace: string;
}

export interface WorkflowRun {
  conclusion: 'success' | 'failure';
  jobs: Record<string, JobResult>;
  summary: string;
  log: string;
  annotations: Annotation[];
  step(job: string, id: string): StepResult;
}

export interface WorkflowRunOptions {
  file: string;
  event: { name: string; payload?: Record<string, unknown> };
  /** Bare git repository the checkout clones. */
  origin: string;
  /** Branch checked out (default main). */
  ref?: string;
  github: GitHubGateway;
  secrets?: Record<string, string>;
  vars?: Record<string, string>;
  /** workflow_dispatch inputs. */
  inputs?: Record<string, string | boolean | number>;
  /** A pull request from a fork: no secrets, a read-only token. */
  fork?: boolean;
  /** Values of the workflow's top-level env: as a user would edit them. */
  env?: Record<string, string>;
  /** The repository's Actions caches (actions/cache/restore and save), shared across runs. */
  caches?: CacheStore;
}

/** The Actions cache of one repository: immutable keys, each saved by a ref (branch or pull request merge ref). */
export class CacheStore {
  readonly entries: Array<{ key: string; ref: string; dir: string; order: number }> = [];
  readonly defaultBranch = 'refs/heads/main';

  save(key: string, ref: string, source: string): 'saved' | 'exists' {
    if (this.entries.some((entry) => entry.key === key)) return 'exists';
    const dir = mkdtempSync(join(tmpdir(), 'actions-cache-'));
    cpSync(source, dir, { recursive: true });
    this.entries.push({ key, ref, dir, order: this.entries.length });
    return 'saved';
  }

  /** GitHub's rule: a run restores caches of its own ref, else of the base/default branch; exact key first, then the newest by prefix. */
  restore(key: string, prefixes: readonly string[], ref: string, baseRef: string | undefined): { key: string; dir: string; exact: boolean } | undefined {
    const scopes = [ref, baseRef ? `refs/heads/${baseRef}` : this.defaultBranch];
    for (const scope of scopes) {
      const visible = this.entries.filter((entry) => entry.ref === scope).sort((a, b) => b.order - a.order);
      const exact = visible.find((entry) => entry.key === key);
      if (exact) return { key: exact.key, dir: exact.dir, exact: true };
      for (const prefix of prefixes) {
        const found = visible.find((entry) => entry.key.startsWith(prefix));
        if (found) return { key: found.key, dir: found.dir, exact: false };
      }
    }
    return undefined;
  }
}

export function loadWorkflow(file: string): Workflow {
  return parse(readFileSync(file, 'utf8')) as Workflow;
}

/** `on:` of a workflow (YAML 1.1 parsers read a bare `on` as true; ours reads it as "on"). */
export function triggers(workflow: Workflow): Record<string, any> {
  return (workflow.on ?? workflow.true) as Record<string, any>;
}

export function resolvePermissions(value: unknown, where: string): Permissions {
  if (value === undefined) throw new Error(`${where}: no permissions: declared (the harness refuses GitHub's defaults)`);
  if (value === 'read-all' || value === 'write-all') return Object.fromEntries(PERMISSION_SCOPES.map((scope) => [scope, value === 'read-all' ? 'read' : 'write']));
  if (value === null || typeof value !== 'object') throw new Error(`${where}: permissions must be a map`);
  const permissions: Permissions = {};
  for (const [scope, access] of Object.entries(value as Record<string, unknown>)) {
    if (!(PERMISSION_SCOPES as readonly string[]).includes(scope)) throw new Error(`${where}: unknown permission scope ${scope}`);
    if (access !== 'read' && access !== 'write' && access !== 'none') throw new Error(`${where}: permission ${scope} must be read, write or none`);
    permissions[scope] = access as Access;
  }
  return permissions;
}

export function actionMetadata(name: string): Record<string, any> {
  const path = join(REPO_ROOT, 'actions', name, 'action.yml');
  if (!existsSync(path)) throw new Error(`no action actions/${name} in this repository`);
  return parse(readFileSync(path, 'utf8')) as Record<string, any>;
}

export function thirdPartyMetadata(uses: string): Record<string, any> {
  const match = THIRD_PARTY.exec(uses);
  if (!match) throw new Error(`${uses}: a third-party action must be pinned to a full commit SHA`);
  const path = join(THIRD_PARTY_DIR, thirdPartyFile(match[1] as string, match[2] as string));
  if (!existsSync(path)) throw new Error(`${uses}: not one of the third-party actions the harness knows (test/templates/github/third-party)`);
  return parse(readFileSync(path, 'utf8')) as Record<string, any>;
}

/** GITHUB_OUTPUT / GITHUB_ENV file format: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseKeyValueFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i] as string);
      if (i >= lines.length) throw new Error(`unterminated ${heredoc[1]}<<${heredoc[2]} block`);
      values[heredoc[1] as string] = value.join('\n');
      continue;
    }
    const pair = /^([^=]+)=(.*)$/.exec(line);
    if (pair) values[pair[1] as string] = pair[2] as string;
    else if (line.trim() !== '') throw new Error(`malformed line in an output file: ${line}`);
  }
  return values;
}

function unescapeCommand(text: string): string {
  return text.replace(/%0A/g, '\n').replace(/%0D/g, '\r').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
}

export function parseAnnotations(log: string): Annotation[] {
  return log.split('\n').flatMap((line) => {
    const match = /^::(error|warning|notice)( [^:]*)?::(.*)$/.exec(line);
    return match ? [{ kind: match[1] as Annotation['kind'], properties: unescapeCommand(match[2]?.trim() ?? ''), message: unescapeCommand(match[3] ?? '') }] : [];
  });
}

function git(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: cwd } });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout;
}

function toText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') throw new Error(`an object cannot be an input or env value: ${JSON.stringify(value)}`);
  return String(value);
}

function runBash(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; log: string }> {
  return new Promise((resolveRun) => {
    const file = join(env.RUNNER_TEMP as string, `step-${Date.now()}-${Math.random().toString(36).slice(2)}.sh`);
    writeFileSync(file, script);
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
    let log = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (log += chunk));
    child.on('close', (code) => resolveRun({ code, log }));
  });
}

/**
 * github/codeql-action/upload-sarif as far as a template can tell: the file (or the .sarif files of a
 * directory) must be valid SARIF 2.1.0, each run without automationDetails gets the category (with a
 * trailing `/`), the workflow run is read (`actions: read`) and the gzipped, base64 SARIF is PUT to
 * code-scanning/analysis with the job's token (`security-events: write`). Returns the upload's id.
 */
async function uploadSarif(
  inputs: Record<string, string>,
  job: { workspace: string; token: string; gatewayUrl: string; runId: string; ref: string; sha: string; analysisKey: string },
): Promise<string> {
  const given = inputs.sarif_file || '../results';
  const path = resolve(job.workspace, given);
  if (!existsSync(path)) throw new Error(`Path does not exist: ${given}`);
  const files = statSync(path).isDirectory() ? readdirSync(path).filter((file) => file.endsWith('.sarif')).map((file) => join(path, file)) : [path];
  if (files.length === 0) throw new Error(`No SARIF files found to upload in "${given}".`);
  const logs = files.map((file) => {
    const sarif = JSON.parse(readFileSync(file, 'utf8')) as { version?: string; runs?: Array<Record<string, unknown>> };
    const errors = sarifErrors(sarif);
    if (errors.length > 0) throw new Error(`Unable to upload "${file}" as it is not valid SARIF: ${JSON.stringify(errors)}`);
    return sarif;
  });
  const runs = logs.flatMap((log) => log.runs ?? []);
  const category = inputs.category;
  if (category) for (const run of runs) run.automationDetails ??= { id: category.endsWith('/') ? category : `${category}/` };
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${job.gatewayUrl}/repos/${REPOSITORY}${path}`, {
      method,
      headers: { authorization: `token ${inputs.token || job.token}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${String(json.message)}`);
    return json;
  };
  await api('GET', `/actions/runs/${job.runId}`);
  const sarif = { ...logs[0], runs };
  const accepted = await api('PUT', '/code-scanning/analysis', {
    commit_oid: job.sha,
    ref: job.ref,
    analysis_key: job.analysisKey,
    sarif: gzipSync(JSON.stringify(sarif)).toString('base64'),
    workflow_run_id: Number(job.runId),
    checkout_uri: `file://${inputs.checkout_path || job.workspace}`,
  });
  return String(accepted.id);
}

/** Each workflow run gets its own id, as on GitHub (cache keys and links name it). */
let nextRunId = 4242;

export async function runWorkflow(options: WorkflowRunOptions): Promise<WorkflowRun> {
  const runId = String(nextRunId++);
  const workflow = loadWorkflow(options.file);
  const on = triggers(workflow);
  if (!on || !(options.event.name in on)) throw new Error(`${basename(options.file)} does not run on ${options.event.name}`);
  const ref = options.ref ?? 'main';
  // Every event of a repository names it and its default branch, as GitHub sends it.
  const payload: Record<string, unknown> = { repository: { full_name: REPOSITORY, name: REPOSITORY.split('/')[1], owner: { login: REPOSITORY.split('/')[0] }, default_branch: 'main' }, ...structuredClone(options.event.payload ?? {}) };
  // GitHub names the base commit of a pull request: the base branch's tip on origin.
  const pull = payload.pull_request as { base?: { ref?: string; sha?: string } } | undefined;
  if (options.event.name === 'pull_request' && pull?.base && !pull.base.sha) pull.base.sha = git(tmpdir(), ['--git-dir', options.origin, 'rev-parse', `refs/heads/${pull.base.ref ?? 'main'}`]).trim();
  const pullNumber = (payload as { pull_request?: { number?: number } }).pull_request?.number;
  const githubRef = options.event.name === 'pull_request' ? `refs/pull/${pullNumber}/merge` : `refs/heads/${ref}`;
  const baseRef = options.event.name === 'pull_request' ? String((payload as { pull_request?: { base?: { ref?: string } } }).pull_request?.base?.ref ?? 'main') : '';
  const headSha = git(tmpdir(), ['--git-dir', options.origin, 'rev-parse', `refs/heads/${ref}`]).trim();
  const artifacts = mkdtempSync(join(tmpdir(), 'workflow-artifacts-'));
  const eventFile = join(artifacts, 'event.json');
  writeFileSync(eventFile, JSON.stringify(payload));

  // workflow_dispatch inputs: declared defaults, typed as GitHub types them.
  const inputs: Record<string, Value> = {};
  if (options.event.name === 'workflow_dispatch') {
    const declared = (on.workflow_dispatch?.inputs ?? {}) as Record<string, { type?: string; default?: unknown; options?: string[] }>;
    for (const name of Object.keys(options.inputs ?? {})) if (!(name in declared)) throw new Error(`workflow_dispatch has no input ${name}`);
    for (const [name, spec] of Object.entries(declared)) {
      const given = options.inputs?.[name] ?? spec.default ?? (spec.type === 'boolean' ? false : '');
      if (spec.type === 'choice' && !spec.options?.includes(String(given))) throw new Error(`input ${name}: ${String(given)} is not one of its options`);
      inputs[name] = spec.type === 'boolean' ? given === true || given === 'true' : spec.type === 'number' ? Number(given) : String(given);
    }
  }
  const secrets: Record<string, Value> = options.fork ? {} : { ...(options.secrets ?? {}) };
  const vars: Record<string, Value> = { ...(options.vars ?? {}) };
  const workflowEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries((workflow.env ?? {}) as Record<string, unknown>)) workflowEnv[name] = toText(value);
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (!(name in workflowEnv)) throw new Error(`the workflow has no env ${name} to set`);
    workflowEnv[name] = value;
  }

  const jobs = (workflow.jobs ?? {}) as Record<string, Workflow>;
  const results: Record<string, JobResult> = {};
  const order: string[] = [];
  const visit = (name: string, path: string[] = []) => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`needs cycle: ${[...path, name].join(' → ')}`);
    const job = jobs[name];
    if (!job) throw new Error(`needs names an unknown job ${name}`);
    for (const need of [job.needs ?? []].flat() as string[]) visit(need, [...path, name]);
    order.push(name);
  };
  Object.keys(jobs).forEach((name) => visit(name));

  for (const name of order) {
    const job = jobs[name] as Workflow;
    const needs = [job.needs ?? []].flat() as string[];
    for (const key of Object.keys(job)) {
      if (!['name', 'needs', 'if', 'runs-on', 'timeout-minutes', 'permissions', 'outputs', 'steps', 'env'].includes(key)) throw new Error(`job ${name}: ${key} is not supported by the harness`);
    }
    let permissions = resolvePermissions(job.permissions ?? workflow.permissions, `job ${name}`);
    if (options.fork) permissions = Object.fromEntries(Object.entries(permissions).map(([scope, access]) => [scope, access === 'none' ? 'none' : 'read']));
    const token = options.github.issueToken(name, permissions);
    const workspace = mkdtempSync(join(tmpdir(), `workflow-${name}-`));
    const runnerTemp = mkdtempSync(join(tmpdir(), `runner-temp-${name}-`));
    const github: Record<string, Value> = {
      event_name: options.event.name,
      event: payload as Value,
      repository: REPOSITORY,
      repository_owner: REPOSITORY.split('/')[0] as string,
      ref: githubRef,
      ref_name: options.event.name === 'pull_request' ? `${pullNumber}/merge` : ref,
      base_ref: baseRef,
      sha: headSha,
      token,
      run_id: runId,
      server_url: 'https://github.example',
      api_url: options.github.url,
      workspace,
      actor: 'octocat',
      job: name,
    };
    const needsContext = (need: string): Value => {
      if (!needs.includes(need)) throw new Error(`job ${name} reads needs.${need} but does not need it`);
      const result = results[need] as JobResult;
      return { result: result.result, outputs: result.outputs };
    };
    const jobStatus = {
      success: () => needs.every((need) => results[need]?.result === 'success'),
      failure: () => needs.some((need) => results[need]?.result === 'failure'),
    };
    const base = { github, secrets, vars, inputs, runner: { temp: runnerTemp, os: 'Linux', arch: 'X64' } as Value, needs: needsContext };
    const jobResult: JobResult = { name, result: 'skipped', steps: [], outputs: {}, permissions, summary: '', workspace };
    results[name] = jobResult;
    if (!condition(job.if, { contexts: { ...base, env: workflowEnv }, status: jobStatus })) continue;

    const env: Record<string, string> = { ...workflowEnv };
    for (const [key, value] of Object.entries((job.env ?? {}) as Record<string, unknown>)) env[key] = interpolate(toText(value), { contexts: { ...base, env } });
    const steps = (job.steps ?? []) as Step[];
    const ids = new Set(steps.map((step) => step.id).filter(Boolean));
    const stepResults = new Map<string, StepResult>();
    const stepsContext = (id: string): Value => {
      if (!ids.has(id)) throw new Error(`job ${name} reads steps.${id}, but no step has that id`);
      const result = stepResults.get(id);
      return { outputs: result?.outputs ?? {}, outcome: result?.outcome ?? null, conclusion: result?.outcome ?? null };
    };
    const addedEnv: Record<string, string> = {};
    let failed = false;
    const stepStatus = { success: () => !failed, failure: () => failed };

    for (const [index, step] of steps.entries()) {
      for (const key of Object.keys(step)) {
        if (!['name', 'id', 'if', 'uses', 'with', 'run', 'env', 'shell'].includes(key)) throw new Error(`step ${step.name ?? index}: ${key} is not supported by the harness`);
      }
      if (step.shell !== undefined && step.shell !== 'bash') throw new Error(`step ${step.name}: only bash is supported`);
      const label = String(step.name ?? step.uses ?? `step ${index + 1}`);
      const result: StepResult = { name: label, id: step.id, kind: step.uses ? (OUR_ACTION.test(step.uses) ? 'action' : 'third-party') : 'run', uses: step.uses, outcome: 'skipped', outputs: {}, log: '', summary: '', annotations: [], inputs: {} };
      jobResult.steps.push(result);
      if (step.id) stepResults.set(step.id, result);
      const preEnv = { ...env, ...addedEnv };
      const context = (extraEnv: Record<string, string>): ExpressionContext => ({ contexts: { ...base, env: extraEnv, steps: stepsContext, job: { status: failed ? 'failure' : 'success' } }, status: stepStatus });
      if (!condition(step.if, context(preEnv))) continue;
      const stepEnv = { ...preEnv };
      for (const [key, value] of Object.entries((step.env ?? {}) as Record<string, unknown>)) stepEnv[key] = interpolate(toText(value), context(stepEnv));
      const ctx = context(stepEnv);
      const withInputs: Record<string, string> = {};
      for (const [key, value] of Object.entries((step.with ?? {}) as Record<string, unknown>)) withInputs[key] = interpolate(toText(value), ctx);

      let ok: boolean;
      if (step.run !== undefined) {
        if (step.uses) throw new Error(`step ${label}: both run and uses`);
        const outputFile = join(runnerTemp, `output-${index}`);
        const envFile = join(runnerTemp, `env-${index}`);
        const summaryFile = join(runnerTemp, `summary-${index}.md`);
        for (const file of [outputFile, envFile, summaryFile]) writeFileSync(file, '');
        const script = interpolate(String(step.run), ctx);
        const { code, log } = await runBash(script, workspace, {
          PATH: process.env.PATH ?? '',
          HOME: runnerTemp,
          LANG: 'C.UTF-8',
          CI: 'true',
          GITHUB_ACTIONS: 'true',
          GITHUB_API_URL: options.github.url,
          GITHUB_SERVER_URL: 'https://github.example',
          GITHUB_REPOSITORY: REPOSITORY,
          GITHUB_REPOSITORY_OWNER: REPOSITORY.split('/')[0] as string,
          GITHUB_EVENT_NAME: options.event.name,
          GITHUB_EVENT_PATH: eventFile,
          GITHUB_REF: githubRef,
          GITHUB_REF_NAME: String(github.ref_name),
          GITHUB_BASE_REF: baseRef,
          GITHUB_SHA: headSha,
          GITHUB_RUN_ID: runId,
          GITHUB_WORKSPACE: workspace,
          GITHUB_OUTPUT: outputFile,
          GITHUB_ENV: envFile,
          GITHUB_STEP_SUMMARY: summaryFile,
          RUNNER_TEMP: runnerTemp,
          RUNNER_OS: 'Linux',
          GIT_CONFIG_NOSYSTEM: '1',
          ...stepEnv,
        });
        result.log = visibleLog(log);
        result.annotations = parseAnnotations(log);
        result.outputs = parseKeyValueFile(readFileSync(outputFile, 'utf8'));
        Object.assign(addedEnv, parseKeyValueFile(readFileSync(envFile, 'utf8')));
        result.summary = readFileSync(summaryFile, 'utf8');
        ok = code === 0;
        if (!ok) result.annotations.push({ kind: 'error', properties: '', message: `Process completed with exit code ${code}.` });
      } else if (result.kind === 'action') {
        const actionName = (OUR_ACTION.exec(step.uses) as RegExpExecArray)[1] as string;
        const metadata = actionMetadata(actionName);
        const declared = (metadata.inputs ?? {}) as Record<string, { required?: boolean; default?: string }>;
        for (const key of Object.keys(withInputs)) if (!(key in declared)) throw new Error(`step ${label}: actions/${actionName} has no input ${key}`);
        const given: Record<string, string> = {};
        for (const [key, spec] of Object.entries(declared)) {
          if (key in withInputs) given[key] = withInputs[key] as string;
          else if (spec.default !== undefined) given[key] = interpolate(String(spec.default), ctx);
          else if (spec.required) throw new Error(`step ${label}: actions/${actionName} requires input ${key}`);
        }
        result.inputs = given;
        const run = await runAction(actionName, {
          workspace,
          inputs: given,
          event: { name: options.event.name, payload },
          apiUrl: options.github.url,
          env: { ...stepEnv, GITHUB_REF: githubRef, GITHUB_REF_NAME: String(github.ref_name), GIT_CONFIG_NOSYSTEM: '1' },
        });
        result.log = visibleLog(`${run.stdout}\n${run.stderr}`);
        result.annotations = run.annotations;
        result.outputs = run.outputs;
        result.summary = run.summary;
        ok = run.code === 0;
      } else {
        const metadata = thirdPartyMetadata(step.uses);
        const declared = (metadata.inputs ?? {}) as Record<string, { default?: unknown }>;
        for (const key of Object.keys(withInputs)) if (!(key in declared)) throw new Error(`step ${label}: ${step.uses} has no input ${key}`);
        result.inputs = withInputs;
        const repo = (THIRD_PARTY.exec(step.uses) as RegExpExecArray)[1];
        ok = true;
        try {
          if (repo === 'actions/checkout') {
            // As actions/checkout: one commit unless fetch-depth says otherwise (0: the whole history).
            const depth = Number(withInputs['fetch-depth'] ?? '1');
            git(workspace, ['clone', '--quiet', ...(depth > 0 ? ['--depth', String(depth)] : []), '--branch', ref, `file://${options.origin}`, '.']);
            const persist = (withInputs['persist-credentials'] ?? 'true') === 'true';
            // Without persisted credentials or contents: write, a push cannot authenticate.
            if (!persist || permissions.contents !== 'write') git(workspace, ['remote', 'set-url', '--push', 'origin', join(runnerTemp, 'no-credentials-for-push.git')]);
            result.log = `checked out ${ref} (persist-credentials ${persist})`;
          } else if (repo === 'actions/upload-artifact') {
            const artifactName = withInputs.name || 'artifact';
            const source = resolve(workspace, withInputs.path ?? '');
            const target = join(artifacts, artifactName);
            if (existsSync(target)) throw new Error(`an artifact named ${artifactName} already exists`);
            if (!withInputs.path || !existsSync(source)) {
              const mode = withInputs['if-no-files-found'] ?? 'warn';
              if (mode === 'error') throw new Error(`no files were found with the provided path: ${withInputs.path}`);
              if (mode === 'warn') result.annotations.push({ kind: 'warning', properties: '', message: `No files were found with the provided path: ${withInputs.path}` });
            } else {
              mkdirSync(target, { recursive: true });
              cpSync(source, statSync(source).isDirectory() ? target : join(target, basename(source)), { recursive: true });
              result.log = `uploaded ${artifactName}`;
            }
          } else if (repo === 'actions/download-artifact') {
            const source = join(artifacts, withInputs.name ?? '');
            if (!withInputs.name || !existsSync(source)) throw new Error(`Artifact not found: ${withInputs.name}`);
            cpSync(source, resolve(workspace, withInputs.path ?? '.'), { recursive: true });
            result.log = `downloaded ${withInputs.name}`;
          } else if (repo === 'actions/cache/restore' || repo === 'actions/cache/save') {
            if (!options.caches) throw new Error(`${step.uses}: the harness cannot run this action without a CacheStore (pass caches)`);
            const target = resolve(workspace, withInputs.path ?? '');
            if (!withInputs.path || !withInputs.key) throw new Error('Input required and not supplied: path and key');
            if (repo === 'actions/cache/save') {
              if (!existsSync(target)) result.annotations.push({ kind: 'warning', properties: '', message: `Path Validation Error: Path(s) specified in the action for caching do(es) not exist, hence no cache is being saved.` });
              else if (options.caches.save(withInputs.key, githubRef, target) === 'exists') result.annotations.push({ kind: 'warning', properties: '', message: `Failed to save: Unable to reserve cache with key ${withInputs.key}, another job may be creating this cache.` });
              else result.log = `Cache saved with key: ${withInputs.key}`;
            } else {
              const prefixes = (withInputs['restore-keys'] ?? '').split('\n').map((line) => line.trim()).filter(Boolean);
              const found = options.caches.restore(withInputs.key, prefixes, githubRef, baseRef || undefined);
              result.outputs = { 'cache-hit': String(found?.exact ?? false), 'cache-primary-key': withInputs.key, 'cache-matched-key': found?.key ?? '' };
              if (found) {
                mkdirSync(target, { recursive: true });
                cpSync(found.dir, target, { recursive: true });
                result.log = `Cache restored from key: ${found.key}`;
              } else {
                result.log = `Cache not found for input keys: ${[withInputs.key, ...prefixes].join(', ')}`;
              }
            }
          } else if (repo === 'github/codeql-action/upload-sarif') {
            const uploaded = await uploadSarif(withInputs, { workspace, token: String(github.token), gatewayUrl: options.github.url, runId, ref: githubRef, sha: headSha, analysisKey: `.github/workflows/${basename(options.file)}:${name}` });
            result.outputs = { 'sarif-id': uploaded };
            result.log = `Successfully uploaded results (${uploaded})`;
          } else {
            throw new Error(`${step.uses}: the harness cannot run this action`);
          }
        } catch (error) {
          if ((error as Error).message.includes('the harness cannot run')) throw error;
          ok = false;
          result.annotations.push({ kind: 'error', properties: '', message: (error as Error).message });
        }
      }
      result.outcome = ok ? 'success' : 'failure';
      if (!ok) failed = true;
      jobResult.summary += result.summary;
    }
    jobResult.result = failed ? 'failure' : 'success';
    const outputContext: ExpressionContext = { contexts: { ...base, env, steps: stepsContext } };
    for (const [key, value] of Object.entries((job.outputs ?? {}) as Record<string, unknown>)) jobResult.outputs[key] = interpolate(toText(value), outputContext);
  }

  const all = Object.values(results);
  const steps = all.flatMap((job) => job.steps);
  return {
    conclusion: all.some((job) => job.result === 'failure') ? 'failure' : 'success',
    jobs: results,
    summary: all.map((job) => job.summary).join(''),
    log: steps.map((step) => `## ${step.name}\n${step.log}`).join('\n'),
    annotations: steps.flatMap((step) => step.annotations),
    step(job: string, id: string): StepResult {
      const found = results[job]?.steps.find((step) => step.id === id);
      if (!found) throw new Error(`no step ${id} in job ${job}`);
      return found;
    },
  };
}

/** Every secret (API keys, the jobs' tokens) found in what a run shows or sent to GitHub. */
export function leaks(run: WorkflowRun, secrets: readonly string[], github: GitHubGateway): string[] {
  const places: Record<string, string> = {
    log: run.log,
    summary: run.summary,
    annotations: JSON.stringify(run.annotations),
    outputs: JSON.stringify(Object.values(run.jobs).map((job) => [job.outputs, job.steps.map((step) => step.outputs)])),
    'GitHub bodies': JSON.stringify(github.requests.map((request) => request.body)),
    'GitHub issues and comments': JSON.stringify([[...github.fake.issues.values()], [...github.fake.comments.values()], [...github.pulls.values()]]),
  };
  const all = [...secrets, ...github.tokens()];
  return Object.entries(places).flatMap(([place, text]) => all.filter((secret) => text.includes(secret)).map((secret) => `${place} contains ${secret.slice(0, 8)}…`));
}

/** A bare origin repository holding `files` on main (and any further branches). */
export function makeOrigin(workspace: string): string {
  const origin = mkdtempSync(join(tmpdir(), 'origin-')) + '/repo.git';
  git(tmpdir(), ['init', '--quiet', '--bare', '--initial-branch', 'main', origin]);
  git(workspace, ['init', '--quiet', '--initial-branch', 'main']);
  git(workspace, ['add', '--all']);
  git(workspace, ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', 'Initial policies']);
  git(workspace, ['push', '--quiet', origin, 'main']);
  return origin;
}

/** Commits the changes of `edit` on `branch` (created from main when new) and pushes it to origin. */
export function pushBranch(origin: string, branch: string, edit: (dir: string) => void): void {
  const dir = mkdtempSync(join(tmpdir(), 'clone-'));
  git(dir, ['clone', '--quiet', origin, '.']);
  const exists = git(dir, ['ls-remote', '--heads', 'origin', branch]).trim() !== '';
  git(dir, exists ? ['checkout', '--quiet', branch] : ['checkout', '--quiet', '-b', branch]);
  edit(dir);
  git(dir, ['add', '--all']);
  git(dir, ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '--quiet', '-m', `Change ${branch}`]);
  git(dir, ['push', '--quiet', 'origin', branch]);
}

/** A file on a branch of origin, or undefined. */
export function showFile(origin: string, branch: string, path: string): string | undefined {
  const result = spawnSync('git', ['--git-dir', origin, 'show', `${branch}:${path}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout : undefined;
}

export function branches(origin: string): string[] {
  return git(origin, ['for-each-ref', '--format=%(refname:short)', 'refs/heads']).split('\n').filter(Boolean).sort();
}

/** Merges `branch` into main on origin (fast-forward when possible, else a merge commit), as the merge button does. */
export function mergeBranch(origin: string, branch: string): void {
  const dir = mkdtempSync(join(tmpdir(), 'merge-'));
  git(dir, ['clone', '--quiet', origin, '.']);
  git(dir, ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'merge', '--quiet', '--no-edit', `origin/${branch}`]);
  git(dir, ['push', '--quiet', 'origin', 'main']);
}
