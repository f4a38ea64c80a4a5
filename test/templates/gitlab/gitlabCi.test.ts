/**
 * templates/gitlab/compliance.gitlab-ci.yml run the way a GitLab runner runs it, as far as the
 * template needs: the jobs whose `rules:` match the pipeline (source, branch), `extends:` merged,
 * global and job `variables:` and GitLab's predefined CI_* variables in the environment,
 * `before_script` and `script` lines in bash stopping at the first failure, against a live-mode
 * sandbox and a fake GitLab API (merge request notes, the latest artifact of a job on a branch).
 * `npm install --global` of the CLI is simulated by putting the built CLI on PATH; the `cache:` by
 * keeping its paths between the runs of one project. Any other keyword throws: the template must
 * not depend on what this runner would only pretend to do.
 */
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { balance, buildCli, CLI, liveSandbox, LIVE_KEY, removeRepo, ROOT, tempRepo } from '../../cli/helpers.js';

const TEMPLATE = join(ROOT, 'templates/gitlab/compliance.gitlab-ci.yml');
const SERVER = 'https://gitlab.example';
const PROJECT = 'acme/compliance/policies';
const NOTE_TOKEN = 'glpat-note-token-0001';
const JOB_TOKEN = 'glcbt-job-token-0001';
const JOB_KEYS = new Set(['extends', 'rules', 'script', 'before_script', 'image', 'artifacts', 'cache', 'variables']);

interface Job {
  extends?: string;
  rules?: Array<{ if: string }>;
  before_script?: string[];
  script?: string[];
  variables?: Record<string, string>;
  artifacts?: { paths?: string[]; reports?: { junit?: string } };
  cache?: { key: string; paths: string[] };
}

/** The fake GitLab API: records merge request notes, serves the latest artifacts of a branch's jobs, checks the tokens. */
class FakeGitLab {
  notes: Array<{ path: string; body: string }> = [];
  /** `<ref>/<job>/<path>` → the file the latest successful job of that name on that ref kept. */
  artifacts = new Map<string, string>();
  #server: Server | undefined;
  url = '';

  async start(): Promise<this> {
    this.#server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        const artifact = /^\/api\/v4\/projects\/7\/jobs\/artifacts\/([^/]+)\/raw\/(.+)\?job=([\w-]+)$/.exec(request.url ?? '');
        if (request.method === 'GET' && artifact) {
          if (request.headers['job-token'] !== JOB_TOKEN) return response.writeHead(401).end('{"message":"401 Unauthorized"}');
          const file = this.artifacts.get(`${artifact[1]}/${artifact[3]}/${artifact[2]}`);
          return file === undefined ? response.writeHead(404).end('{"message":"404 Not Found"}') : response.writeHead(200).end(file);
        }
        const match = /^\/api\/v4\/projects\/(\d+)\/merge_requests\/(\d+)\/notes$/.exec(request.url ?? '');
        if (request.method !== 'POST' || !match) return response.writeHead(404).end('{"message":"404 Not Found"}');
        if (request.headers['private-token'] !== NOTE_TOKEN) return response.writeHead(401).end('{"message":"401 Unauthorized"}');
        this.notes.push({ path: request.url ?? '', body: (JSON.parse(body) as { body: string }).body });
        response.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ id: this.notes.length }));
      });
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
  }
}

/** A `rules: - if:` of comparisons `$VAR == "value"` or `$VAR == $OTHER` joined by `&&`: the only forms the template uses. */
function ruleMatches(rule: string, env: Record<string, string>): boolean {
  return rule.split('&&').every((part) => {
    const match = /^\$(\w+) == (?:"([^"]*)"|\$(\w+))$/.exec(part.trim());
    if (!match) throw new Error(`rule ${rule}: this runner reads only $VAR == "value" and $VAR == $OTHER joined by &&`);
    const [, name, value, other] = match;
    const left = env[name as string];
    return left !== undefined && left === (other === undefined ? value : env[other]);
  });
}

type Source = 'merge_request_event' | 'schedule' | 'push';

function jobsOf(source: Source, env: Record<string, string>): Array<[string, Job]> {
  const file = parse(readFileSync(TEMPLATE, 'utf8')) as Record<string, unknown>;
  const jobs: Array<[string, Job]> = [];
  for (const [name, value] of Object.entries(file)) {
    if (name === 'variables' || name.startsWith('.')) continue;
    const own = value as Job & { extends?: string };
    const job: Job = own.extends ? { ...(file[own.extends] as Job), ...own } : own;
    for (const key of Object.keys(job)) if (!JOB_KEYS.has(key)) throw new Error(`${name}: keyword ${key} is not simulated`);
    if (job.rules?.some((rule) => ruleMatches(rule.if, { ...env, CI_PIPELINE_SOURCE: source }))) jobs.push([name, job]);
  }
  return jobs;
}

