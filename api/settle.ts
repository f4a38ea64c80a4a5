/**
 * A call's outcome as a value. The API core decides what a failure means on the value and then
 * throws its own typed error (or the failure it cannot interpret) from plain code, never from inside
 * a `catch`: the one place that turns errors into a host's error types is that host's boundary (in
 * n8n, nodes/shared/errors.ts makes every failure a NodeApiError or NodeOperationError).
 */
type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Runs `run`, resolving to its value or to what it threw or rejected with. */
export async function settle<T>(run: () => Promise<T> | T): Promise<Settled<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    return { ok: false, error };
  }
}

/** `settle` for synchronous work (parsing, normalising). */
export function settleSync<T>(run: () => T): Settled<T> {
  try {
    return { ok: true, value: run() };
  } catch (error) {
    return { ok: false, error };
  }
}
