/**
 * Job waiting against the real sandbox on a virtual clock (shared by the sandbox and the client's
 * sleep; no wall-clock waits): polls and detection delay for jobs of 10 s, 60 s and 5 minutes.
 */
import { describe, expect, it } from 'vitest';
import { measureJobWait } from '../../bench/jobWaiting.js';

describe('waiting for a job', () => {
  it.each([10, 60, 300])('sees a %i s job complete within a fifth of its time, in at most 10 polls', async (seconds) => {
    const wait = await measureJobWait(seconds);
    expect(wait.detectionDelayMs).toBeGreaterThanOrEqual(0);
    expect(wait.detectionDelayMs).toBeLessThanOrEqual(seconds * 1000 * 0.2);
    expect(wait.polls).toBeGreaterThanOrEqual(2);
    expect(wait.polls).toBeLessThanOrEqual(10);
  });

  it('drives a 5-minute job in a handful of polls: at once, half way, at the expected end', async () => {
    const wait = await measureJobWait(300);
    expect(wait).toEqual({ jobSeconds: 300, polls: 3, detectionDelayMs: 0 });
  });
});
