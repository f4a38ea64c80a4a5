/** The charged step (review/chargedStep.ts): the one sequence every spender runs, and the words every surface shows. */
import { describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../api/errors.js';
import { chargedStep, chargedStepSentence, SpendLedger } from '../../review/index.js';

const INGEST = [{ operationId: 'ingestLibraryDocument', count: 1 }];
/** What the step reads of the service: the key's mode and GET /billing (ingest at the table's 400,000). */
const service = (mode: 'live' | 'sandbox' = 'live', balanceTokens = 10_000_000) => ({
  ping: async () => ({ mode }) as never,
  getBilling: async () => ({ balanceTokens, prices: {} }) as never,
});
const failWith = (status: number) => async (): Promise<never> => {
  throw new ComplianceApiError({ status, code: `http_${status}`, message: `answered ${status}` });
};

describe('chargedStep', () => {
  it('a dry run the cap would refuse is a dry run: nothing run, nothing reserved, the refusal said', async () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 399_999 });
    let ran = false;
    const step = await chargedStep(service(), INGEST, { ledger, dryRun: true, capLabel: 'max-tokens' }, async () => (ran = true));
    expect(ran).toBe(false);
    expect(step).toMatchObject({ status: 'dry-run', tokensSpent: 0, refusal: { code: 'budget_exceeded' } });
    expect(ledger.reservedTokens + ledger.spentTokens).toBe(0);
    expect(chargedStepSentence(step)).toBe(
      'Dry run, nothing sent: 1 × ingestLibraryDocument at 400,000 tokens, 400,000 tokens at live prices. A real run would be refused before spending anything: 1 × ingestLibraryDocument at 400,000 tokens costs 400,000 tokens, but the cap of 399,999 tokens allows 399,999 tokens more: enough for 0 of the 1 call.',
    );
  });

  it('refused: nothing run, the refusal names the cap by its label; completed: settled to what the run says it charged', async () => {
    const refused = await chargedStep(service(), INGEST, { maxTokens: 1, capLabel: 'Max Tokens' }, async () => 'sent');
    expect(refused).toMatchObject({ status: 'refused', value: undefined, refusal: { hint: 'Set Max Tokens to 400,000 or more, or plan fewer calls; a dry run shows the plan.' } });
    expect(chargedStepSentence(refused)).toMatch(/^Refused before spending anything: 1 × ingestLibraryDocument/);

    const ledger = new SpendLedger({ mode: 'sandbox', maxTokens: 1_000_000 });
    const done = await chargedStep(service('sandbox'), [{ ...INGEST[0]!, count: 2 }], { ledger, settle: () => 400_000 }, async () => 'half of it');
    expect(done).toMatchObject({ status: 'completed', value: 'half of it', settledTokens: 400_000, tokensSpent: 0 });
    expect({ spent: ledger.spentTokens, reserved: ledger.reservedTokens }).toEqual({ spent: 400_000, reserved: 0 });
    expect(chargedStepSentence(done)).toBe('Spent 0 tokens (sandbox key: never charged).');
  });

  it('keeps the reservation on every 5xx answer (the service may have charged) and frees it on every 4xx', async () => {
    for (let status = 400; status <= 599; status += 1) {
      const ledger = new SpendLedger({ mode: 'live', maxTokens: 400_000 });
      await expect(chargedStep(service(), INGEST, { ledger }, failWith(status))).rejects.toMatchObject({ status });
      expect({ status, spent: ledger.spentTokens, reserved: ledger.reservedTokens }).toEqual({ status, spent: status >= 500 ? 400_000 : 0, reserved: 0 });
    }
  });

  it('hands the run its priced plan and the reservation it holds', async () => {
    const ledger = new SpendLedger({ mode: 'live', maxTokens: 1_000_000 });
    const step = await chargedStep(service(), INGEST, { ledger }, async (plan) => ({ total: plan.estimate.totalTokens, held: plan.reservation.tokens, balance: plan.balanceTokens }));
    expect(step.value).toEqual({ total: 400_000, held: 400_000, balance: 10_000_000 });
  });
});

describe('chargedStepSentence', () => {
  it('a dry run of no charged call, or of calls the service does not price, says so; a refusal without a budget reason says it refused', async () => {
    const none = await chargedStep(service(), [], { dryRun: true }, async () => undefined);
    expect(chargedStepSentence(none)).toBe('Dry run, nothing sent: no charged call.');
    const priced = await chargedStep(service('sandbox'), INGEST, { dryRun: true }, async () => undefined);
    expect(chargedStepSentence({ ...priced, estimate: { ...priced.estimate, unpriced: ['ingestLibraryDocument', 'mapDocument'] } })).toBe(
      'Dry run, nothing sent: 1 × ingestLibraryDocument at 400,000 tokens, a price the service does not list for ingestLibraryDocument, mapDocument (sandbox key: never charged).',
    );
    expect(chargedStepSentence({ ...priced, status: 'refused' })).toBe('Refused before spending anything.');
  });
});

