/**
 * The CLI's review loop (the BUILT `compliance review`, a subprocess) against a live-mode sandbox
 * subprocess with --faults, through a fault-injecting proxy, on a 100-document repo. Each scenario:
 *   1. first review under faults (ingest of every file),
 *   2. 20 files changed, a review under faults (refresh, a charged operation that is never re-sent
 *      after an ambiguous failure),
 *   3. re-runs without faults until the work is done (a run that could not finish has said why),
 *   4. a last run that must charge nothing.
 * Then: the library equals the repo (filenames, titles, hashes; no duplicates), every charge in the
 * sandbox's ledger belongs to exactly one intended ingest or refresh, failed work is refunded, and the
 * balance equals the opening balance plus the ledger.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLI, DOC_COUNT, FaultProxy, PRICE, auditLedger, buildCli, compareLibraryToRepo, libraryOf, ledgerOf, policyContent, policyPath, policyRepo, readRepo,
  removeDir, startSandboxProcess, type FaultAction, type ProxiedRequest, type SandboxProcess,
} from './harness.js';
import { collect, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const KEY = 'csk_live_hardening_faults_cli_0001';
const OPENING = 500_000_000;
const CHANGED = Math.max(1, Math.round(DOC_COUNT / 5));

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json: { status?: string; exitCode?: number; tokensSpent?: number; sync?: { complete?: boolean; stoppedBecause?: string; results?: Array<{ path: string; outcome: string; message: string }> }; error?: { message: string; hint?: string } };
}

function review(repo: string, baseUrl: string, label: string): Promise<CliRun> {
  const env = { PATH: process.env.PATH ?? '', CI: 'true', NO_COLOR: '1', COMPLIANCE_BASE_URL: baseUrl, COMPLIANCE_API_KEY: KEY };
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, 'review', '--json', '-C', repo], { env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      collect(`${label} stdout`, stdout);
      collect(`${label} stderr`, stderr);
      let json: CliRun['json'] = {};
      try {
        json = JSON.parse(stdout) as CliRun['json'];
      } catch {
        json = {};
      }
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, stdout, stderr, json });
    });
  });
}

const isIngest = (r: ProxiedRequest) => r.method === 'POST' && /\/library\/documents$/.test(r.path);
const isRefresh = (r: ProxiedRequest) => r.method === 'POST' && /\/refresh$/.test(r.path);
const isGet = (r: ProxiedRequest) => r.method === 'GET';

interface Scenario {
  name: string;
  /** Faults during the first (ingest) run. */
  ingest: (r: ProxiedRequest) => FaultAction;
  /** Faults during the refresh run. */
  refresh: (r: ProxiedRequest) => FaultAction;
  /** The fault kinds the proxy must have injected (so a schedule that never fires fails the test). */
  expectInjected: string[];
  /** Whether the first run must complete despite the faults (retries absorb them). */
  ingestCompletes: boolean;
  /** Whether the refresh run must complete (false: it fails with a clear message and a re-run completes). */
  refreshCompletes: boolean | 'either';
  /** Text the failure must show for a file that could not finish. */
  failureSays?: RegExp;
  /** Called when the proxy sees a request (the kill -9 scenario). */
  onRequest?: (r: ProxiedRequest, context: { restart: () => void }) => void;
}

const forward: FaultAction = { kind: 'forward' };
const fault = (name: string): FaultAction => ({ kind: 'forward', fault: name });

