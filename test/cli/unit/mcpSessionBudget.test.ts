/**
 * The MCP session budget (cli/mcp/budget.ts) settles a failed charged call by what the service did:
 * a call it admitted stays spent whatever fails after it (the wait, the download); one refused before
 * admission is released. Against an in-process sandbox's live key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../../api/errors.js';
import { SessionBudget } from '../../../cli/mcp/budget.js';
import type { RunningSandbox } from '../../../sandbox/index.js';
import { apiClient, LIVE_KEY, sandbox } from '../../sandbox/helpers.js';

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
});
afterAll(async () => {
  await box?.close();
});

/** What a download of a job the service no longer holds answers: a 404, which by itself proves nothing was charged. */
const notFound = () => new ComplianceApiError({ code: 'job_not_found', status: 404, operationId: 'downloadDocument', message: 'downloadDocument: no such job', hint: 'Check the job id.' });

async function budgetOfOneMapping() {
  const probe = new SessionBudget(apiClient(box, LIVE_KEY), 'live', undefined);
  const price = (await probe.priceOf('mapDocument')) ?? Number.NaN;
  return { price, budget: new SessionBudget(apiClient(box, LIVE_KEY), 'live', price) };
}

describe('SessionBudget.spend', () => {
  it('keeps a call spent once the service admitted it, though what follows fails with a 404', async () => {
    const { price, budget } = await budgetOfOneMapping();
    const error = notFound();
    await expect(budget.spend('mapDocument', ['mapDocument'], async () => {}, async (admitted) => {
      admitted();
      throw error;
    })).rejects.toBe(error);
    expect(budget.report()).toMatchObject({ spentTokens: price, reservedTokens: 0, remainingTokens: 0 });
    await expect(budget.spend('mapDocument', ['mapDocument'], async () => {}, async () => 'sent')).rejects.toMatchObject({ code: 'budget_exceeded' });
  });

  it('releases a call refused before admission', async () => {
    const { price, budget } = await budgetOfOneMapping();
    await expect(budget.spend('mapDocument', ['mapDocument'], async () => {}, async () => {
      throw notFound();
    })).rejects.toMatchObject({ code: 'job_not_found' });
    expect(budget.report()).toMatchObject({ spentTokens: 0, reservedTokens: 0, remainingTokens: price });
  });
});
