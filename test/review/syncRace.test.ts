/**
 * The library sync (on a push) and the scheduled review run in separate concurrency groups, so
 * both may refresh the same changed document at once. Against the sandbox with a live key: the
 * ledger is charged once, both runs finish without a failure, and each reports only what it was
 * charged (their reports add up to the ledger's move).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readDeclarations, runReview, type ReviewResult } from '../../review/index.js';
import { apiClient, LIVE_KEY, liveBalance, policyText, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const CONFIG = parseConfig(`repository: acme/policies
documents:
  - name: policies
    paths: ["policies/*.md"]
    category: Policies
`);

let box: RunningSandbox;
/** Refresh jobs that take a while, so the second run arrives while the first is still running (document_busy). */
let slowBox: RunningSandbox;
beforeAll(async () => {
  box = await sandbox();
  slowBox = await sandbox({ jobSeconds: 1 });
});
afterAll(async () => {
  await box?.close();
  await slowBox?.close();
});

function review(on: RunningSandbox, files: Array<{ path: string; content: string }>, kind: 'push' | 'schedule'): Promise<ReviewResult> {
  return runReview(apiClient(on, LIVE_KEY), { config: CONFIG, files, readDeclarations, today: '2026-01-05', event: { kind }, sync: 'run', checkUpdates: false });
}

describe('a sync and a scheduled review refreshing the same document at once', () => {
  it.each([
    ['after the first finished (document_unchanged)', () => box, 'kept'],
    ['while the first is running (document_busy)', () => slowBox, 'skipped'],
  ] as const)('%s: one refresh is charged between them, and neither reports a failure or a charge it did not cause', { timeout: 90_000 }, async (_when, on, loser) => {
    const files = [
      { path: 'policies/access.md', content: policyText('access control') },
      { path: 'policies/backup.md', content: policyText('backup') },
    ];
    const first = await review(on(), files, 'push');
    expect(first.sync?.run?.results.map((entry) => entry.outcome)).toEqual(['ingested', 'ingested']);

    for (let round = 0; round < 3; round++) {
      const revised = files.map((file, index) => (index === 1 ? { ...file, content: policyText(`backup, revision ${round}`) } : file));
      const before = await liveBalance(on());
      const [sync, scheduled] = await Promise.all([review(on(), revised, 'push'), review(on(), revised, 'schedule')]);
      const charged = before - (await liveBalance(on()));
      expect(charged, `round ${round}`).toBe(400_000);
      for (const run of [sync, scheduled]) expect(run.sync?.run?.complete, JSON.stringify(run.sync?.run?.results)).toBe(true);
      const outcomes = [sync, scheduled].map((run) => run.sync?.run?.results.find((entry) => entry.path === 'policies/backup.md')?.outcome).sort();
      expect(outcomes, `round ${round}`).toEqual([loser, 'refreshed'].sort());
      expect((sync.sync?.run?.tokensSpent ?? 0) + (scheduled.sync?.run?.tokensSpent ?? 0), `round ${round}`).toBe(charged);
    }
  });
});
