/**
 * Cancellation: every call and every wait takes an AbortSignal. An abort surfaces as a
 * ComplianceError with code `aborted` (the signal's reason is kept as the cause), whichever layer
 * noticed it: before sending, in the transport, while backing off or while polling.
 */
import { ComplianceError } from './errors.js';
import { settle } from './settle.js';
import type { Sleep } from './transport.js';

export function abortedError(operationId: string | undefined, signal: AbortSignal | undefined): ComplianceError {
  return new ComplianceError({
    code: 'aborted',
    message: `${operationId ?? 'request'}: aborted by the caller`,
    hint: 'The AbortSignal passed to the call was aborted; nothing further was sent.',
    operationId,
    cause: signal?.reason,
  });
}

export function throwIfAborted(signal: AbortSignal | undefined, operationId?: string): void {
  if (signal?.aborted) throw abortedError(operationId, signal);
}

/** Sleeps through the injected sleep; an abort during the sleep becomes an `aborted` error. */
export async function sleepUnlessAborted(
  sleep: Sleep,
  ms: number,
  signal: AbortSignal | undefined,
  operationId?: string,
): Promise<void> {
  throwIfAborted(signal, operationId);
  if (ms <= 0) return;
  const slept = await settle(() => sleep(ms, signal));
  // A sleep that failed because of the abort is the abort; any other failure is the sleep's own.
  if (!slept.ok && !signal?.aborted) throw slept.error;
  throwIfAborted(signal, operationId);
}
