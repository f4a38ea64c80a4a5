/** The money rule (review/budget): pricing, the one budget decision, and the cap as a ledger of reservations. */
import { describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceValidationError } from '../../api/errors.js';
import { budgetRefusal, mayHaveCharged, priceCalls, priceOf, ReviewError, SpendLedger } from '../../review/index.js';

const INGEST = { operationId: 'ingestLibraryDocument', count: 1 };

describe('priceOf', () => {
  it('takes GET /billing\'s price, else the operation table\'s fixed price, else none', () => {
    expect(priceOf('ingestLibraryDocument', { ingestLibraryDocument: 7 })).toBe(7);
    expect(priceOf('ingestLibraryDocument', {})).toBe(400_000);
    expect(priceOf('mapDocument', {})).toBeUndefined();
    expect(priceCalls([{ operationId: 'mapDocument', count: 2 }, INGEST], { mapDocument: 250_000 })).toMatchObject({ totalTokens: 900_000, unpriced: [] });
  });
});

describe('SpendLedger', () => {
  const one = priceCalls([INGEST], {});

  it('reserves before the call: a second plan cannot claim what the first holds, however the calls interleave', () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 400_000 });
    const first = ledger.reserve(one);
    const second = ledger.reserve(one);
    expect(first.reservation?.tokens).toBe(400_000);
    expect(second.reservation).toBeUndefined();
    expect(second.budget.reasons).toEqual(['1 × ingestLibraryDocument at 400,000 tokens costs 400,000 tokens, but the cap of 400,000 tokens allows 0 tokens more (400,000 tokens of it already spent or reserved): enough for 0 of the 1 call']);
    expect(ledger.remainingTokens).toBe(0);
    first.reservation?.commit();
    expect({ spent: ledger.spentTokens, reserved: ledger.reservedTokens, remaining: ledger.remainingTokens }).toEqual({ spent: 400_000, reserved: 0, remaining: 0 });
  });

  it('releases a reservation only when the failure cannot have been charged', () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 800_000 });
    ledger.reserve(one).reservation?.settleAfter(new ComplianceApiError({ status: 409, code: 'duplicate_document', message: 'held' }));
    expect(ledger.spentTokens).toBe(0);
    ledger.reserve(one).reservation?.settleAfter(new ComplianceApiError({ status: 502, code: 'outcome_unknown', message: 'no answer' }));
    expect(ledger.spentTokens).toBe(400_000);
    expect(ledger.reservedTokens).toBe(0);
    // A reservation settles once: a second settlement changes nothing.
    const held = ledger.reserve(one).reservation;
    held?.commit(100_000);
    held?.release();
    expect(ledger.spentTokens).toBe(500_000);
  });

  it('counts live prices against the cap for sandbox keys too, and requires a cap for live keys where asked', () => {
    const sandbox = new SpendLedger({ mode: 'sandbox', maxTokens: 399_999 });
    expect(sandbox.reserve(one).budget).toMatchObject({ allowed: false, chargedTokens: 0, neededCapTokens: 400_000 });
    const uncapped = new SpendLedger({ mode: 'live', capRequired: true });
    expect(uncapped.reserve(one, { label: 'ingest' }).budget.reasons).toEqual(['ingest (1 × ingestLibraryDocument at 400,000 tokens) costs 400,000 tokens and no token cap was set, so nothing charged is allowed']);
    expect(new SpendLedger({ mode: 'sandbox', capRequired: true }).reserve(one).reservation).toBeDefined();
  });

  it('refuses over the balance naming the pack, and words the fix with the cap\'s own label', () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 300_000 });
    const { budget } = ledger.reserve(priceCalls([{ ...INGEST, count: 2 }], {}), { balanceTokens: 500_000 });
    expect(budget.shortfall).toBe(300_000);
    expect(budget.suggestedPack?.code).toBe('pack10');
    const overCap = new SpendLedger({ mode: 'live', maxTokens: 300_000 }).reserve(one).budget;
    const refusal = budgetRefusal(overCap, '--max-tokens');
    expect(refusal).toBeInstanceOf(ReviewError);
    expect(refusal.hint).toBe('Set --max-tokens to 400,000 or more, or plan fewer calls; a dry run shows the plan.');
  });
});

describe('mayHaveCharged', () => {
  it('is false only for refusals before sending or by the service', () => {
    expect(mayHaveCharged(new ComplianceValidationError({ code: 'invalid_input', field: 'title', message: 'title: required' }))).toBe(false);
    expect(mayHaveCharged(new ReviewError('budget_exceeded', 'no'))).toBe(false);
    expect(mayHaveCharged(new ComplianceApiError({ status: 402, code: 'insufficient_balance', message: 'short' }))).toBe(false);
    expect(mayHaveCharged(new ComplianceApiError({ status: 503, code: 'unavailable', message: 'down' }))).toBe(true);
    expect(mayHaveCharged(new Error('socket hang up'))).toBe(true);
  });
});