const SCENARIOS: Scenario[] = [
  {
    name: '5xx bursts and HTML 502 pages from a proxy',
    ingest: (r) => {
      if (isIngest(r) && r.nOfKind % 3 === 0 && r.attempt <= 2) return fault(r.attempt === 1 ? '503' : '500');
      if (isIngest(r) && r.nOfKind % 5 === 1 && r.attempt === 1) return { kind: 'proxy-html502' };
      // The retry of a GET that got a 500 gets an HTML 502 (keyed on the previous attempt, not on
      // nOfKind, which the retry no longer shares: that made the 502 depend on request timing).
      if (isGet(r) && r.previousAction === 'fault:500') return fault('html502');
      if (isGet(r) && r.nOfKind % 4 === 0 && r.attempt === 1) return fault('500');
      return forward;
    },
    refresh: (r) => (isRefresh(r) && r.nOfKind % 3 === 1 ? fault('503') : isRefresh(r) && r.nOfKind % 3 === 2 ? { kind: 'proxy-html502' } : forward),
    expectInjected: ['fault:503', 'fault:500', 'fault:html502', 'proxy-html502'],
    ingestCompletes: true,
    refreshCompletes: false,
    failureSays: /outcome is unknown|not sent again/,
  },
  {
    name: '429 storms with retry hints',
    ingest: (r) => (r.n >= 20 && r.n < 60 && r.attempt === 1 ? fault('429') : forward),
    refresh: (r) => (isRefresh(r) && r.nOfKind % 2 === 1 && r.attempt === 1 ? fault('429') : forward),
    expectInjected: ['fault:429'],
    ingestCompletes: true,
    refreshCompletes: true,
  },
  {
    name: 'connection resets before and after processing',
    ingest: (r) => {
      if (isIngest(r) && r.nOfKind % 4 === 0 && r.attempt === 1) return fault('reset');
      if (isIngest(r) && r.nOfKind % 5 === 0 && r.attempt === 1) return fault('reset-after');
      if (isGet(r) && r.nOfKind % 6 === 0 && r.attempt === 1) return { kind: 'proxy-reset' };
      return forward;
    },
    refresh: (r) => (isRefresh(r) && r.nOfKind % 3 === 1 ? fault('reset-after') : isRefresh(r) && r.nOfKind % 3 === 2 ? fault('reset') : forward),
    expectInjected: ['fault:reset', 'fault:reset-after', 'proxy-reset'],
    ingestCompletes: true,
    refreshCompletes: false,
    failureSays: /outcome is unknown|not sent again/,
  },
  {
    name: 'slow responses',
    ingest: (r) => (r.n % 10 === 0 ? fault('slow:1200') : forward),
    refresh: (r) => (r.n % 5 === 0 ? fault('slow:800') : forward),
    expectInjected: ['fault:slow:1200', 'fault:slow:800'],
    ingestCompletes: true,
    refreshCompletes: true,
  },
  {
    name: 'jobs failing after admission',
    ingest: (r) => (isIngest(r) && r.nOfKind % 7 === 0 && r.attempt === 1 ? fault('job-fail') : forward),
    refresh: (r) => (isRefresh(r) && r.nOfKind % 3 === 1 && r.attempt === 1 ? fault('job-fail') : forward),
    expectInjected: ['fault:job-fail'],
    ingestCompletes: false,
    refreshCompletes: false,
    failureSays: /job failed.*refunded/,
  },
  {
    name: 'the sandbox killed (SIGKILL) and restarted mid-run with --data',
    ingest: () => forward,
    refresh: () => forward,
    expectInjected: [],
    ingestCompletes: false,
    refreshCompletes: 'either',
    onRequest: (r, { restart }) => {
      if (isIngest(r) && r.nOfKind === Math.ceil(DOC_COUNT * 0.4) && r.attempt === 1) restart();
    },
  },
];

beforeAll(() => {
  buildCli();
  registerSecret(KEY);
});

