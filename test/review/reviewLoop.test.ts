/**
 * review/review.ts's loop against the sandbox with a live key: a dry run says what the sync would
 * do without sending it, progress reaches the caller, and the cap is charged what the run cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readDeclarations, runReview } from '../../review/index.js';
import type { ReviewProgress } from '../../review/reviewTypes.js';
import { HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, LIVE_KEY, liveBalance, policyText, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const CONFIG = parseConfig(HIPAA_CONFIG(0));
const files = [{ path: 'policies/access.md', content: policyText('access control') }];

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(async () => {
  await box?.close();
});

const balance = () => liveBalance(box);

describe('runReview', () => {
  it('a dry run plans the sync and says what each file would cost, sending nothing', async () => {
    const before = await balance();
    const result = await runReview(apiClient(box, LIVE_KEY), { config: CONFIG, files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false, dryRun: true });
    expect(result.status).toBe('dry-run');
    expect(result.sync?.run?.dryRun).toBe(true);
    expect(result.sync?.run?.results.map((entry) => [entry.path, entry.outcome])).toEqual([['policies/access.md', 'planned']]);
    expect(await balance()).toBe(before);
  });

  it('reports its progress to the caller and charges the cap what the run cost', async () => {
    const progress: ReviewProgress[] = [];
    const before = await balance();
    const result = await runReview(apiClient(box, LIVE_KEY), { config: CONFIG, files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false, maxTokens: 10_000_000, onProgress: (event) => progress.push(event) });
    expect(result.status).toBe('completed');
    const charged = before - (await balance());
    expect(charged).toBeGreaterThan(0);
    expect(result.ledger.spentTokens).toBe(charged);
    expect(result.ledger.reservedTokens).toBe(0);
    expect(progress).toContainEqual({ phase: 'sync', message: expect.stringMatching(/\S/) });
  });
});
