/**
 * Many repositories, one key: RUNS concurrent runs of the bundled map action (each in its own
 * temporary repository, as an organisation's PR checks would run) share one live key held to the
 * live rate limit (60 requests a minute). Every run must finish, none may fail on a 429, and the
 * ledger must show exactly one mapping charge per run (no double charge from a retry). The wall
 * time is set beside the floor the limit implies: with the sandbox's fixed one-minute windows, N
 * requests at R rpm cannot finish before (ceil(N / R) - 1) whole windows have passed.
 *
 * `runSharedKey` is shared with test/actions/sharedKey.test.ts (completion, no double charge); the
 * bench adds the ratio.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { ComplianceClient } from '../api/node/index.js';
import { createNodeTransport } from '../api/node/transport.js';
import { startSandbox } from '../sandbox/index.js';
import { HIPAA_CONFIG, makeWorkspace, runAction, type ActionRun } from '../test/actions/harness.js';
import type { BenchReport } from './report.js';

export const LIVE_RPM = 60;
/** The sandbox's price of one mapping (README: prices). */
export const MAPPING_TOKENS = 250_000;
const OPENING_BALANCE = 50_000_000;

export interface SharedKeyResult {
  runs: ActionRun[];
  wallSeconds: number;
  /** Answers other than 429: the requests the work needed. */
  requestsNeeded: number;
  /** 429 answers the runs received (and waited out). */
  rateLimited: number;
  /** Mapping charges in the ledger, and how many distinct jobs they were for. */
  mappingCharges: number;
  chargedJobs: number;
  tokensSpent: number;
  rpm: number;
}

/** A loopback proxy in front of the sandbox that counts answers by status. */
async function countingProxy(target: URL): Promise<{ url: string; counts: Map<number, number>; close(): Promise<void> }> {
  const counts = new Map<number, number>();
  const server = createServer((incoming, outgoing) => {
    const forwarded = httpRequest(
      { host: target.hostname, port: target.port, method: incoming.method, path: incoming.url, headers: { ...incoming.headers, host: target.host } },
      (answer) => {
        const status = answer.statusCode ?? 0;
        counts.set(status, (counts.get(status) ?? 0) + 1);
        outgoing.writeHead(status, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.destroy());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    counts,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

export async function runSharedKey(options: { runs: number; key: string; rpm?: number }): Promise<SharedKeyResult> {
  const rpm = options.rpm ?? LIVE_RPM;
  const box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: rpm, keys: [`${options.key}:live:${OPENING_BALANCE}`] });
  const proxy = await countingProxy(new URL(box.origin));
  const workspaces = Array.from({ length: options.runs }, () => makeWorkspace(HIPAA_CONFIG(80)));
  try {
    const baseUrl = `${proxy.url}${new URL(box.baseUrl).pathname}`;
    const started = performance.now();
    const runs = await Promise.all(workspaces.map((workspace) => runAction('map', { workspace, inputs: { 'api-key': options.key, 'base-url': baseUrl } })));
    const wallSeconds = (performance.now() - started) / 1000;
    const requestsNeeded = [...proxy.counts].filter(([status]) => status !== 429).reduce((sum, [, count]) => sum + count, 0);
    const rateLimited = proxy.counts.get(429) ?? 0;
    // Read after the runs, straight from the sandbox (not counted), retrying its own 429s.
    const client = new ComplianceClient({ apiKey: options.key, baseUrl: box.baseUrl, transport: createNodeTransport(), userAgent: 'compliance-bench' });
    const billing = await client.getBilling();
    const charges = billing.ledger.filter((entry) => entry.operation === 'mapDocument' && Number(entry.tokens) < 0);
    return {
      runs,
      wallSeconds,
      requestsNeeded,
      rateLimited,
      mappingCharges: charges.length,
      chargedJobs: new Set(charges.map((entry) => entry.reference)).size,
      tokensSpent: OPENING_BALANCE - Number(billing.balanceTokens),
      rpm,
    };
  } finally {
    await proxy.close();
    await box.close();
    for (const workspace of workspaces) rmSync(workspace, { recursive: true, force: true });
  }
}

/** The fixed-window floor: the first window's allowance is there at once, every further one waits a minute. */
export function fixedWindowFloorSeconds(requests: number, rpm: number): number {
  return (Math.ceil(requests / rpm) - 1) * 60;
}

export async function bench(report: BenchReport): Promise<void> {
  const RUNS = 20;
  const result = await runSharedKey({ runs: RUNS, key: 'csk_live_bench_shared_key_0001' });
  const failed = result.runs.filter((run) => run.code !== 0).length;
  // The floor: the requests the work needs at the limit's rate.
  const floor = (result.requestsNeeded / result.rpm) * 60;
  const fixedWindows = fixedWindowFloorSeconds(result.requestsNeeded, result.rpm);
  report.figure(`${RUNS} map runs sharing one key at ${result.rpm} rpm: wall time`, result.wallSeconds, 's');
  report.figure(`${RUNS} map runs sharing one key: requests needed`, result.requestsNeeded, 'requests');
  report.figure(`floor at ${result.rpm} rpm for ${result.requestsNeeded} requests (requests needed / ${result.rpm} per minute)`, floor, 's');
  report.figure(`${RUNS} runs on one key: wall time / floor`, result.wallSeconds / floor, 'x', '≤ 1.2');
  report.figure(`${RUNS} runs on one key: wall time / fixed-window floor ((ceil(requests / rpm) - 1) windows of 60 s)`, fixedWindows > 0 ? result.wallSeconds / fixedWindows : Number.NaN, 'x');
  report.figure(`${RUNS} runs on one key: runs failed`, failed, 'runs', '0');
  report.figure(`${RUNS} runs on one key: 429 answers waited out`, result.rateLimited, 'answers');
  report.figure(`${RUNS} runs on one key: mapping charges (one per run)`, result.mappingCharges, 'charges', String(RUNS));
  report.note('the sandbox counts in fixed one-minute windows, so the first minute\'s allowance passes at once: the fixed-window floor is the stricter bound, the rate floor the issue\'s');
}
