/** Job waiting, the polling schedule, abort, the one-call helpers, downloads and multipart uploads. */
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceJobError, ComplianceJobTimeoutError } from '../../api/errors.js';
import { filenameFromContentDisposition } from '../../api/download.js';
import { pollDelayMs } from '../../api/jobs.js';
import { FakeTime, JOB_ACCEPTED, JOB_ID, MockService, makeClient } from './helpers.js';

let service: MockService | undefined;
afterEach(async () => {
  service?.assertNoPendingInterceptors();
  await service?.close();
  service = undefined;
});

const status = (state: string, extra: Record<string, unknown> = {}) => ({ jobId: JOB_ID, status: state, ...extra });

describe('the polling schedule', () => {
  const plan = (estimateS: number, untilDueS: number, overduePolls = 0) => pollDelayMs({ estimateMs: estimateS * 1000, untilDueMs: untilDueS * 1000, overduePolls });

  it('aims at the expected end, in waits of at most half the estimate', () => {
    expect([plan(300, 300), plan(300, 150), plan(300, 40)]).toEqual([150_000, 150_000, 40_000]);
  });

  it('past the expected end starts at a tenth of the estimate, growing by half up to a fifth (at least 30 s)', () => {
    expect([0, 1, 2, 3].map((k) => plan(300, 0, k))).toEqual([30_000, 45_000, 60_000, 60_000]);
    expect([0, 1, 5, 9].map((k) => plan(60, -5, k))).toEqual([6_000, 9_000, 30_000, 30_000]);
  });

  it('never waits less than 1 s', () => {
    expect([plan(2, 0.3), plan(2, 0), plan(0.5, 0)]).toEqual([1_000, 1_000, 1_000]);
  });
});

