/**
 * Waiting for a job as users do: the client's waitForJob (api/jobs.ts) against the sandbox, both
 * on one ManualClock that only the client's sleeps move, so a 5-minute job takes milliseconds and
 * no assertion rests on wall time. Every poll's instant and answer is recorded: the schedule itself
 * is checked (at once, half way, at the expected end), and with it how late completion is seen.
 */
import { describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import { ManualClock, SANDBOX_KEY, sandbox } from './helpers.js';

/** Seconds after submission of each GET /jobs/{id}, with the status it answered. */
async function pollsOf(jobSeconds: number, toldSeconds?: number): Promise<Array<[number, string]>> {
  const clock = new ManualClock();
  const box = await sandbox({ jobSeconds, clock: clock.now });
  try {
    const api = new ComplianceClient({
      apiKey: SANDBOX_KEY,
      baseUrl: box.baseUrl,
      maxRetries: 0,
      now: clock.now,
      sleep: async (ms: number) => clock.advance(ms),
    });
    const submitted = clock.now();
    const accepted = await api.generateDocument({ framework: 'gdpr', organisation: { name: 'Job Wait Ltd' } });
    expect(accepted.estimatedSeconds).toBe(jobSeconds);
    const polls: Array<[number, string]> = [];
    await api.waitForJob(accepted.jobId, {
      estimatedSeconds: toldSeconds ?? accepted.estimatedSeconds,
      onProgress: (job) => polls.push([(clock.now() - submitted) / 1000, job.status]),
    });
    return polls;
  } finally {
    await box.close();
  }
}

describe('waiting for a job on the sandbox', () => {
  it.each([10, 60, 300])('polls a %i s job at once, half way and at its end, seeing completion the moment it happens', async (seconds) => {
    expect(await pollsOf(seconds)).toEqual([
      [0, 'queued'],
      [seconds / 2, 'running'],
      [seconds, 'completed'],
    ]);
  });

  it('moves the expected end to what the job reports when the caller was told too little, in waits of half what it was told', async () => {
    expect(await pollsOf(300, 100)).toEqual([
      [0, 'queued'],
      [50, 'queued'],
      ...[100, 150, 200, 250].map((at) => [at, 'running']),
      [300, 'completed'],
    ]);
  });
});
