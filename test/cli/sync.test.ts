/** Sync through the built CLI against a live-mode sandbox: the ledger pays exactly for what changed. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, PRICE, balance, buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

describe('compliance sync (live mode)', () => {
  let box: RunningSandbox;
  let repo: string;
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(10_000_000);
    repo = tempRepo({ count: 3 });
  });
  afterAll(async () => {
    await box?.close();
    if (repo) removeRepo(repo);
  });

  it('a dry run prices the plan and charges nothing', async () => {
    const before = await balance(box);
    const run = await cli(['sync', '--dry-run', '--json'], { cwd: repo, box });
    expect(run.code).toBe(0);
    expect(run.json).toMatchObject({ status: 'dry-run', dryRun: true, plannedTokens: 3 * PRICE, counts: { new: 3 } });
    expect(await balance(box)).toBe(before);
  });

  it('--max-tokens below the plan refuses before spending (exit 3) and names the cap', async () => {
    const before = await balance(box);
    const run = await cli(['sync', '--max-tokens', '800000'], { cwd: repo, box });
    expect(run.code).toBe(3);
    expect(run.stdout).toContain('Refused before spending anything');
    expect(run.stdout).toContain('3 × ingestLibraryDocument at 400,000 tokens costs 1,200,000 tokens, but the cap of 800,000 tokens allows 800,000 tokens more: enough for 2 of the 3 calls');
    expect(await balance(box)).toBe(before);
  });

  it('the first sync charges each new file exactly once', async () => {
    const before = await balance(box);
    const run = await cli(['sync', '--json'], { cwd: repo, box });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.tokensSpent).toBe(3 * PRICE);
    expect(run.json.results.map((r: { outcome: string }) => r.outcome)).toEqual(['ingested', 'ingested', 'ingested']);
    expect(before - (await balance(box))).toBe(3 * PRICE);
  });

  it('an unchanged re-run charges nothing', async () => {
    const before = await balance(box);
    const run = await cli(['sync', '--json'], { cwd: repo, box });
    expect(run.code).toBe(0);
    expect(run.json.counts).toMatchObject({ new: 0, changed: 0, unchanged: 3 });
    expect(await balance(box)).toBe(before);
  });

  it('trailing whitespace and CRLF are no change; one edited file charges exactly one refresh', async () => {
    appendFileSync(join(repo, 'policies/access-control.md'), '   \r\n\r\n');
    const cosmetic = await cli(['sync', '--json'], { cwd: repo, box });
    expect(cosmetic.json.counts.changed).toBe(0);
    appendFileSync(join(repo, 'policies/incident-response.md'), '\nAll incidents are reviewed by the security committee within ten days.\n');
    const before = await balance(box);
    const run = await cli(['sync', '--json'], { cwd: repo, box });
    expect(run.code).toBe(0);
    expect(run.json.counts).toMatchObject({ new: 0, changed: 1, unchanged: 2 });
    expect(run.json.results.find((r: { path: string }) => r.path === 'policies/incident-response.md').outcome).toBe('refreshed');
    expect(before - (await balance(box))).toBe(PRICE);
  });

  it('a plan the balance cannot pay is refused naming the shortfall and the pack', async () => {
    const poor = await liveSandbox(500_000, { keys: ['csk_live_clie2e_poor_0002:live:500000'] });
    const fresh = tempRepo({ count: 2 });
    try {
      const run = await cli(['sync'], { cwd: fresh, box: poor, key: 'csk_live_clie2e_poor_0002' });
      expect(run.code).toBe(3);
      expect(run.stdout).toContain('300,000 tokens short');
      expect(run.stdout).toContain('pack10');
      expect(await balance(poor, 'csk_live_clie2e_poor_0002')).toBe(500_000);
    } finally {
      await poor.close();
      removeRepo(fresh);
    }
  });

  it('never prints the API key', async () => {
    const runs = await Promise.all([
      cli(['ping'], { cwd: repo, box }),
      cli(['ping', '--json'], { cwd: repo, box }),
      cli(['sync', '--dry-run'], { cwd: repo, box }),
      cli(['ping', '--api-key', LIVE_KEY, '--base-url', box.baseUrl], { cwd: repo }),
      cli(['ping'], { cwd: repo, env: { COMPLIANCE_API_KEY: LIVE_KEY, COMPLIANCE_BASE_URL: 'http://127.0.0.1:1/api/public/v1' } }),
    ]);
    for (const run of runs) {
      expect(`${run.stdout}${run.stderr}`).not.toContain(LIVE_KEY);
      expect(`${run.stdout}${run.stderr}`).not.toContain('secret_0001');
    }
    expect(runs[0]?.stdout).toContain('csk_live_…0001');
    expect(runs[3]?.stderr).toContain('shell history');
    expect(runs[4]?.code).toBe(3);
  });
});
