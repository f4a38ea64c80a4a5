/**
 * Every CLI command that spends takes a cap and a dry run and says what it spent, checked against
 * a live sandbox key's ledger: the balance moves by exactly the tokens the command reports, a dry
 * run moves it by nothing, and a cap below the price refuses before anything is sent.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { balance, buildCli, cli, liveSandbox } from './helpers.js';

interface Spender {
  name: string;
  args: string[];
  /** Where the JSON document carries the tokens spent. */
  spent: (json: any) => unknown; // eslint-disable-line @typescript-eslint/no-explicit-any -- each command's --json document
}

const SPENDERS: Spender[] = [
  { name: 'suggest', args: ['suggest', 'health data privacy', '--jurisdiction', 'US'], spent: (json) => json.tokensSpent },
  { name: 'library search', args: ['library', 'search', 'access control'], spent: (json) => json.tokensSpent },
  { name: 'generate (one document)', args: ['generate', '--framework', 'hipaa-security', '--format', 'json', '-o', 'policy.json'], spent: (json) => json.tokensSpent },
];

describe('every CLI spender reports what it spent, against a live key ledger', () => {
  let box: RunningSandbox;
  let cwd: string;
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox();
    cwd = mkdtempSync(join(tmpdir(), 'compliance-spenders-'));
  });
  afterAll(async () => {
    await box?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it.each(SPENDERS)('$name: the ledger moves by the reported tokens; --dry-run and a too-small --max-tokens move it by nothing', { timeout: 60_000 }, async ({ args, spent }) => {
    const before = await balance(box);
    const dry = await cli([...args, '--dry-run', '--json'], { cwd, box });
    expect(dry.code, dry.stderr).toBe(0);
    const planned = dry.json.plannedTokens as number;
    expect(planned).toBeGreaterThan(0);
    const refused = await cli([...args, '--max-tokens', String(planned - 1), '--json'], { cwd, box });
    expect(refused.code).toBe(3);
    expect(await balance(box)).toBe(before);

    const run = await cli([...args, '--max-tokens', String(planned), '--json'], { cwd, box });
    expect(run.code, run.stderr).toBe(0);
    expect(spent(run.json)).toBe(planned);
    expect(await balance(box)).toBe(before - planned);
  });

  it('suggest ends with the spent line; call of a charged operation says it on stderr beside the response', { timeout: 60_000 }, async () => {
    const before = await balance(box);
    const human = await cli(['suggest', 'card payments'], { cwd, box });
    expect(human.code, human.stderr).toBe(0);
    const charged = before - (await balance(box));
    expect(charged).toBe(20_000);
    expect(human.stdout.trimEnd().split('\n').at(-1)).toBe('Spent 20,000 tokens.');

    const call = await cli(['call', 'suggestFrameworks', '--input', '{"query": "health data"}'], { cwd, box });
    expect(call.code, call.stderr).toBe(0);
    expect(JSON.parse(call.stdout).candidates.length).toBeGreaterThan(0);
    expect(call.stderr).toContain('Spent 20,000 tokens.');
    expect(before - (await balance(box))).toBe(40_000);
  });
});
