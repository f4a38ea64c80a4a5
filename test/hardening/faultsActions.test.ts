/**
 * The bundled sync, map and gap-issues actions, run as the runner runs them, against a live-mode
 * sandbox subprocess with --faults behind a fault-injecting proxy, and a fake GitHub API behind a
 * second one (lost answers to creates, 5xx, HTML 502, resets). On a 100-document repo: runs that
 * cannot finish fail with one clear error line and a re-run completes; at the end the library equals
 * the repo, every charge is intended and single, failed work refunded, one sticky comment, one issue
 * per gap, and a last sync spends nothing.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeGitHub } from '../actions/fakeGitHub.js';
import { GITHUB_TOKEN, REPOSITORY, onPullRequest, runAction, visibleLog, type ActionRun } from '../actions/harness.js';
import {
  DOC_COUNT, FaultProxy, PRICE, auditLedger, buildCli, compareLibraryToRepo, libraryOf, ledgerOf, policyRepo, readRepo, removeDir, startSandboxProcess,
  type FaultAction, type ProxiedRequest, type SandboxProcess,
} from './harness.js';
import { collect, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const KEY = 'csk_live_hardening_actions_0001';
const OPENING = 500_000_000;
const GAP_ISSUES = 8;
const CONFIG = `repository: ${REPOSITORY}
documents:
  - name: policies
    paths: ["policies/*.md"]
    category: Policies
frameworks:
  - framework: hipaa-security
    threshold: 95
gapIssues:
  maxNewPerRun: 200
`;

const forward: FaultAction = { kind: 'forward' };
const fault = (name: string): FaultAction => ({ kind: 'forward', fault: name });

let box: SandboxProcess;
let service: FaultProxy;
let github: FakeGitHub;
let githubProxy: FaultProxy;
let workspace: string;
const bodies: unknown[] = [];

function record(label: string, run: ActionRun): ActionRun {
  collect(`${label} stdout`, visibleLog(run.stdout));
  collect(`${label} stderr`, run.stderr);
  collect(`${label} summary`, run.summary);
  collect(`${label} outputs`, JSON.stringify(run.outputs));
  return run;
}

async function action(name: string, inputs: Record<string, string>, label: string, event?: { name: string; payload: unknown }): Promise<ActionRun> {
  const run = await runAction(name, {
    workspace,
    inputs: { 'api-key': KEY, 'base-url': service.baseUrl, 'github-token': GITHUB_TOKEN, ...inputs },
    apiUrl: githubProxy.url,
    ...(event ? { event } : {}),
  });
  return record(label, run);
}

/** One error line (the runner's ::error::), with a message, and no stack trace anywhere. */
function assertOneClearError(run: ActionRun, says: RegExp): void {
  const errors = run.annotations.filter((annotation) => annotation.kind === 'error');
  expect(errors.length, run.stdout).toBeGreaterThanOrEqual(1);
  expect(errors.map((error) => error.message).join('\n')).toMatch(says);
  expect(visibleLog(run.stdout) + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
}

beforeAll(async () => {
  buildCli();
  registerSecret(KEY, GITHUB_TOKEN);
  box = await startSandboxProcess({ keys: [`${KEY}:live:${OPENING}`], label: 'sandbox (actions)' });
  service = await new FaultProxy(box.origin).start();
  github = await new FakeGitHub({ token: GITHUB_TOKEN, repository: REPOSITORY, pageSize: 7 }).start();
  githubProxy = await new FaultProxy(github.url).start();
  workspace = policyRepo(DOC_COUNT, CONFIG);
});

afterAll(async () => {
  for (const issue of github?.issues.values() ?? []) bodies.push(issue.body);
  for (const comment of github?.comments.values() ?? []) bodies.push(comment.body);
  collect('GitHub issue and comment bodies', JSON.stringify(bodies));
  await service?.close();
  await githubProxy?.close();
  await github?.close();
  await box?.stop();
  removeDir(workspace);
  removeDir(box.dataDir);
});

describe('bundled actions under faults (100-document repo)', () => {
  it('sync: a run hit by 5xx, 429, resets and failing jobs fails clearly; the re-run completes; a third spends nothing', { timeout: 300_000 }, async () => {
    service.schedule = (r: ProxiedRequest) => {
      const ingest = r.method === 'POST' && /\/library\/documents$/.test(r.path);
      if (ingest && r.nOfKind % 9 === 0 && r.attempt === 1) return fault('job-fail');
      if (ingest && r.nOfKind % 3 === 0 && r.attempt <= 2) return fault(r.attempt === 1 ? '503' : '500');
      if (ingest && r.nOfKind % 5 === 0 && r.attempt === 1) return fault('reset-after');
      if (ingest && r.nOfKind % 7 === 0 && r.attempt === 1) return fault('429');
      if (r.method === 'GET' && r.nOfKind % 11 === 0 && r.attempt === 1) return { kind: 'proxy-html502' };
      if (r.method === 'GET' && r.nOfKind % 13 === 0 && r.attempt === 1) return { kind: 'proxy-reset' };
      return forward;
    };
    const first = await action('sync', {}, 'sync under faults');
    expect(first.code).toBe(1);
    assertOneClearError(first, /fail/i);
    const failed = Number(first.outputs.failed);
    expect(failed).toBeGreaterThan(0);
    expect(Number(first.outputs.ingested) + failed).toBe(DOC_COUNT);
    const injected = service.injected();
    for (const kind of ['fault:job-fail', 'fault:503', 'fault:500', 'fault:reset-after', 'fault:429', 'proxy-html502', 'proxy-reset']) {
      expect(injected[kind] ?? 0, kind).toBeGreaterThan(0);
    }

    service.schedule = () => forward;
    const second = await action('sync', {}, 'sync re-run');
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs).toMatchObject({ ingested: String(failed), failed: '0' });

    const third = await action('sync', {}, 'sync third run');
    expect(third.code, third.stdout).toBe(0);
    expect(third.outputs).toMatchObject({ ingested: '0', refreshed: '0', failed: '0', 'tokens-spent': '0' });

    const documents = await libraryOf(box.baseUrl, KEY);
    expect(compareLibraryToRepo(documents, readRepo(workspace, DOC_COUNT))).toEqual([]);
    const audit = auditLedger(box.dataDir, KEY, OPENING);
    expect(audit.problems).toEqual([]);
    expect(audit.refunds).toBeGreaterThan(0);
    for (const doc of documents) expect(audit.netByDocument.get(doc.id), doc.filename).toEqual({ ingest: 1, refresh: 0 });
    expect(ledgerOf(box.dataDir, KEY).balance).toBe(OPENING - DOC_COUNT * PRICE);
  });

  it('map: an ambiguous 5xx on the charged mapping is not re-sent and fails clearly; re-runs under GitHub faults keep one sticky comment', { timeout: 300_000 }, async () => {
    const pr = github.addPullRequest();
    service.schedule = (r) => (r.method === 'POST' && /\/documents\/map$/.test(r.path) ? fault('503') : forward);
    const refused = await action('map', { comment: 'always', 'fail-below': 'false' }, 'map, mapping 503', onPullRequest(workspace, pr));
    expect(refused.code).toBe(1);
    assertOneClearError(refused, /outcome is unknown|not sent again/);
    // The refused run may post its result (a framework that could not be judged): at most one comment.
    expect(github.commentsOn(pr).length).toBeLessThanOrEqual(1);
    expect(auditLedger(box.dataDir, KEY, OPENING).chargesByOperation.mapDocument ?? 0).toBe(0);
    // Start the sticky comment afresh, so the next run has to create it through a lost answer.
    for (const comment of github.commentsOn(pr)) github.comments.delete(comment.id);

    // Service: polls and downloads hit by 5xx and 429; GitHub: lost answers to creates, 5xx and HTML 502s.
    service.schedule = (r) => {
      if (r.method === 'GET' && r.nOfKind % 2 === 0 && r.attempt === 1) return fault(r.nOfKind % 4 === 0 ? '500' : '429');
      if (r.method === 'POST' && /\/documents\/map$/.test(r.path) && r.attempt === 1) return fault('429');
      return forward;
    };
    githubProxy.schedule = (r) => {
      if (r.method === 'POST' && /\/comments$/.test(r.path) && r.attempt === 1) return { kind: 'proxy-lost-answer' };
      // Every second listing (the retry of a faulted one is the next, so it goes through).
      if (r.method === 'GET' && r.nOfKind % 2 === 0) return { kind: 'proxy-html502' };
      if (r.method === 'PATCH' && r.attempt === 1) return { kind: 'proxy-reset' };
      return forward;
    };
    for (let run = 1; run <= 3; run++) {
      const map = await action('map', { comment: 'always' }, `map run ${run}`, onPullRequest(workspace, pr));
      // Evaluated despite the faults: the gate's own answer (below its threshold, so the step fails on a pull request).
      expect(map.outputs.status, map.stdout).toBe('failed');
      expect(map.code).toBe(1);
      expect(Number(map.outputs.gaps)).toBeGreaterThan(0);
      const comments = github.commentsOn(pr).filter((comment) => comment.login === 'github-actions[bot]');
      expect(comments, `after map run ${run}`).toHaveLength(1);
    }
    const githubFaults = githubProxy.injected();
    expect((githubFaults['proxy-lost-answer'] ?? 0) + (githubFaults['proxy-reset'] ?? 0)).toBeGreaterThan(0);
    expect(githubFaults['proxy-html502'] ?? 0).toBeGreaterThan(0);

    const audit = auditLedger(box.dataDir, KEY, OPENING);
    expect(audit.problems).toEqual([]);
    // One mapping charge in all: the refused run was never admitted, and the re-runs of the same pull
    // request reuse its unchanged mapping (review/reuse.ts) instead of paying for it again.
    expect(audit.chargesByOperation.mapDocument).toBe(1);
  });

  it('gap-issues: lost answers to issue creates and GitHub faults never duplicate an issue; a re-run creates nothing', { timeout: 300_000 }, async () => {
    githubProxy.schedule = (r) => {
      if (r.method === 'POST' && /\/issues$/.test(r.path) && r.nOfKind % 3 === 1 && r.attempt === 1) return { kind: 'proxy-lost-answer' };
      if (r.method === 'GET' && r.nOfKind % 4 === 0 && r.attempt === 1) return { kind: 'proxy-html502' };
      if (r.method === 'POST' && /\/issues$/.test(r.path) && r.nOfKind % 5 === 0 && r.attempt === 1) return { kind: 'proxy-reset' };
      return forward;
    };
    // The map run's report, its gaps cut to GAP_ISSUES (GitHub writes are paced about a second apart).
    const report = JSON.parse(readFileSync(join(workspace, 'compliance-report', 'report.json'), 'utf8')) as { frameworks: Array<{ gaps: unknown[] }> };
    expect(report.frameworks[0]!.gaps.length).toBeGreaterThanOrEqual(GAP_ISSUES);
    report.frameworks = report.frameworks.slice(0, 1);
    report.frameworks[0]!.gaps = report.frameworks[0]!.gaps.slice(0, GAP_ISSUES);
    writeFileSync(join(workspace, 'compliance-report', 'gaps.json'), JSON.stringify(report));
    const gaps = GAP_ISSUES;

    const first = await action('gap-issues', { report: 'compliance-report/gaps.json' }, 'gap-issues under faults');
    expect(first.code, first.stdout).toBe(0);
    const second = await action('gap-issues', { report: 'compliance-report/gaps.json' }, 'gap-issues re-run');
    expect(second.code, second.stdout).toBe(0);
    expect(second.outputs).toMatchObject({ created: '0' });

    const markers = github.issueList().map((issue) => /<!-- compliance-gap:(\S+) -->/.exec(issue.body ?? '')?.[1]);
    expect(markers.every(Boolean)).toBe(true);
    expect(new Set(markers).size).toBe(markers.length);
    expect(markers).toHaveLength(gaps);
    expect(githubProxy.injected()['proxy-lost-answer'] ?? 0).toBeGreaterThan(0);
  });
});