describe.each(SCENARIOS)('review loop under faults: $name', (scenario) => {
  let box: SandboxProcess;
  let proxy: FaultProxy;
  let repo: string;
  let restarts = 0;
  let restarting: Promise<void> | undefined;

  /** kill -9 of the sandbox, then a new process on the same port and data (once per scenario). */
  const restartSandbox = () => {
    if (restarting) return;
    restarts++;
    restarting = (async () => {
      const { port, dataDir } = box;
      await box.kill9();
      await new Promise((resolve) => setTimeout(resolve, 300));
      box = await startSandboxProcess({ keys: [`${KEY}:live:${OPENING}`], port, dataDir, label: `sandbox restarted (${scenario.name})` });
    })();
  };

  beforeAll(async () => {
    box = await startSandboxProcess({ keys: [`${KEY}:live:${OPENING}`], label: `sandbox (${scenario.name})` });
    repo = policyRepo(DOC_COUNT);
    proxy = await new FaultProxy(box.origin).start();
  });

  afterAll(async () => {
    await restarting;
    await proxy?.close();
    await box?.stop();
    removeDir(repo);
    removeDir(box.dataDir);
  });

  it('ends with the library equal to the repo, every charge intended once, refunds for failed work, and a free last run', { timeout: 600_000 }, async () => {
    const proxyUrl = proxy.baseUrl;
    // 1. Ingest of every file, under faults.
    proxy.schedule = (r) => {
      scenario.onRequest?.(r, { restart: restartSandbox });
      return scenario.ingest(r);
    };
    const first = await runWithRestart(() => review(repo, proxyUrl, `${scenario.name}: first run`));
    if (scenario.ingestCompletes) {
      expect(first.code, first.stderr).toBe(0);
      expect(first.json.sync?.complete).toBe(true);
    } else if (first.code !== 0) {
      expect(first.code, first.stderr).toBe(3);
      assertClearFailure(first, scenario.failureSays);
    }
    await rerunUntilComplete(`${scenario.name}: ingest re-run`);

    // 2. Change some files; refresh under faults.
    for (let i = 0; i < CHANGED; i++) writeFileSync(join(repo, policyPath(i * 5)), policyContent(i * 5, 2));
    proxy.schedule = scenario.refresh;
    const refresh = await review(repo, proxyUrl, `${scenario.name}: refresh run`);
    if (scenario.refreshCompletes === true) {
      expect(refresh.code, refresh.stderr).toBe(0);
    } else if (scenario.refreshCompletes === false) {
      expect(refresh.code, `the refresh run should stop with an error: ${refresh.stdout.slice(0, 500)}`).toBe(3);
    }
    if (refresh.code !== 0) assertClearFailure(refresh, scenario.failureSays);
    await rerunUntilComplete(`${scenario.name}: refresh re-run`);

    // 3. A last run charges nothing.
    proxy.schedule = () => forward;
    const before = ledgerOf(box.dataDir, KEY).rows.length;
    const last = await review(repo, proxyUrl, `${scenario.name}: last run`);
    expect(last.code, last.stderr).toBe(0);
    expect(last.json.tokensSpent).toBe(0);
    expect(ledgerOf(box.dataDir, KEY).rows.length).toBe(before);

    // The faults did happen.
    const injected = proxy.injected();
    for (const kind of scenario.expectInjected) expect(injected[kind] ?? 0, `${kind} injected`).toBeGreaterThan(0);
    if (scenario.onRequest) expect(restarts).toBe(1);

    // The library equals the repo.
    const documents = await libraryOf(box.baseUrl, KEY);
    expect(compareLibraryToRepo(documents, readRepo(repo, DOC_COUNT))).toEqual([]);
    expect(documents).toHaveLength(DOC_COUNT);

    // Every charge is one intended ingest or refresh; failed work refunded; no double charge.
    const audit = auditLedger(box.dataDir, KEY, OPENING);
    expect(audit.problems).toEqual([]);
    const changedIds = new Set(documents.filter((doc) => /revision 2\b/.test(policyContentOf(repo, doc.filename))).map((doc) => doc.id));
    expect(changedIds.size).toBe(CHANGED);
    for (const doc of documents) {
      expect(audit.netByDocument.get(doc.id), doc.filename).toEqual({ ingest: 1, refresh: changedIds.has(doc.id) ? 1 : 0 });
    }
    expect([...audit.netByDocument.keys()].filter((id) => !documents.some((doc) => doc.id === id))).toEqual([]);
    const { balance } = ledgerOf(box.dataDir, KEY);
    expect(balance).toBe(OPENING - (DOC_COUNT + CHANGED) * PRICE);
    if (scenario.name.startsWith('jobs failing')) expect(audit.refunds).toBeGreaterThan(0);
  });

  /** Re-runs without faults: the work the faulted run could not finish is completed (at most 2 runs). */
  async function rerunUntilComplete(label: string): Promise<void> {
    proxy.schedule = () => forward;
    const again = await review(repo, proxy.baseUrl, label);
    expect(again.code, `${label}: ${again.stderr}\n${again.stdout.slice(0, 2000)}`).toBe(0);
    expect(again.json.sync?.complete).toBe(true);
  }

  /** Runs a review; a sandbox restart it triggered is waited for before the result is judged. */
  async function runWithRestart(run: () => Promise<CliRun>): Promise<CliRun> {
    const result = await run();
    await restarting;
    return result;
  }
});

function policyContentOf(repo: string, filename: string): string {
  return readRepo(repo, DOC_COUNT).get(filename) ?? '';
}

/** A run that could not finish says so: exit 3, status per file, the failing files' messages, no stack trace. */
function assertClearFailure(run: CliRun, says: RegExp | undefined): void {
  expect(run.stdout + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  const results = run.json.sync?.results ?? [];
  const failed = results.filter((result) => result.outcome === 'failed' || result.outcome === 'not-attempted');
  if (run.json.error) {
    expect(run.json.error.message.length).toBeGreaterThan(10);
    return;
  }
  expect(run.json.sync?.complete).toBe(false);
  expect(failed.length).toBeGreaterThan(0);
  for (const result of failed) expect(result.message.length, result.path).toBeGreaterThan(10);
  if (says) expect(failed.some((result) => says.test(result.message)), JSON.stringify(failed.slice(0, 3))).toBe(true);
}
