/** forEachConcurrent (review/concurrency): the limit on calls in flight, every item once in order started, and an abort or a failure stopping new starts. */
import { describe, expect, it } from 'vitest';
import { forEachConcurrent } from '../../review/concurrency.js';

/** Runs the items and reports the most in flight at once and the order each started (by index). */
async function run(count: number, limit: number, options: { abortAt?: number } = {}) {
  const controller = new AbortController();
  const started: Array<[number, number]> = [];
  let inFlight = 0;
  let most = 0;
  await forEachConcurrent(
    Array.from({ length: count }, (_, index) => index * 10),
    limit,
    async (item, index) => {
      started.push([index, item]);
      inFlight += 1;
      most = Math.max(most, inFlight);
      if (index === options.abortAt) controller.abort();
      // Yield twice so the other workers start before this one ends.
      await Promise.resolve();
      await Promise.resolve();
      inFlight -= 1;
    },
    controller.signal,
  );
  return { most, started };
}

describe('forEachConcurrent', () => {
  it('keeps at most `limit` in flight and starts every item once, in order', async () => {
    expect(await run(5, 2)).toEqual({ most: 2, started: [[0, 0], [1, 10], [2, 20], [3, 30], [4, 40]] });
    expect((await run(5, 3)).most).toBe(3);
    expect((await run(2, 8)).most).toBe(2);
  });

  it('runs one at a time under a limit below one, and nothing for no items', async () => {
    expect(await run(3, 0)).toEqual({ most: 1, started: [[0, 0], [1, 10], [2, 20]] });
    expect(await run(0, 2)).toEqual({ most: 0, started: [] });
  });

  it('starts nothing new once aborted', async () => {
    expect((await run(5, 1, { abortAt: 1 })).started).toEqual([[0, 0], [1, 10]]);
  });

  it('starts nothing new after a failure, lets the calls in flight finish, and then rejects with the first failure', async () => {
    const started: number[] = [];
    const finished: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const run = forEachConcurrent([0, 1, 2, 3, 4], 2, async (item) => {
      started.push(item);
      if (item === 0) throw new Error('refused: 0');
      // Item 1 is in flight when item 0 fails: the run waits for it, and starts nothing after it.
      await released;
      finished.push(item);
    });
    let settled = false;
    void run.catch(() => undefined).finally(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    release();
    await expect(run).rejects.toThrow('refused: 0');
    expect([started, finished]).toEqual([[0, 1], [1]]);
  });
});
