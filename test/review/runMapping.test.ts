/**
 * review/mapping.ts's runMapping against the in-process sandbox with a recording client: what each
 * mode sends (one policy set, or one upload per file), under which title and source, and that the
 * caller's signal and progress reach every call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { combineReports, runMapping } from '../../review/index.js';
import { faultyClient, isMapUpload, jobNotFoundAnswer, LIVE_KEY, POLICY_PAIR, recordingClient, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { report } from './fixtures.js';

const files = [...POLICY_PAIR];

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000, faults: true });
});
afterAll(async () => {
  await box?.close();
});

type Sent = { framework: string; content: string; title: string };
const sent = (calls: ReturnType<typeof recordingClient>['calls']) => calls.filter((call) => call.method === 'mapAndDownload').map((call) => call.args[0] as Sent);

describe('runMapping', () => {
  it('tells each upload’s charge as it ends: charged once its job completed, maybe when it was admitted and its job then could not be read', async () => {
    let uploads = 0;
    // The second upload is admitted; then every read of its job answers 404 (a fault the sandbox does not make for a job it holds).
    const client = faultyClient(box, LIVE_KEY, (request, send) => {
      if (isMapUpload(request)) uploads += 1;
      return uploads === 2 && request.method === 'GET' && new URL(request.url).pathname.includes('/jobs/') ? Promise.resolve(jobNotFoundAnswer()) : send(request);
    });
    const told: unknown[] = [];
    await expect(runMapping(client, { framework: 'hipaa-security', files, mode: 'per-document', concurrency: 1, onUploadSettled: (upload) => told.push(upload) })).rejects.toMatchObject({ code: 'job_not_found' });
    expect(told).toEqual([{ source: 'policies/access.md', charge: 'charged' }, { source: 'policies/backup.md', charge: 'maybe' }]);
  });

  it('rejects as aborted when an abort stops the uploads between two documents, rather than answer for the documents mapped so far', async () => {
    const controller = new AbortController();
    const { client, calls } = recordingClient(box, LIVE_KEY);
    const told: unknown[] = [];
    const upload = { framework: 'hipaa-security', files, mode: 'per-document', concurrency: 1, signal: controller.signal } as const;
    await expect(runMapping(client, { ...upload, onUploadSettled: (settled) => (told.push(settled), controller.abort()) })).rejects.toMatchObject({ code: 'aborted', message: 'mapDocument: aborted by the caller' });
    expect([sent(calls).map((entry) => entry.title), told]).toEqual([['policies/access.md'], [{ source: 'policies/access.md', charge: 'charged' }]]);
    // Aborted before the first upload: nothing sent, and no mapping either.
    const none = recordingClient(box, LIVE_KEY);
    await expect(runMapping(none.client, { ...upload, files: files.slice(0, 1) })).rejects.toMatchObject({ code: 'aborted' });
    expect(sent(none.calls)).toEqual([]);
  });

  it('rejects with the service’s error when nobody listens for the charges', async () => {
    // The sandbox's own fault: a 500 before processing (nothing admitted, but the client cannot know that).
    const client = faultyClient(box, LIVE_KEY, (request, send) => send(isMapUpload(request) ? { ...request, headers: { ...request.headers, 'x-sandbox-fault': '500' } } : request));
    await expect(runMapping(client, { framework: 'hipaa-security', files, mode: 'combined' })).rejects.toMatchObject({ code: 'outcome_unknown', status: 500 });
  });

  it('combined: sends the files as one policy set, each under its header, titled by their count', async () => {
    const { client, calls } = recordingClient(box, LIVE_KEY);
    const run = await runMapping(client, { framework: 'hipaa-security', files, mode: 'combined' });
    const [set] = sent(calls);
    expect(set?.title).toBe('Policy set (2 documents)');
    expect(set?.content.startsWith('=== FILE: policies/access.md ===\n')).toBe(true);
    // A blank line parts one file from the next header.
    expect(set?.content).toContain('\n\n=== FILE: policies/backup.md ===\n');
    expect(run.mode).toBe('combined');
    expect(run.reports.map((entry) => entry.source)).toEqual(['combined']);
    expect(run.reports[0]?.jobId).toMatch(/\S/);

    const one = recordingClient(box, LIVE_KEY);
    await runMapping(one.client, { framework: 'hipaa-security', files: files.slice(0, 1), mode: 'combined' });
    expect(sent(one.calls)[0]?.title).toBe('Policy set (1 document)');
    const titled = recordingClient(box, LIVE_KEY);
    await runMapping(titled.client, { framework: 'hipaa-security', files, mode: 'combined', title: 'Our policies' });
    expect(sent(titled.calls)[0]?.title).toBe('Our policies');
  });

  it('per document: one upload per file, titled and sourced by its path', async () => {
    const { client, calls } = recordingClient(box, LIVE_KEY);
    const run = await runMapping(client, { framework: 'hipaa-security', files, mode: 'per-document', concurrency: 1 });
    expect(sent(calls).map((entry) => entry.title)).toEqual(['policies/access.md', 'policies/backup.md']);
    expect(sent(calls).every((entry) => !entry.content.includes('=== FILE:'))).toBe(true);
    expect(run.mode).toBe('per-document');
    expect(run.reports.map((entry) => entry.source)).toEqual(['policies/access.md', 'policies/backup.md']);
  });

  it('passes the caller’s signal to each call and its job progress to the caller, naming the source', async () => {
    const { client, calls } = recordingClient(box, LIVE_KEY);
    const { signal } = new AbortController();
    const progress: Array<{ source: string; status: string }> = [];
    await runMapping(client, { framework: 'hipaa-security', files, mode: 'per-document', concurrency: 1, signal, onProgress: (event) => progress.push({ source: event.source, status: event.job.status }) });
    expect(calls.map((call) => (call.args[1] as { signal?: AbortSignal }).signal)).toEqual([signal, signal]);
    expect(new Set(progress.map((event) => event.source))).toEqual(new Set(['policies/access.md', 'policies/backup.md']));
    expect(progress.at(-1)?.status).toBe('completed');
  });
});

describe('combineReports, a gap of no listed control', () => {
  it('keeps the gap', () => {
    const gap = { controlId: 'Z', title: 'Z', status: 'missing' as const, missing: 'all of it', recommendation: '' };
    const merged = combineReports([
      { source: 'policies/a.md', jobId: 'j1', report: report({}, { controls: [], gaps: [gap], jobId: 'j1' }) },
      { source: 'policies/b.md', jobId: 'j2', report: report({}, { controls: [], gaps: [], jobId: 'j2' }) },
    ]);
    expect(merged.gaps.map((entry) => entry.controlId)).toEqual(['Z']);
  });
});