describe('templates/gitlab/compliance.gitlab-ci.yml against the sandbox and a fake GitLab', () => {
  let box: RunningSandbox;
  let gitlab: FakeGitLab;
  let root: string;
  let bin: string;
  /** The merge request's head (branch feature, one policy changed) and the default branch's commit. */
  let commit: string;
  let mainCommit: string;
  let origin: string;
  let pipeline = 100;
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.test', ...args], { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: root } }).trim();

  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    gitlab = await new FakeGitLab().start();
    root = tempRepo({ count: 3, threshold: 10 });
    git('init', '-q', '-b', 'main');
    git('add', '-A');
    git('commit', '-q', '-m', 'policies');
    mainCommit = git('rev-parse', 'HEAD');
    // The project's GitLab remote: the merge request job fetches its target branch from it.
    origin = mkdtempSync(join(tmpdir(), 'gitlab-origin-'));
    execFileSync('git', ['clone', '-q', '--bare', root, origin]);
    git('remote', 'add', 'origin', origin);
    // The merge request: one policy changed on its source branch.
    git('checkout', '-q', '-b', 'feature');
    writeFileSync(join(root, 'policies', 'access-control.md'), '\nAccess rights are recertified every quarter by the system owner.\n', { flag: 'a' });
    git('commit', '-q', '-am', 'A policy changed');
    commit = git('rev-parse', 'HEAD');
    // `npm install --global compliance-engine-cli@1`, simulated: npm puts `compliance` on PATH (here the built CLI).
    bin = mkdtempSync(join(tmpdir(), 'gitlab-bin-'));
    writeFileSync(join(bin, 'npm'), `#!/bin/sh\n[ "$1 $2" = "install --global" ] || { echo "npm $*: not simulated" >&2; exit 1; }\nprintf '#!/bin/sh\\nexec "%s" "%s" "$@"\\n' "${process.execPath}" "${CLI}" > "${bin}/compliance"\nchmod +x "${bin}/compliance"\n`);
    chmodSync(join(bin, 'npm'), 0o755);
  }, 120_000);

  afterAll(async () => {
    await box?.close();
    await gitlab?.close();
    if (root) removeRepo(root);
    if (origin) removeRepo(origin);
  });

  /** Commits compliance.yml with `threshold` (and `extra`) to the target branch (main) of the remote, not to the checkout. */
  function setTarget(threshold: number, extra = ''): void {
    const clone = mkdtempSync(join(tmpdir(), 'gitlab-target-'));
    try {
      execFileSync('git', ['clone', '-q', origin, clone]);
      const config = join(clone, 'compliance.yml');
      writeFileSync(config, `${readFileSync(config, 'utf8').replace(/threshold: \d+/, `threshold: ${threshold}`).replace(/\nfailOn: .*\n?/, '\n').trimEnd()}\n${extra}`);
      const run = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Fixture', '-c', 'user.email=fixture@example.test', ...args], { cwd: clone, env: { PATH: process.env.PATH ?? '', HOME: clone } });
      run('commit', '-q', '--allow-empty', '-am', `threshold ${threshold}`);
      run('push', '-q', 'origin', 'HEAD:main');
    } finally {
      removeRepo(clone);
    }
  }
  const setTargetThreshold = (threshold: number) => setTarget(threshold);

  async function runPipeline(source: Source, extra: Record<string, string> = {}) {
    const file = parse(readFileSync(TEMPLATE, 'utf8')) as { variables: Record<string, string> };
    pipeline++;
    // A merge request pipeline runs on its source branch; the others here on the default branch.
    const mergeRequest = source === 'merge_request_event';
    git('checkout', '-q', mergeRequest ? 'feature' : 'main');
    const env: Record<string, string> = {
      PATH: `${bin}:${process.env.PATH ?? ''}`,
      HOME: root,
      CI: 'true',
      GITLAB_CI: 'true',
      CI_PIPELINE_SOURCE: source,
      CI_PIPELINE_ID: String(pipeline),
      CI_SERVER_URL: SERVER,
      CI_API_V4_URL: `${gitlab.url}/api/v4`,
      CI_PROJECT_PATH: PROJECT,
      CI_PROJECT_ID: '7',
      CI_DEFAULT_BRANCH: 'main',
      CI_JOB_TOKEN: JOB_TOKEN,
      CI_COMMIT_SHA: mergeRequest ? commit : mainCommit,
      COMPLIANCE_API_KEY: LIVE_KEY,
      COMPLIANCE_BASE_URL: box.baseUrl,
      ...(mergeRequest ? { CI_MERGE_REQUEST_IID: '3', CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: mainCommit } : { CI_COMMIT_BRANCH: 'main' }),
      ...file.variables,
      ...extra,
    };
    // One job after the other, each a bash process (asynchronous: the sandbox answers from this process).
    const runs: Array<{ name: string; job: Job; code: number | null; output: string }> = [];
    for (const [name, job] of jobsOf(source, env)) {
      const script = ['set -eo pipefail', ...(job.before_script ?? []), ...(job.script ?? [])].join('\n');
      const child = spawn('bash', ['--noprofile', '--norc', '-c', script], { cwd: root, env: { ...env, ...job.variables } });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      runs.push({ name, job, code, output });
      // GitLab serves the artifacts of a branch's latest successful job.
      if (code === 0 && !mergeRequest) for (const path of job.artifacts?.paths ?? []) keepArtifacts(name, path);
    }
    return runs;
  }

  function keepArtifacts(job: string, dir: string): void {
    const folder = join(root, dir);
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder)) gitlab.artifacts.set(`main/${job}/${dir.replace(/\/$/, '')}/${name}`, readFileSync(join(folder, name), 'utf8'));
  }

  it('on a merge request: maps without writing the library, keeps the JUnit report, posts the report as a note with GitLab links', async () => {
    const before = await balance(box);
    const runs = await runPipeline('merge_request_event', { COMPLIANCE_NOTE_TOKEN: NOTE_TOKEN });
    expect(runs.map((run) => run.name)).toEqual(['compliance-merge-request']);
    const [run] = runs;
    expect(run!.code, run!.output).toBe(0);
    // One mapping charged, nothing ingested.
    const spent = before - (await balance(box));
    const report = JSON.parse(readFileSync(join(root, 'compliance-report/report.json'), 'utf8'));
    expect(spent).toBeGreaterThan(0);
    expect(report.frameworks).toHaveLength(1);
    const library = await fetch(`${box.baseUrl}/library`, { headers: { authorization: `Bearer ${LIVE_KEY}` } });
    expect(((await library.json()) as { documents: unknown[] }).documents).toEqual([]);

    const junitPath = join(root, run!.job.artifacts!.reports!.junit!);
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['testsuite', 'testcase'].includes(name) }).parse(readFileSync(junitPath, 'utf8'));
    expect(junit.testsuites.testsuite).toHaveLength(1);
    expect(junit.testsuites.testsuite[0].testcase).toHaveLength(report.frameworks[0].controls.length);
    expect(Number(junit.testsuites.failures)).toBe(report.frameworks[0].gaps.filter((gap: { waived: boolean }) => !gap.waived).length);
    expect(existsSync(join(root, 'compliance-report/report.html'))).toBe(true);

    expect(gitlab.notes.map((note) => note.path)).toEqual(['/api/v4/projects/7/merge_requests/3/notes']);
    const evidence = report.frameworks[0].controls.flatMap((control: { evidence: Array<{ file: string; line: number; endLine: number }> }) => control.evidence)[0];
    // The project the pipeline runs in (CI_PROJECT_PATH, where the commit is), not the name compliance.yml
    // gives the set (acme/policies); the server and the spelling are GitLab's.
    const link = `${SERVER}/${PROJECT}/-/blob/${commit}/${evidence.file}#L${evidence.line}-${evidence.endLine}`;
    expect(report.repository).toBe(PROJECT);
    expect(gitlab.notes[0]!.body).toContain(`](${link})`);
    expect(gitlab.notes[0]!.body).toBe(readFileSync(join(root, 'compliance-report/report.md'), 'utf8'));
    expect(run!.output).not.toContain(LIVE_KEY);
    expect(run!.output).not.toContain(NOTE_TOKEN);
  });

  it("on a merge request under the target branch's threshold it fails the job, and still keeps the report and posts the note", async () => {
    setTargetThreshold(99);
    try {
      gitlab.notes = [];
      const [run] = await runPipeline('merge_request_event', { COMPLIANCE_NOTE_TOKEN: NOTE_TOKEN });
      expect(run!.code, run!.output).toBe(1);
      expect(gitlab.notes).toHaveLength(1);
      expect(gitlab.notes[0]!.body).toContain('❌ failed');
      expect(gitlab.notes[0]!.body).toMatch(/threshold 99/);
    } finally {
      setTargetThreshold(10);
    }
  });

  it("a merge request that lowers the threshold in its own compliance.yml is still judged by the target branch's, and the log says what it would change", async () => {
    setTargetThreshold(99);
    const config = join(root, 'compliance.yml');
    const text = readFileSync(config, 'utf8');
    writeFileSync(config, text.replace('threshold: 10', 'threshold: 1'));
    try {
      gitlab.notes = [];
      const [run] = await runPipeline('merge_request_event', { COMPLIANCE_NOTE_TOKEN: NOTE_TOKEN });
      expect(run!.code, run!.output).toBe(1);
      expect(run!.output).toMatch(/this merge request changes the gate \(applies once merged\): .*hipaa-security.*99.*1/);
      expect(run!.output).not.toMatch(/pull request/);
      // The note the reviewers read says it too, not only the job log.
      expect(gitlab.notes).toHaveLength(1);
      expect(gitlab.notes[0]!.body).toMatch(/^> \*\*This merge request changes the gate in compliance\.yml\.\*\* It is judged by the default branch's gate; the changes apply once merged: .*hipaa-security.*99.*1/m);
      const report = JSON.parse(readFileSync(join(root, 'compliance-report/report.json'), 'utf8'));
      expect(report.frameworks[0].threshold).toBe(99);
    } finally {
      writeFileSync(config, text);
      setTargetThreshold(10);
    }
  });

  it('on the default branch it keeps the report merge requests compare with; under failOn: new-gaps a merge request adding a gap fails, and without that report every gap counts as new', async () => {
    setTarget(10, 'failOn: new-gaps\n');
    try {
      const pushed = await runPipeline('push');
      expect(pushed.map((run) => [run.name, run.code]), pushed[0]?.output).toEqual([['compliance-baseline', 0]]);
      expect(gitlab.artifacts.has('main/compliance-baseline/compliance-baseline/report.json')).toBe(true);

      // The merge request as it is (a line added) brings no new gap: compared with the confirmed report, it passes.
      const [same] = await runPipeline('merge_request_event');
      expect(same!.code, same!.output).toBe(0);
      expect(same!.output).not.toContain('not confirmed');

      // Removing a policy opens gaps the default branch does not have: the target's failOn: new-gaps fails it.
      const removed = join(root, 'policies', 'incident-response.md');
      const text = readFileSync(removed, 'utf8');
      rmSync(removed);
      try {
        const [gapped] = await runPipeline('merge_request_event');
        expect(gapped!.code, gapped!.output).toBe(1);
        expect(gapped!.output).toMatch(/\d+ new gaps? not in the baseline/);
      } finally {
        writeFileSync(removed, text);
      }

      // No report of the default branch (evicted, never run): nothing was compared, so every gap is new.
      gitlab.artifacts.clear();
      const [unbased] = await runPipeline('merge_request_event');
      expect(unbased!.code, unbased!.output).toBe(1);
      expect(unbased!.output).toContain('No report of main yet (job compliance-baseline)');
      const report = JSON.parse(readFileSync(join(root, 'compliance-report/report.json'), 'utf8'));
      expect(report.frameworks[0].newGaps.length).toBe(report.frameworks[0].gaps.length);
    } finally {
      setTarget(10);
    }
  });

  it('on a schedule: syncs and reviews, and each run keeps its report.json for the next report.html trend', async () => {
    mkdirSync(join(root, 'compliance-history'), { recursive: true });
    const first = await runPipeline('schedule');
    expect(first.map((run) => [run.name, run.code])).toEqual([['compliance-scheduled-review', 0]]);
    const second = await runPipeline('schedule');
    expect(second[0]!.code, second[0]!.output).toBe(0);
    expect(readdirSync(join(root, 'compliance-history')).sort()).toEqual([`pipeline-${pipeline - 1}.json`, `pipeline-${pipeline}.json`]);
    // The second report's trend holds the first run (its table: one row per review).
    const html = readFileSync(join(root, 'compliance-report/report.html'), 'utf8');
    const trendRows = /<caption id="trend-table">[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1]?.match(/<tr>/g) ?? [];
    expect(trendRows).toHaveLength(2);
    expect(second[0]!.job.cache).toEqual({ key: 'compliance-history', paths: ['compliance-history/'] });
  });
});
