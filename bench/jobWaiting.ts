/**
 * Job waiting as users feel it: a generation job of 10 s, 60 s and 5 minutes (`--job-seconds`) on
 * the in-process sandbox, waited for by the client's waitForJob (api/jobs.ts). Reported: polls (every
 * GET /jobs/{id}) and the delay between the job's completion and the client seeing it, beside the
 * targets (within 20% of the job's time; at most 10 polls for 5 minutes).
 *
 * Time is virtual: the sandbox and the client share one clock that only the client's sleeps move,
 * so a 5-minute job takes milliseconds and the figures are the schedule's own, without HTTP latency.
 * One 10 s job also runs on the real clock, so that latency and timer lag show beside it.
 */
import { ComplianceClient } from '../api/node/index.js';
import { startSandbox } from '../sandbox/index.js';
import type { BenchReport } from './report.js';

const KEY = 'csk_sandbox_jobwait_0001';

interface JobWait {
  jobSeconds: number;
  /** GET /jobs/{id} requests made by waitForJob. */
  polls: number;
  /** From the job's completion (submission + jobSeconds) to waitForJob returning, ms. */
  detectionDelayMs: number;
}

/** Submits one generation job of `jobSeconds` and waits for it as the client does; `virtual`: on a shared virtual clock. */
async function measureJobWait(jobSeconds: number, virtual = true): Promise<JobWait> {
  let now = Date.UTC(2026, 0, 5, 9, 0, 0);
  const clock = virtual ? () => now : Date.now;
  const box = await startSandbox({ port: 0, jobSeconds, keys: [KEY], ...(virtual ? { clock } : {}) });
  try {
    let polls = 0;
    const api = new ComplianceClient({
      apiKey: KEY,
      baseUrl: box.baseUrl,
      maxRetries: 0,
      ...(virtual
        ? {
            now: clock,
            sleep: async (ms: number) => {
              now += ms;
              await Promise.resolve();
            },
          }
        : {}),
    });
    const submitted = clock();
    const accepted = await api.generateDocument({ framework: 'gdpr', organisation: { name: 'Job Wait Ltd' } });
    await api.waitForJob(accepted.jobId, { estimatedSeconds: accepted.estimatedSeconds, onProgress: () => polls++ });
    return { jobSeconds, polls, detectionDelayMs: clock() - (submitted + jobSeconds * 1000) };
  } finally {
    await box.close();
  }
}

export async function bench(report: BenchReport): Promise<void> {
  for (const seconds of [10, 60, 300]) {
    const wait = await measureJobWait(seconds);
    const label = `job waiting ${seconds} s job`;
    report.figure(`${label}: polls`, wait.polls, 'polls', seconds === 300 ? '≤ 10' : undefined);
    report.figure(`${label}: detection delay`, Math.round(wait.detectionDelayMs) / 1000, 's', `≤ ${seconds * 0.2} s`);
  }
  const real = await measureJobWait(10, false);
  report.figure('job waiting 10 s job, real clock: polls', real.polls, 'polls');
  report.figure('job waiting 10 s job, real clock: detection delay', Math.round(real.detectionDelayMs) / 1000, 's', '≤ 2 s');
}
