/**
 * The budget decision (review/budget) in every field a surface reads: the plan's words, each refusal
 * reason at its boundary, the fix a refusal suggests, the ledger's figures and planSpend's sources.
 */
import { describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../api/errors.js';
import { budgetRefusal, chargedTokens, checkBudget, mayHaveCharged, planSpend, priceCalls, SpendLedger } from '../../review/index.js';

const INGEST = 'ingestLibraryDocument';
const MAP = 'mapDocument';
const ingest = (count: number) => ({ operationId: INGEST, count });

describe('priceCalls', () => {
  it('drops lines of no call, totals the priced ones and names the unpriced', () => {
    expect(priceCalls([{ operationId: MAP, count: 0 }, ingest(2), { operationId: MAP, count: 1 }], {})).toEqual({
      lines: [
        { operationId: INGEST, count: 2, tokensEach: 400_000 },
        { operationId: MAP, count: 1, tokensEach: undefined },
      ],
      totalTokens: 800_000,
      unpriced: [MAP],
    });
  });
});

describe('checkBudget', () => {
  it('allows a plan that takes exactly what the cap and the balance leave, and reports every figure', () => {
    const check = checkBudget(priceCalls([ingest(2)], {}), { mode: 'live', maxTokens: 900_000, reservedTokens: 100_000, balanceTokens: 800_000 });
    expect(check).toEqual({
      allowed: true,
      mode: 'live',
      plan: '2 × ingestLibraryDocument at 400,000 tokens',
      plannedTokens: 800_000,
      chargedTokens: 800_000,
      balanceTokens: 800_000,
      maxTokens: 900_000,
      reservedTokens: 100_000,
      capRemainingTokens: 800_000,
      neededCapTokens: 900_000,
      shortfall: undefined,
      suggestedPack: undefined,
      reasons: [],
    });
  });

  it('counts the calls that fit in the cap up to the first one without a price', () => {
    const cost = priceCalls([ingest(1), { operationId: MAP, count: 1 }, ingest(2)], {});
    const check = checkBudget(cost, { mode: 'sandbox', maxTokens: 1_000_000, label: 'sync' });
    expect(check.reasons).toEqual([
      'sync (1 × ingestLibraryDocument at 400,000 tokens + 1 × mapDocument at a price not listed + 2 × ingestLibraryDocument at 400,000 tokens) costs 1,200,000 tokens, but the cap of 1,000,000 tokens allows 1,000,000 tokens more: enough for 1 of the 4 calls',
    ]);
    expect(check.chargedTokens).toBe(0);
    // A call that takes exactly what is left still fits.
    expect(checkBudget(priceCalls([ingest(3)], {}), { mode: 'sandbox', maxTokens: 800_000 }).reasons).toEqual([
      '3 × ingestLibraryDocument at 400,000 tokens costs 1,200,000 tokens, but the cap of 800,000 tokens allows 800,000 tokens more: enough for 2 of the 3 calls',
    ]);
  });

  it('says no call fits when the plan lists none, and never allows less than nothing', () => {
    const check = checkBudget({ totalTokens: 5 }, { mode: 'live', maxTokens: 100, reservedTokens: 300 });
    expect(check.reasons).toEqual(['no charged call costs 5 tokens, but the cap of 100 tokens allows 0 tokens more (300 tokens of it already spent or reserved)']);
    expect(check.capRemainingTokens).toBe(0);
    expect(check.neededCapTokens).toBe(305);
  });

  it('reports no cap figures without a cap', () => {
    expect(checkBudget(priceCalls([ingest(1)], {}), { mode: 'live', reservedTokens: 5 })).toMatchObject({ allowed: true, maxTokens: undefined, capRemainingTokens: undefined, neededCapTokens: undefined });
  });

  it('requires a cap of a live key where asked for a plan that is priced or may cost anything', () => {
    const unpricedOnly = priceCalls([{ operationId: MAP, count: 1 }], {});
    expect(checkBudget(unpricedOnly, { mode: 'live', capRequired: true }).reasons).toEqual([
      '1 × mapDocument at a price not listed costs 0 tokens and no token cap was set, so nothing charged is allowed',
    ]);
    expect(checkBudget(priceCalls([], {}), { mode: 'live', capRequired: true }).allowed).toBe(true);
    expect(checkBudget(unpricedOnly, { mode: 'live' }).allowed).toBe(true);
    expect(checkBudget(unpricedOnly, { mode: 'live', capRequired: true, maxTokens: 10 }).reasons).toEqual([
      'the price of mapDocument is not listed, so the cap of 10 tokens cannot be guaranteed',
    ]);
  });

  it('refuses an unlisted price under a cap only for a live key', () => {
    const cost = priceCalls([{ operationId: MAP, count: 1 }, { operationId: 'generateDocument', count: 1 }], {});
    expect(checkBudget(cost, { mode: 'sandbox', maxTokens: 10 }).allowed).toBe(true);
    expect(checkBudget(cost, { mode: 'live', maxTokens: 10 }).reasons).toEqual([
      'the price of mapDocument, generateDocument is not listed, so the cap of 10 tokens cannot be guaranteed',
    ]);
  });

  it('refuses over the balance with the shortfall and the pack that covers it, for live keys only', () => {
    const cost = priceCalls([ingest(2)], {});
    const short = checkBudget(cost, { mode: 'live', balanceTokens: 500_000 });
    expect(short).toMatchObject({ allowed: false, shortfall: 300_000, suggestedPack: { code: 'pack10', priceUsd: 10, tokens: 3_300_000 } });
    expect(short.reasons).toEqual([
      '2 × ingestLibraryDocument at 400,000 tokens costs 800,000 tokens but the balance is 500,000 tokens: 300,000 tokens short; the smallest pack that covers it is pack10 (US$10, 3,300,000 tokens)',
    ]);
    expect(checkBudget(cost, { mode: 'sandbox', balanceTokens: 500_000 }).allowed).toBe(true);
    expect(checkBudget(cost, { mode: 'live', balanceTokens: 0 }).reasons).toEqual([
      '2 × ingestLibraryDocument at 400,000 tokens costs 800,000 tokens but the account is read-only (balance 0 tokens; it reactivates on a top-up): 800,000 tokens short; the smallest pack that covers it is pack10 (US$10, 3,300,000 tokens)',
    ]);
    const huge = checkBudget({ totalTokens: 200_000_000 }, { mode: 'live', balanceTokens: 1 });
    expect(huge.suggestedPack).toBeUndefined();
    expect(huge.reasons).toEqual([
      'no charged call costs 200,000,000 tokens but the balance is 1 tokens: 199,999,999 tokens short; that is more than the largest pack: buy several or ask for an invoiced block',
    ]);
  });
});

describe('budgetRefusal', () => {
  it('joins every reason and suggests the pack, the cap or a larger cap', () => {
    const both = checkBudget(priceCalls([ingest(2)], {}), { mode: 'live', maxTokens: 500_000, balanceTokens: 500_000 });
    const refusal = budgetRefusal(both);
    expect(refusal.code).toBe('budget_exceeded');
    expect(refusal.message).toBe(`refused before spending anything: ${both.reasons[0]}; ${both.reasons[1]}`);
    expect(both.reasons).toHaveLength(2);
    expect(refusal.hint).toBe('Buy pack10 (compliance checkout pack10), or plan fewer calls.');
    const uncapped = checkBudget(priceCalls([ingest(1)], {}), { mode: 'live', capRequired: true });
    expect(budgetRefusal(uncapped).hint).toBe('Set max-tokens to allow charged calls; a dry run shows what they cost.');
    expect(budgetRefusal(uncapped, 'Max Tokens').hint).toBe('Set Max Tokens to allow charged calls; a dry run shows what they cost.');
    const overCap = checkBudget(priceCalls([ingest(3)], {}), { mode: 'live', maxTokens: 1_000_000 });
    expect(budgetRefusal(overCap).hint).toBe('Set max-tokens to 1,200,000 or more, or plan fewer calls; a dry run shows the plan.');
  });
});

describe('mayHaveCharged and chargedTokens', () => {
  it('counts a 500 and an error without a status as possibly charged, and sandbox keys as never charged', () => {
    expect(mayHaveCharged(new ComplianceApiError({ status: 499, code: 'x', message: 'refused' }))).toBe(false);
    expect(mayHaveCharged(new ComplianceApiError({ status: 500, code: 'internal', message: 'failed' }))).toBe(true);
    expect(mayHaveCharged(new ComplianceApiError({ code: 'network', message: 'no status' }))).toBe(true);
    // Only the service's own refusal counts: another library's error with a status below 500 may have followed a charge.
    expect(mayHaveCharged(Object.assign(new Error('not found'), { status: 404 }))).toBe(true);
    expect(chargedTokens('live', 7)).toBe(7);
    expect(chargedTokens('sandbox', 7)).toBe(0);
  });
});

describe('Reservation', () => {
  const one = priceCalls([ingest(1)], {});

  it('commits what `around` returned, at most what it reserved', async () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 1_000_000 });
    const { reservation } = ledger.reserve(one);
    expect(ledger.remainingTokens).toBe(600_000);
    expect(await reservation?.around(() => Promise.resolve('done'))).toBe('done');
    expect({ spent: ledger.spentTokens, reserved: ledger.reservedTokens }).toEqual({ spent: 400_000, reserved: 0 });
    const twice = ledger.reserve(one).reservation;
    twice?.commit(900_000);
    twice?.release();
    expect({ spent: ledger.spentTokens, reserved: ledger.reservedTokens }).toEqual({ spent: 800_000, reserved: 0 });
  });

  it('rejects with the failure of `around` and frees what cannot have been charged', async () => {
    const ledger = new SpendLedger({ mode: 'live' });
    const refused = new ComplianceApiError({ status: 402, code: 'insufficient_balance', message: 'short' });
    await expect(ledger.reserve(one).reservation?.around(() => Promise.reject(refused))).rejects.toBe(refused);
    expect({ spent: ledger.spentTokens, reserved: ledger.reservedTokens, remaining: ledger.remainingTokens }).toEqual({ spent: 0, reserved: 0, remaining: undefined });
    await expect(ledger.reserve(one).reservation?.around(() => Promise.reject(new Error('reset')))).rejects.toThrow('reset');
    expect(ledger.spentTokens).toBe(400_000);
  });
});

