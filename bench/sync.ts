/**
 * Benchmark of the CLI's sync path (executeReview → review's runReview, the code `compliance sync`
 * runs) against live-mode sandboxes: requests and tokens of an unchanged re-sync of 500 files, and
 * wall time to sync 500 new files under a requests-per-minute limit beside the floor that limit
 * implies: with fixed one-minute windows (the sandbox's), N requests at R rpm cannot finish before
 * (ceil(N / R) - 1) whole windows have passed. 500 is the live library cap.
 */
import { ComplianceClient } from '../api/node/index.js';
import { createNodeTransport } from '../api/node/transport.js';
import type { Transport } from '../api/transport.js';
import { parseConfig } from '../review/config.js';
import { readDeclarations } from '../review/declarations.js';
import type { RepoFile } from '../review/documents.js';
import { runReview } from '../review/review.js';
import { startSandbox } from '../sandbox/index.js';
import type { BenchReport } from './report.js';

const FILES = 500;
// Below the ~1,000 requests a 500-file sync needs, so the limit binds (at 1,200 rpm all fit in the first minute).
const RPM = 600;
const KEY = 'csk_live_bench_sync_0001';
const CONFIG = parseConfig('repository: bench/policies\ndocuments:\n  - paths: ["policies/*.md"]\n    category: Policies\n');

function files(count: number): RepoFile[] {
  return Array.from({ length: count }, (_, i) => ({
    path: `policies/policy-${String(i).padStart(3, '0')}.md`,
    content: `# Policy ${i}\n\n${`Control ${i} requires that access to system ${i} is reviewed every quarter by its owner, and that exceptions are recorded. `.repeat(4)}\n`,
  }));
}

function countingClient(baseUrl: string): { client: ComplianceClient; requests: () => number } {
  const inner = createNodeTransport();
  let count = 0;
  const transport: Transport = (request) => {
    count++;
    return inner(request);
  };
  return { client: new ComplianceClient({ apiKey: KEY, baseUrl, transport, userAgent: 'compliance-bench' }), requests: () => count };
}

async function sync(client: ComplianceClient, repoFiles: RepoFile[]) {
  const result = await runReview(client, { config: CONFIG, files: repoFiles, readDeclarations, today: new Date().toISOString().slice(0, 10), concurrency: 4 });
  if (!result.sync?.run?.complete) throw new Error(`sync incomplete: ${result.sync?.run?.stoppedBecause ?? result.status}`);
  return result;
}

export async function bench(report: BenchReport): Promise<void> {
  const repoFiles = files(FILES);
  {
    // 1. Unchanged re-sync: ingest 500 once (no rate limit to speak of), then sync again.
    const box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [`${KEY}:live:300000000`] });
    try {
      const setup = countingClient(box.baseUrl);
      const first = await sync(setup.client, repoFiles);
      report.figure('first sync of 500 files: tokens', first.tokensSpent, 'tokens', `${(FILES * 400_000).toLocaleString('en-US')}`);
      report.figure('first sync of 500 files: requests', setup.requests(), 'requests');
      const again = countingClient(box.baseUrl);
      const unchanged = await sync(again.client, repoFiles);
      report.figure('unchanged re-sync of 500 files: tokens', unchanged.tokensSpent, 'tokens', '0');
      report.figure('unchanged re-sync of 500 files: requests', again.requests(), 'requests', 'ping + billing + listing pages');
    } finally {
      await box.close();
    }

    // 2. 500 new files under a rate limit: wall time beside the floor the limit implies.
    const limited = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: RPM, keys: [`${KEY}:live:300000000`] });
    try {
      const counted = countingClient(limited.baseUrl);
      const started = performance.now();
      await sync(counted.client, repoFiles);
      const seconds = (performance.now() - started) / 1000;
      const requests = counted.requests();
      // The first minute's allowance is there at once; every request beyond it waits for the window.
      const floor = (Math.ceil(requests / RPM) - 1) * 60;
      report.figure(`sync of 500 new files at ${RPM} rpm: wall time`, seconds, 's');
      report.figure(`sync of 500 new files at ${RPM} rpm: requests`, requests, 'requests');
      report.figure(`floor at ${RPM} rpm ((ceil(requests / rpm) - 1) windows of 60 s)`, floor, 's');
      report.figure('wall time / floor', seconds / floor, 'x', '≤ 1.2');
      report.note('requests include the 429 retries, if any; pacing follows X-RateLimit-Remaining');
    } finally {
      await limited.close();
    }
  }
}
