/** Cancellation (api/abort.ts): what an abort says and keeps, and what a sleep's own failure stays. Killed survivors of npm run test:mutation. */
import { describe, expect, it } from 'vitest';
import { abortedError, sleepUnlessAborted } from '../../api/abort.js';

describe('abortedError', () => {
  it('names the operation, or "request" without one, and keeps the signal\'s reason as the cause', () => {
    const controller = new AbortController();
    const reason = new Error('user pressed stop');
    controller.abort(reason);
    expect(abortedError('getJob', controller.signal)).toMatchObject({ code: 'aborted', message: 'getJob: aborted by the caller', operationId: 'getJob', cause: reason });
    const bare = abortedError(undefined, undefined);
    expect({ message: bare.message, cause: bare.cause }).toEqual({ message: 'request: aborted by the caller', cause: undefined });
    expect(bare.hint).toMatch(/AbortSignal passed to the call was aborted/);
  });
});

describe('sleepUnlessAborted', () => {
  it('a sleep that fails on its own rethrows its own error, not an abort', async () => {
    const broken = new Error('timer broke');
    await expect(sleepUnlessAborted(async () => { throw broken; }, 10, new AbortController().signal, 'getJob')).rejects.toBe(broken);
  });

  it('an abort during the sleep becomes an aborted error, even when the sleep itself returns', async () => {
    const controller = new AbortController();
    const sleep = async () => { controller.abort(); };
    await expect(sleepUnlessAborted(sleep, 10, controller.signal, 'getJob')).rejects.toMatchObject({ code: 'aborted', operationId: 'getJob' });
  });
});