describe('planSpend', () => {
  /** A client that answers ping and GET /billing, and records what it was asked. */
  function client(mode: 'live' | 'sandbox', balanceTokens = 10_000_000) {
    const asked: Array<{ call: string; signal: AbortSignal | undefined }> = [];
    return {
      asked,
      ping: (_: undefined, options?: { signal?: AbortSignal }) => {
        asked.push({ call: 'ping', signal: options?.signal });
        return Promise.resolve({ mode });
      },
      getBilling: (_: undefined, options?: { signal?: AbortSignal }) => {
        asked.push({ call: 'getBilling', signal: options?.signal });
        return Promise.resolve({ balanceTokens, prices: { [MAP]: 250_000 } });
      },
    };
  }
  const api = (fake: ReturnType<typeof client>) => fake as unknown as Parameters<typeof planSpend>[0];

  it('reads the mode and the prices, reserves under the cap given and passes the signal', async () => {
    const fake = client('live');
    const signal = new AbortController().signal;
    const plan = await planSpend(api(fake), [{ operationId: MAP, count: 2 }], { maxTokens: 600_000, label: 'map', signal });
    expect(fake.asked).toEqual([{ call: 'ping', signal }, { call: 'getBilling', signal }]);
    expect(plan).toMatchObject({ mode: 'live', balanceTokens: 10_000_000, prices: { [MAP]: 250_000 }, status: 'go' });
    expect(plan.budget.plan).toBe('map (2 × mapDocument at 250,000 tokens)');
    expect(plan.reservation?.tokens).toBe(500_000);
    expect({ max: plan.ledger.maxTokens, reserved: plan.ledger.reservedTokens }).toEqual({ max: 600_000, reserved: 500_000 });
  });

  it('asks nothing it was given, and counts against the ledger given in its mode', async () => {
    const fake = client('live');
    const ledger = new SpendLedger({ mode: 'sandbox', maxTokens: 300_000 });
    const plan = await planSpend(api(fake), [{ operationId: MAP, count: 2 }], { ledger, mode: 'live', billing: { balanceTokens: 5, prices: { [MAP]: 200_000 } } });
    expect(fake.asked).toEqual([]);
    expect(plan).toMatchObject({ mode: 'sandbox', balanceTokens: 5, status: 'refused', reservation: undefined, ledger });
    expect(plan.budget.plan).toBe('2 × mapDocument at 200,000 tokens');
    const sandbox = await planSpend(api(fake), [], { mode: 'sandbox' });
    expect(fake.asked.map((entry) => entry.call)).toEqual(['getBilling']);
    expect(sandbox).toMatchObject({ mode: 'sandbox', status: 'go' });
    expect(sandbox.ledger.maxTokens).toBeUndefined();
  });

  it('on a dry run prices and checks but reserves nothing', async () => {
    const plan = await planSpend(api(client('live', 0)), [{ operationId: MAP, count: 1 }], { dryRun: true });
    expect(plan).toMatchObject({ status: 'dry-run', reservation: undefined, budget: { allowed: false, shortfall: 250_000 } });
    expect(plan.ledger.reservedTokens).toBe(0);
  });
});