describe('waitForJob', () => {
  it('polls on the schedule until completed, reporting progress', async () => {
    service = new MockService()
      .reply(200, status('queued'))
      .reply(200, status('running', { progress: 40 }))
      .reply(200, status('completed', { progress: 1 }));
    const time = new FakeTime();
    const seen: string[] = [];
    const job = await makeClient(service, time).waitForJob(JOB_ID, {
      estimatedSeconds: 20,
      onProgress: (update) => seen.push(`${update.status}:${update.progress ?? '-'}`),
    });
    expect(job.status).toBe('completed');
    expect(seen).toEqual(['queued:-', 'running:0.4', 'completed:1']);
    // Half the 20 s estimate, then the rest of it.
    expect(time.sleeps).toEqual([10_000, 10_000]);
    expect(service.received.every((request) => request.path === `/api/public/v1/jobs/${JOB_ID}`)).toBe(true);
  });

  it('rejects with ComplianceJobError carrying the reason, wherever the service puts it', async () => {
    service = new MockService().reply(200, status('failed', { failureReason: 'The framework has no verified control set' }));
    const error = await makeClient(service, new FakeTime()).waitForJob(JOB_ID).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComplianceJobError);
    expect(error).toMatchObject({ code: 'job_failed', jobId: JOB_ID });
    expect((error as Error).message).toBe(`job ${JOB_ID} failed: The framework has no verified control set`);
    expect((error as ComplianceJobError).hint).toBe('Fix the input named in the reason and submit a new job; quote the job id in support requests.');
  });

  it('mentions the automatic refund when a library job fails', async () => {
    service = new MockService().reply(200, status('failed', { kind: 'library_ingest', error: { code: 'classification_failed', message: 'Could not classify' } }));
    const error = (await makeClient(service, new FakeTime()).waitForJob(JOB_ID).catch((caught: unknown) => caught)) as ComplianceJobError;
    expect(error.message).toBe(`job ${JOB_ID} (library_ingest) failed: Could not classify [classification_failed]`);
    const REFUNDED = 'The charge for a library job that fails after admission is refunded automatically; fix the input and submit it again.';
    expect(error.hint).toBe(REFUNDED);
    // A refresh is refunded too; a generation is not, and a reason without a code says none.
    for (const [kind, hint] of [['library_refresh', REFUNDED], ['generation', expect.stringMatching(/^Fix the input/)]] as const) {
      await service.close();
      service = new MockService().reply(200, status('failed', { kind, error: { message: 'Broken' } }));
      const failed = (await makeClient(service, new FakeTime()).waitForJob(JOB_ID).catch((caught: unknown) => caught)) as ComplianceJobError;
      expect({ message: failed.message, hint: failed.hint }).toEqual({ message: `job ${JOB_ID} (${kind}) failed: Broken`, hint });
    }
  });

  it('gives up at timeoutMs with job_timeout and the last status', async () => {
    service = new MockService().reply(200, status('running')).reply(200, status('running')).reply(200, status('running'));
    const time = new FakeTime();
    const error = await makeClient(service, time).waitForJob(JOB_ID, { timeoutMs: 7_000, estimatedSeconds: 10 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ComplianceJobTimeoutError);
    expect(error).toMatchObject({
      code: 'job_timeout',
      jobId: JOB_ID,
      job: { status: 'running' },
      message: `job ${JOB_ID} did not finish within 7 s (last status: running)`,
      hint: `The job continues on the service: wait again with waitForJob("${JOB_ID}") or a longer timeoutMs, then download it.`,
    });
    // 5 s (half the estimate), then only the 2 s left until the deadline, then one last poll.
    expect(time.sleeps).toEqual([5_000, 2_000]);
  });

  it("follows the time left that each status reports", async () => {
    service = new MockService()
      .reply(200, status('queued', { estimatedSeconds: 100 }))
      .reply(200, status('running', { estimatedSeconds: 70 }))
      .reply(200, status('running', { estimatedSeconds: 20 }))
      .reply(200, status('running'))
      .reply(200, status('completed'));
    const time = new FakeTime();
    await makeClient(service, time).waitForJob(JOB_ID, { estimatedSeconds: 60 });
    // The job needs 100 s, not 60: waits of at most 30 s (half the estimate) toward 100 s; at 60 s
    // it has 20 s left, so 20 s; then it is late: a tenth of the 60 s estimate.
    expect(time.sleeps).toEqual([30_000, 30_000, 20_000, 6_000]);
  });

  it('stops when the signal aborts mid-wait', async () => {
    service = new MockService().reply(200, status('running'));
    const controller = new AbortController();
    const time = new FakeTime();
    const client = makeClient(service, time, {
      sleep: async (ms, signal) => {
        controller.abort();
        await time.sleep(ms, signal);
      },
    });
    await expect(client.waitForJob(JOB_ID, { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(service.received).toHaveLength(1);
  });

  it('does not poll at all with an already aborted signal', async () => {
    service = new MockService();
    const controller = new AbortController();
    controller.abort();
    await expect(makeClient(service, new FakeTime()).waitForJob(JOB_ID, { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(service.attempts).toHaveLength(0);
  });
});

describe('downloads', () => {
  it('pdf comes back as bytes with content type and the filename from Content-Disposition', async () => {
    const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31, 0x2e, 0x37, 0x0a, 0xff, 0x00]);
    service = new MockService().reply(200, pdf, { 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="ISO 27001 policy.pdf"' });
    const download = await makeClient(service, new FakeTime()).downloadDocument({ jobId: JOB_ID, format: 'pdf' });
    expect(download).toEqual({ kind: 'binary', data: pdf, contentType: 'application/pdf', filename: 'ISO 27001 policy.pdf' });
    expect(service.received[0]!.path).toBe(`/api/public/v1/documents/${JOB_ID}?format=pdf`);
    expect(service.received[0]!.headers.accept).toContain('application/pdf');
  });

  it('docx without Content-Disposition is named <jobId>.docx', async () => {
    service = new MockService().reply(200, new Uint8Array([0x50, 0x4b, 3, 4]), { 'content-type': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    const download = await makeClient(service, new FakeTime()).downloadDocument({ jobId: JOB_ID, format: 'docx' });
    expect(download).toMatchObject({ kind: 'binary', filename: `${JOB_ID}.docx` });
  });

  it('json is parsed (the default format)', async () => {
    service = new MockService().reply(200, { jobId: JOB_ID, title: 'Policy', sections: [] });
    const download = await makeClient(service, new FakeTime()).downloadDocument({ jobId: JOB_ID });
    expect(download).toMatchObject({ kind: 'json', data: { title: 'Policy' }, filename: `${JOB_ID}.json` });
    expect(service.received[0]!.path).toBe(`/api/public/v1/documents/${JOB_ID}`);
  });

  it('refuses a json download that is not an object, saying what to do instead', async () => {
    service = new MockService().reply(200, [{ title: 'Policy' }], { 'x-request-id': 'req_list' });
    await expect(makeClient(service, new FakeTime()).downloadDocument({ jobId: JOB_ID })).rejects.toMatchObject({
      code: 'unexpected_response',
      status: 200,
      operationId: 'downloadDocument',
      message: 'downloadDocument: the json download is not an object',
      hint: 'Download the md format instead, or report it with the request id.',
      requestId: 'req_list',
    });
  });

  it.each([
    // A malformed extended value falls back to the plain filename.
    [`attachment; filename*=UTF-8''%E0%A4%A.md; filename="fallback.md"`, 'fallback.md'],
    [`attachment; filename*=UTF-8''R%C3%A9sum%C3%A9.md; filename="fallback.md"`, 'Résumé.md'],
    ['attachment; filename="../../etc/passwd"', 'passwd'],
    ['attachment; filename=plain.pdf', 'plain.pdf'],
    // A quoted extended value loses its quotes, only the outer ones.
    [`attachment; filename*=UTF-8''"quoted.md" ; size=3`, 'quoted.md'],
    [`attachment; filename*=UTF-8''"a"b.md"`, 'a"b.md'],
    ['attachment; filename=".."', undefined],
    ['inline', undefined],
  ])('Content-Disposition %s → %s', (header, expected) => {
    expect(filenameFromContentDisposition(header)).toBe(expected);
  });
});

describe('submit, wait and download in one call', () => {
  it('generateAndDownload', async () => {
    service = new MockService()
      .reply(202, JOB_ACCEPTED)
      .reply(200, status('completed'))
      .reply(200, '# ISO 27001 policy\n', { 'content-type': 'text/markdown' });
    const { job, download } = await makeClient(service, new FakeTime()).generateAndDownload({ framework: 'ISO 27001' }, { format: 'md' });
    expect(job.status).toBe('completed');
    expect(download).toMatchObject({ kind: 'text', text: '# ISO 27001 policy\n' });
    expect(service.received.map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /api/public/v1/documents/generate',
      `GET /api/public/v1/jobs/${JOB_ID}`,
      `GET /api/public/v1/documents/${JOB_ID}?format=md`,
    ]);
  });

  it('mapAndDownload returns the normalised report', async () => {
    service = new MockService()
      .reply(202, JOB_ACCEPTED)
      .reply(200, status('running'))
      .reply(200, status('completed'))
      .reply(200, {
        framework: { name: 'NIST CSF 2.0' },
        coveragePercent: 62.5,
        controls: [
          { controlId: 'PR.AA-01', name: 'Identities', status: 'met', evidence: ['We use SSO'] },
          { controlId: 'PR.DS-01', name: 'Data at rest', status: 'not_covered', evidence: [] },
        ],
      });
    const time = new FakeTime();
    const { report } = await makeClient(service, time).mapAndDownload({ framework: 'nist-csf-2', content: 'We use SSO.' });
    expect(time.sleeps).toEqual([4_000]); // half the 8 s estimate
    expect(report.coverage).toBe(62.5);
    expect(report.controls.map((control) => `${control.id}:${control.status}`)).toEqual(['PR.AA-01:covered', 'PR.DS-01:missing']);
    expect(report.gaps).toEqual([{ controlId: 'PR.DS-01', title: 'Data at rest', status: 'missing', missing: '', recommendation: '' }]);
  });
});

describe('mapping uploads (multipart)', () => {
  it('sends framework, title and the file part with filename and content type', async () => {
    service = new MockService().reply(202, JOB_ACCEPTED);
    const bytes = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0xff]);
    await makeClient(service, new FakeTime()).mapDocument({
      framework: 'nist-csf-2',
      title: 'Policies "2026"',
      file: { data: bytes, filename: 'policies.docx' },
    });
    const [request] = service.received;
    const contentType = request!.headers['content-type']!;
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(contentType)![1]!;
    expect(request!.body).toBe(
      `--${boundary}\r\nContent-Disposition: form-data; name="framework"\r\n\r\nnist-csf-2\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nPolicies "2026"\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="policies.docx"\r\n` +
        'Content-Type: application/vnd.openxmlformats-officedocument.wordprocessingml.document\r\n\r\n' +
        Buffer.from(bytes).toString('latin1') +
        `\r\n--${boundary}--\r\n`,
    );
  });

  it('accepts a Blob (such as fs.openAsBlob) and an ArrayBuffer', async () => {
    service = new MockService().reply(202, JOB_ACCEPTED).reply(202, JOB_ACCEPTED);
    const client = makeClient(service, new FakeTime());
    await client.mapDocument({ framework: 'nist-csf-2', file: { data: new Blob(['a,b\n1,2\n']), filename: 'controls.csv' } });
    await client.mapDocument({ framework: 'nist-csf-2', file: { data: new TextEncoder().encode('# Policy').buffer, filename: 'policy.md' } });
    expect(service.received[0]!.body).toContain('filename="controls.csv"\r\nContent-Type: text/csv; charset=utf-8\r\n\r\na,b\n1,2\n\r\n');
    expect(service.received[1]!.body).toContain('filename="policy.md"\r\nContent-Type: text/markdown; charset=utf-8\r\n\r\n# Policy\r\n');
  });
});
