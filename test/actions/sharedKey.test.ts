/**
 * Many repositories, one key (bench/sharedKey.ts runs the same with the ratio to the floor): twenty
 * concurrent runs of the bundled map action, each in its own repository, share one live key at the
 * live limit of 60 requests a minute. All finish, none fails on a 429 (they are waited out), and
 * the ledger shows one mapping charge per run: no retry charged twice.
 */
import { describe, expect, it } from 'vitest';
import { MAPPING_TOKENS, runSharedKey } from '../../bench/sharedKey.js';

const RUNS = 20;

describe('twenty repositories sharing one live key', () => {
  it('all finish, 429s waited out, one charge per run', { timeout: 400_000 }, async () => {
    const result = await runSharedKey({ runs: RUNS, key: 'csk_live_shared_key_test_0001' });
    for (const run of result.runs) expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    for (const run of result.runs) expect(run.outputs).toMatchObject({ coverage: expect.any(String), gaps: '4' });
    // The limit did bind: more requests than one window allows, so runs had to wait, and said so.
    expect(result.runs.some((run) => /: HTTP 429 rate_limited; trying again in \d+ s/.test(run.stdout))).toBe(true);
    expect(result.requestsNeeded).toBeGreaterThan(result.rpm);
    expect(result.mappingCharges).toBe(RUNS);
    expect(result.chargedJobs).toBe(RUNS);
    expect(result.tokensSpent).toBe(RUNS * MAPPING_TOKENS);
  });
});
