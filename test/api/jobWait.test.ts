/**
 * waitForJob and the submit-wait-download helpers over injected dependencies (a scripted getJob, a
 * clock that sleeping advances, a recording api): the schedule without estimates, what each call is
 * handed, and the failures' words.
 */
import { describe, expect, it } from 'vitest';
import type { CallOptions, Download, JobStatusModel } from '../../api/clientTypes.js';
import { ComplianceJobError } from '../../api/errors.js';
import { downloadMappingReport, generateAndDownload, mapAndDownload, waitForJob } from '../../api/jobs.js';

const START = 1_000_000;
const job = (status: string, extra: Partial<JobStatusModel> = {}) => ({ jobId: 'job_1', status, ...extra }) as JobStatusModel;

/** getJob answering `statuses` in order, and the sleeps and signals it saw. */
function scripted(statuses: JobStatusModel[]) {
  let now = START;
  const sleeps: number[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  const dependencies = {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    getJob: async (_input: { jobId: string }, options?: CallOptions) => {
      signals.push(options?.signal);
      return statuses.shift()!;
    },
  };
  return { dependencies, sleeps, signals };
}

describe('waitForJob without an estimate', () => {
  it('assumes 10 s: half of it, the rest, then a tenth growing by half', async () => {
    const { dependencies, sleeps } = scripted([job('queued'), job('running'), job('running'), job('running'), job('completed')]);
    await waitForJob(dependencies, 'job_1');
    expect(sleeps).toEqual([5_000, 5_000, 1_000, 1_500]);
  });

  it.each([0, -5, Number.POSITIVE_INFINITY, Number.NaN])('treats an estimate of %s as none', async (estimatedSeconds) => {
    const { dependencies, sleeps } = scripted([job('queued'), job('completed')]);
    await waitForJob(dependencies, 'job_1', { estimatedSeconds });
    expect(sleeps).toEqual([5_000]);
  });

  it("takes the first status's time left as the estimate", async () => {
    const { dependencies, sleeps } = scripted([job('queued', { estimatedSeconds: 40 }), job('running'), job('running'), job('completed')]);
    await waitForJob(dependencies, 'job_1');
    // 40 s from the first poll: 20 s (half), 20 s (the rest), then late: a tenth of 40 s.
    expect(sleeps).toEqual([20_000, 20_000, 4_000]);
  });

  it('waits at most 15 minutes by default', async () => {
    const { dependencies, sleeps } = scripted(Array.from({ length: 200 }, () => job('running')));
    await expect(waitForJob(dependencies, 'job_1')).rejects.toMatchObject({ code: 'job_timeout', operationId: 'waitForJob', message: 'job job_1 did not finish within 900 s (last status: running)' });
    expect(sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(900_000);
  });
});

describe('waitForJob hands on the signal and names itself', () => {
  it('passes the signal to every poll', async () => {
    const controller = new AbortController();
    const { dependencies, signals } = scripted([job('queued'), job('completed')]);
    await waitForJob(dependencies, 'job_1', { signal: controller.signal });
    expect(signals).toEqual([controller.signal, controller.signal]);
  });

  it('an abort before a poll or during a wait is waitForJob aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const { dependencies } = scripted([job('queued')]);
    await expect(waitForJob(dependencies, 'job_1', { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted', message: 'waitForJob: aborted by the caller' });
    const during = new AbortController();
    const waiting = scripted([job('queued')]);
    waiting.dependencies.sleep = async () => during.abort();
    await expect(waitForJob(waiting.dependencies, 'job_1', { signal: during.signal })).rejects.toMatchObject({ code: 'aborted', message: 'waitForJob: aborted by the caller' });
  });

  it('a failed job without a reason says so, from waitForJob', async () => {
    const { dependencies } = scripted([job('failed')]);
    const error = await waitForJob(dependencies, 'job_1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComplianceJobError);
    expect(error).toMatchObject({ operationId: 'waitForJob', code: 'job_failed', message: 'job job_1 failed: no reason given' });
  });

  it('a failed library refresh is refunded', async () => {
    const { dependencies } = scripted([job('failed', { kind: 'library_refresh' } as Partial<JobStatusModel>)]);
    const error = (await waitForJob(dependencies, 'job_1').catch((caught: unknown) => caught)) as ComplianceJobError;
    expect(error.hint).toMatch(/^The charge for a library job that fails after admission is refunded/);
  });
});

/** An api whose every call is recorded with the options it was given. */
function recordingApi(download: Download) {
  const calls: Array<[string, unknown, unknown]> = [];
  const api = {
    generateDocument: async (input: unknown, options: unknown) => (calls.push(['generateDocument', input, options]), { jobId: 'job_1', estimatedSeconds: 7 }),
    mapDocument: async (input: unknown, options: unknown) => (calls.push(['mapDocument', input, options]), { jobId: 'job_1', estimatedSeconds: 7 }),
    waitForJob: async (jobId: unknown, options: unknown) => (calls.push(['waitForJob', jobId, options]), job('completed')),
    downloadDocument: async (input: unknown, options: unknown) => (calls.push(['downloadDocument', input, options]), download),
  };
  return { api: api as unknown as Parameters<typeof generateAndDownload>[0], calls };
}

const REPORT: Download = { kind: 'json', data: { coveragePercent: 50, controls: [] }, contentType: 'application/json', filename: 'r.json' };

describe('the one-call helpers hand the signal to every call', () => {
  it('generateAndDownload downloads json unless told otherwise', async () => {
    const signal = new AbortController().signal;
    const { api, calls } = recordingApi(REPORT);
    await generateAndDownload(api, { framework: 'soc2' } as never, { signal, timeoutMs: 5 });
    expect(calls).toEqual([
      ['generateDocument', { framework: 'soc2' }, { signal }],
      ['waitForJob', 'job_1', { estimatedSeconds: 7, signal, timeoutMs: 5 }],
      ['downloadDocument', { jobId: 'job_1', format: 'json' }, { signal }],
    ]);
  });

  it('mapAndDownload', async () => {
    const signal = new AbortController().signal;
    const { api, calls } = recordingApi(REPORT);
    const { report } = await mapAndDownload(api, { framework: 'soc2', content: 'x' } as never, { signal });
    expect(report.coverage).toBe(50);
    expect(calls).toEqual([
      ['mapDocument', { framework: 'soc2', content: 'x' }, { signal }],
      ['waitForJob', 'job_1', { estimatedSeconds: 7, signal }],
      ['downloadDocument', { jobId: 'job_1', format: 'json' }, { signal }],
    ]);
  });

  it('tells onAccepted of the admitted job between the submit and the wait, and keeps it out of the wait', async () => {
    for (const submit of ['generateDocument', 'mapDocument'] as const) {
      const { api, calls } = recordingApi(REPORT);
      const onAccepted = (accepted: unknown) => calls.push(['accepted', accepted, undefined]);
      if (submit === 'generateDocument') await generateAndDownload(api, { framework: 'soc2' } as never, { onAccepted });
      else await mapAndDownload(api, { framework: 'soc2', content: 'x' } as never, { onAccepted });
      expect(calls.slice(0, 3)).toEqual([
        [submit, expect.anything(), { signal: undefined }],
        ['accepted', { jobId: 'job_1', estimatedSeconds: 7 }, undefined],
        ['waitForJob', 'job_1', { estimatedSeconds: 7 }],
      ]);
    }
  });

  it('does not tell onAccepted of a submit the service refused', async () => {
    const { api } = recordingApi(REPORT);
    const refused = new Error('refused');
    const accepted: unknown[] = [];
    const failing = { ...api, mapDocument: () => Promise.reject(refused), generateDocument: () => Promise.reject(refused) };
    await expect(mapAndDownload(failing, { framework: 'soc2', content: 'x' } as never, { onAccepted: (job) => accepted.push(job) })).rejects.toBe(refused);
    await expect(generateAndDownload(failing, { framework: 'soc2' } as never, { onAccepted: (job) => accepted.push(job) })).rejects.toBe(refused);
    expect(accepted).toEqual([]);
  });

  it('downloadMappingReport refuses a report that is not JSON, and names downloadDocument for a malformed one', async () => {
    const text: Download = { kind: 'text', text: '# report', contentType: 'text/markdown', filename: 'r.md' };
    await expect(downloadMappingReport(recordingApi(text).api, 'job_1')).rejects.toMatchObject({
      code: 'unexpected_response',
      operationId: 'downloadDocument',
      message: 'downloadDocument: the mapping report of job job_1 did not come back as JSON',
      hint: 'Report it with the job id.',
    });
    const malformed: Download = { ...REPORT, data: { nothing: true } };
    await expect(downloadMappingReport(recordingApi(malformed).api, 'job_1')).rejects.toMatchObject({
      operationId: 'downloadDocument',
      message: expect.stringMatching(/^downloadDocument: unexpected response: no coverage percentage/),
    });
  });
});
