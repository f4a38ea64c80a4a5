/**
 * withRetries (api/retry.ts) on the failures the transport and the client build, one decision each:
 * what is given up at once, what counts as maybe sent, what an unknown outcome says, where the
 * deadline falls. Mutants of each survived test/api/retry.test.ts, which goes through the client.
 */
import { describe, expect, it } from 'vitest';
import { abortedError } from '../../api/abort.js';
import { ComplianceApiError, ComplianceError } from '../../api/errors.js';
import { DEFAULT_RETRY_SETTINGS, retryNoticeText, withRetries } from '../../api/retry.js';
import type { RetryClass } from '../../api/operations.js';
import { TransportError } from '../../api/transport.js';
import { FakeTime } from './helpers.js';

const transportFailure = (kind: TransportError['kind'], sent: boolean) =>
  new ComplianceApiError({ code: kind === 'timeout' ? 'timeout' : 'network_error', message: 'no answer', cause: new TransportError(kind, sent, 'no answer') });

type Settled = { value?: string; error?: unknown };

/** Runs withRetries over `failures` (then a success), returning what it settled on and the attempts made. */
async function retried(retryClass: RetryClass, failures: unknown[], options: { operationId?: string; maxElapsedMs?: number; resolveReplayDuplicate?: () => Promise<string> } = {}) {
  const time = new FakeTime();
  let attempts = 0;
  const result = await withRetries(
    {
      operationId: options.operationId ?? 'getUsage',
      retryClass,
      settings: { ...DEFAULT_RETRY_SETTINGS, maxElapsedMs: options.maxElapsedMs ?? DEFAULT_RETRY_SETTINGS.maxElapsedMs },
      sleep: time.sleep,
      now: time.now,
      random: () => 0.5,
      ...(options.resolveReplayDuplicate ? { resolveReplayDuplicate: options.resolveReplayDuplicate } : {}),
    },
    async () => {
      attempts++;
      if (attempts <= failures.length) throw failures[attempts - 1];
      return 'ok';
    },
  ).then((value): Settled => ({ value }), (error: unknown): Settled => ({ error }));
  return { ...result, attempts, sleeps: time.sleeps };
}

describe('withRetries gives up at once on what no retry can change', () => {
  it.each([
    ['an error that is not the client\'s', new TypeError('bug')],
    ['nothing at all', undefined],
    ['the caller\'s abort', abortedError('getUsage', undefined)],
    ['a client error that is not an answer', new ComplianceError({ code: 'invalid_response', message: 'bad body', cause: new TransportError('reset', false, 'x') })],
    ['an answer without a status nor a transport failure behind it', new ComplianceApiError({ code: 'invalid_response', message: 'not JSON' })],
  ])('%s', async (_, failure) => {
    const { error, attempts, sleeps } = await retried('safe', [failure, failure]);
    expect(error).toBe(failure);
    expect({ attempts, sleeps }).toEqual({ attempts: 1, sleeps: [] });
  });
});

describe('what may have been sent', () => {
  it('an aborted transport counts as maybe sent whatever its sent flag: a charged call is not re-sent', async () => {
    const { error, attempts } = await retried('charged', [transportFailure('aborted', false)], { operationId: 'mapDocument' });
    expect(attempts).toBe(1);
    expect(error).toMatchObject({ code: 'outcome_unknown' });
  });

  it('a replay after an aborted transport resolves its duplicate to the first attempt\'s document; any other answer stays an error', async () => {
    const duplicate = new ComplianceApiError({ code: 'duplicate_document', status: 409, message: 'exists' });
    const resolveReplayDuplicate = async () => 'the first attempt\'s document';
    expect((await retried('replayable', [transportFailure('aborted', true), duplicate], { resolveReplayDuplicate })).value).toBe('the first attempt\'s document');
    const invalid = new ComplianceApiError({ code: 'validation_error', status: 400, message: 'bad' });
    const { error, attempts } = await retried('replayable', [transportFailure('aborted', true), invalid], { resolveReplayDuplicate });
    expect({ error, attempts }).toEqual({ error: invalid, attempts: 2 });
  });
});

describe('an unknown outcome', () => {
  it('without a status names the failure alone, and without an operation hint says to check the ledger', async () => {
    const { error } = await retried('charged', [transportFailure('timeout', true)], { operationId: 'customCharge' });
    expect(error).toMatchObject({
      code: 'outcome_unknown',
      status: undefined,
      message: 'customCharge: the outcome is unknown (timeout); the request may have been admitted and charged, so it was not sent again',
      hint: 'Check the ledger (getBilling().ledger) for a charge at this time before re-running.',
      details: { serviceCode: 'timeout' },
    });
  });

  it('with a status names it with the service\'s code', async () => {
    const { error } = await retried('charged', [new ComplianceApiError({ code: 'internal_error', status: 500, message: 'broke' })], { operationId: 'mapDocument' });
    expect((error as Error).message).toBe('mapDocument: the outcome is unknown (HTTP 500 internal_error); the request may have been admitted and charged, so it was not sent again');
  });
});

describe('the deadline', () => {
  it('a retry whose wait ends exactly at the deadline is still made', async () => {
    // Backoff with random 0.5: 250 ms before the first retry.
    const failure = new ComplianceApiError({ code: 'internal_error', status: 503, message: 'busy' });
    expect(await retried('safe', [failure], { maxElapsedMs: 250 })).toMatchObject({ value: 'ok', attempts: 2, sleeps: [250] });
    expect(await retried('safe', [failure], { maxElapsedMs: 249 })).toMatchObject({ error: failure, attempts: 1, sleeps: [] });
  });
});

describe('retryNoticeText', () => {
  it('repeats only a whole plain identifier from the service', () => {
    const notice = { operationId: 'getUsage', attempt: 1, delayMs: 2_000, status: 503 };
    expect(retryNoticeText({ ...notice, code: 'busy_now' })).toBe('getUsage: HTTP 503 busy_now; trying again in 2 s');
    expect(retryNoticeText({ ...notice, code: 'busy <b>now</b>' })).toBe('getUsage: HTTP 503 error; trying again in 2 s');
  });
});
