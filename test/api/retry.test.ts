/** The retry matrix per retry class, delays, the deadline, and the ingest replay. */
import { errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../api/errors.js';
import { operations } from '../../api/operations.js';
import type { RetryNotice } from '../../api/clientTypes.js';
import { backoffDelayMs, DEFAULT_RETRY_SETTINGS, retryNoticeText, retryVerdict, type FailureKind } from '../../api/retry.js';
import { FakeTime, JOB_ACCEPTED, JOB_ID, LIBRARY_TEXT, MockService, makeClient, systemError } from './helpers.js';

let service: MockService | undefined;
afterEach(async () => {
  service?.assertNoPendingInterceptors();
  await service?.close();
  service = undefined;
});

const SERVER_ERROR = { error: { code: 'internal_error', message: 'Something broke', hint: 'Retry with backoff.', requestId: 'req_5xx' } };
const RATE_LIMITED = { error: { code: 'rate_limited', message: 'Too many requests', hint: 'Retry after 3 seconds', requestId: 'req_429' } };
const MAP_INPUT = { framework: 'nist-csf-2', content: 'We encrypt data at rest.' };
const INGEST_INPUT = { title: 'Access policy', content: LIBRARY_TEXT };

async function rejection(promise: Promise<unknown>): Promise<ComplianceApiError> {
  const error = await promise.then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ComplianceApiError);
  return error as ComplianceApiError;
}

describe('the retry matrix (unit)', () => {
  const kinds: FailureKind[] = ['rate_limited', 'server_error', 'not_sent', 'maybe_sent', 'aborted', 'final'];
  it.each([
    ['safe', ['retry', 'retry', 'retry', 'retry', 'give_up', 'give_up']],
    ['replayable', ['retry', 'retry', 'retry', 'retry', 'give_up', 'give_up']],
    ['charged', ['retry', 'ambiguous', 'retry', 'ambiguous', 'give_up', 'give_up']],
  ] as const)('%s', (retryClass, verdicts) => {
    expect(kinds.map((kind) => retryVerdict(retryClass, kind))).toEqual(verdicts);
  });

  it('backoff is full jitter under an exponential ceiling', () => {
    expect(backoffDelayMs(1, DEFAULT_RETRY_SETTINGS, () => 0)).toBe(0);
    expect(backoffDelayMs(1, DEFAULT_RETRY_SETTINGS, () => 0.5)).toBe(250);
    expect(backoffDelayMs(3, DEFAULT_RETRY_SETTINGS, () => 0.5)).toBe(1000);
    expect(backoffDelayMs(20, DEFAULT_RETRY_SETTINGS, () => 0.999)).toBe(Math.floor(0.999 * DEFAULT_RETRY_SETTINGS.maxDelayMs));
  });

  it('the operation table gives each charged operation the right class', () => {
    expect(operations.mapDocument.retry).toBe('charged');
    expect(operations.refreshLibraryDocument.retry).toBe('charged');
    expect(operations.ingestLibraryDocument.retry).toBe('replayable');
    expect(operations.getUsage.retry).toBe('safe');
  });
});

describe('safe operations', () => {
  it('retry 5xx with backoff until success', async () => {
    service = new MockService().reply(503, SERVER_ERROR).reply(502, 'Bad gateway', { 'content-type': 'text/html' }).reply(500, SERVER_ERROR).reply(200, { mode: 'live' });
    const time = new FakeTime();
    const usage = await makeClient(service, time).getUsage();
    expect(usage.mode).toBe('live');
    expect(service.received).toHaveLength(4);
    expect(time.sleeps).toEqual([250, 500, 1000]);
  });

  it('give up after maxRetries with the last error', async () => {
    service = new MockService().reply(500, SERVER_ERROR).reply(500, SERVER_ERROR).reply(500, SERVER_ERROR);
    const error = await rejection(makeClient(service, new FakeTime(), { maxRetries: 2 }).getUsage());
    expect(error).toMatchObject({ status: 500, code: 'internal_error' });
    expect(service.received).toHaveLength(3);
  });

  it('retry network errors and timeouts', async () => {
    service = new MockService()
      .fail(systemError('ECONNREFUSED'))
      .fail(new undiciErrors.SocketError('other side closed'))
      .fail(new undiciErrors.HeadersTimeoutError())
      .reply(200, { enabled: false });
    expect(await makeClient(service, new FakeTime()).getAutoTopUp()).toEqual({ enabled: false });
    expect(service.attempts).toHaveLength(4);
  });

  it('do not retry a 4xx other than 429', async () => {
    service = new MockService().reply(404, { error: { code: 'job_not_found', message: 'No such job', hint: '', requestId: 'r' } });
    await rejection(makeClient(service, new FakeTime()).getJob({ jobId: JOB_ID }));
    expect(service.received).toHaveLength(1);
  });

  it('honour Retry-After as seconds and as an HTTP date, and a delay in the hint', async () => {
    const time = new FakeTime(Date.UTC(2026, 0, 1, 12, 0, 0));
    service = new MockService()
      .reply(429, RATE_LIMITED, { 'retry-after': '2' })
      .reply(503, SERVER_ERROR, { 'retry-after': 'Thu, 01 Jan 2026 12:00:09 GMT' })
      .reply(429, { error: { ...RATE_LIMITED.error, hint: 'retry in 12 s' } })
      .reply(200, { cadence: 'none' });
    await makeClient(service, time).getCalendar();
    // 2 s; then the date is 7 s after the clock (12:00:02); then the hint's 12 s.
    expect(time.sleeps).toEqual([2_000, 7_000, 12_000]);
  });

  it('wait out 429s past maxRetries (nothing was admitted); only the deadline bounds them', async () => {
    service = new MockService()
      .reply(429, RATE_LIMITED, { 'retry-after': '50' })
      .reply(429, RATE_LIMITED, { 'retry-after': '55' })
      .reply(500, SERVER_ERROR)
      .reply(429, RATE_LIMITED, { 'retry-after': '0' })
      .reply(200, { mode: 'live' });
    const time = new FakeTime();
    expect((await makeClient(service, time, { maxRetries: 1, maxElapsedMs: 600_000 }).getUsage()).mode).toBe('live');
    // Two 429s and a third asking for no delay (held to 1 s) cost no retry; the 500 used the one allowed.
    expect(time.sleeps).toEqual([50_000, 55_000, 250, 1_000]);
    expect(service.received).toHaveLength(5);
  });

  it('tells onRetry before each wait, and the notice reads as a log line', async () => {
    service = new MockService().reply(429, RATE_LIMITED, { 'retry-after': '58' }).reply(503, SERVER_ERROR).reply(200, { mode: 'live' });
    const notices: RetryNotice[] = [];
    await makeClient(service, new FakeTime(), { onRetry: (notice) => notices.push(notice) }).getUsage();
    expect(notices).toEqual([
      { operationId: 'getUsage', attempt: 1, delayMs: 58_000, status: 429, code: 'rate_limited' },
      { operationId: 'getUsage', attempt: 2, delayMs: 250, status: 503, code: 'internal_error' },
    ]);
    expect(notices.map(retryNoticeText)).toEqual([
      'getUsage: HTTP 429 rate_limited; trying again in 58 s',
      'getUsage: HTTP 503 internal_error; trying again in 1 s',
    ]);
    // A code that is not a plain identifier (the service's text) is not repeated.
    expect(retryNoticeText({ operationId: 'ping', attempt: 1, delayMs: 1_500, status: undefined, code: '::error::x' })).toBe('ping: error; trying again in 2 s');
  });

  it('maxRetries 0 turns retrying off, 429s included', async () => {
    service = new MockService().reply(429, RATE_LIMITED, { 'retry-after': '5' });
    const time = new FakeTime();
    expect(await rejection(makeClient(service, time, { maxRetries: 0 }).getUsage())).toMatchObject({ status: 429 });
    expect(time.sleeps).toEqual([]);
  });

  it('a second failure other than a 429 still ends at maxRetries', async () => {
    service = new MockService().reply(500, SERVER_ERROR).reply(429, RATE_LIMITED, { 'retry-after': '5' }).reply(503, SERVER_ERROR);
    const error = await rejection(makeClient(service, new FakeTime(), { maxRetries: 1 }).getUsage());
    expect(error).toMatchObject({ status: 503 });
    expect(service.received).toHaveLength(3);
  });

  it('stop at the overall deadline rather than sleeping past it', async () => {
    service = new MockService().reply(429, RATE_LIMITED, { 'retry-after': '30' });
    const time = new FakeTime();
    const error = await rejection(makeClient(service, time, { maxElapsedMs: 10_000 }).getBilling());
    expect(error).toMatchObject({ status: 429, retryAfterMs: 30_000 });
    expect(time.sleeps).toEqual([]);
  });

  it('count backoff against the deadline', async () => {
    service = new MockService().reply(500, SERVER_ERROR).reply(500, SERVER_ERROR).reply(500, SERVER_ERROR);
    const time = new FakeTime();
    await rejection(makeClient(service, time, { maxElapsedMs: 1_000 }).getUsage());
    // 250 + 500 = 750 ms elapsed; the third backoff (1000 ms) would end past 1 s.
    expect(time.sleeps).toEqual([250, 500]);
    expect(service.received).toHaveLength(3);
  });

  it('stop backing off when the signal aborts', async () => {
    service = new MockService().reply(500, SERVER_ERROR);
    const controller = new AbortController();
    const time = new FakeTime();
    const client = makeClient(service, time, {
      sleep: async (ms, signal) => {
        controller.abort(new Error('user pressed stop'));
        await time.sleep(ms, signal);
      },
    });
    await expect(client.getUsage(undefined, { signal: controller.signal })).rejects.toMatchObject({ code: 'aborted' });
    expect(service.received).toHaveLength(1);
  });
});

describe('charged operations are never sent twice after an ambiguous failure', () => {
  it('a mapping POST answered 500 is sent exactly once; the error says to check the ledger', async () => {
    service = new MockService().reply(500, SERVER_ERROR);
    const time = new FakeTime();
    const error = await rejection(makeClient(service, time).mapDocument(MAP_INPUT));
    expect(service.attempts).toHaveLength(1);
    expect(time.sleeps).toEqual([]);
    expect(error).toMatchObject({ code: 'outcome_unknown', status: 500, requestId: 'req_5xx', details: { serviceCode: 'internal_error' } });
    expect(error.hint).toMatch(/ledger/);
    expect(error.cause).toBeInstanceOf(ComplianceApiError);
  });

  it.each([
    ['a timeout', () => new undiciErrors.HeadersTimeoutError()],
    ['a reset after sending', () => new undiciErrors.SocketError('other side closed')],
    ['a body timeout', () => new undiciErrors.BodyTimeoutError()],
  ])('%s on search is not re-sent', async (_, makeError) => {
    service = new MockService().fail(makeError());
    const error = await rejection(makeClient(service, new FakeTime()).searchLibrary({ query: 'encryption' }));
    expect(service.attempts).toHaveLength(1);
    expect(error.code).toBe('outcome_unknown');
    expect(error.hint).toMatch(/ledger/);
  });

  it('a refresh answered 502 tells to compare the version with getLibraryDocument', async () => {
    service = new MockService().reply(502, '<h1>502</h1>', { 'content-type': 'text/html' });
    const error = await rejection(makeClient(service, new FakeTime()).refreshLibraryDocument({ id: 'doc_1', content: LIBRARY_TEXT }));
    expect(service.attempts).toHaveLength(1);
    expect(error.code).toBe('outcome_unknown');
    expect(error.hint).toMatch(/getLibraryDocument/);
    expect(error.hint).toMatch(/version/);
  });

  it('a 429 is retried after the asked delay (nothing was admitted)', async () => {
    service = new MockService().reply(429, RATE_LIMITED).reply(202, JOB_ACCEPTED);
    const time = new FakeTime();
    expect((await makeClient(service, time).generateDocument({ framework: 'ISO 27001' })).jobId).toBe(JOB_ID);
    expect(service.received).toHaveLength(2);
    expect(time.sleeps).toEqual([3_000]);
  });

  it('a connection refused before sending is retried', async () => {
    service = new MockService().fail(systemError('ECONNREFUSED')).fail(systemError('ENOTFOUND')).reply(202, JOB_ACCEPTED);
    await makeClient(service, new FakeTime()).mapDocument(MAP_INPUT);
    expect(service.attempts).toHaveLength(3);
    expect(service.received).toHaveLength(1);
  });
});

describe('library ingest (replayable)', () => {
  const duplicate = (extra: Record<string, unknown>) => ({
    error: { code: 'duplicate_document', message: 'Same content already present', hint: 'Use refresh instead.', requestId: 'req_dup', ...extra },
  });

  it('retries a 5xx like a safe operation', async () => {
    service = new MockService().reply(503, SERVER_ERROR).reply(202, { ...JOB_ACCEPTED, documentId: 'doc_1' });
    expect(await makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT)).toMatchObject({ documentId: 'doc_1' });
    expect(service.received).toHaveLength(2);
  });

  it('a duplicate_document answer to a replay resolves to the document the first attempt created', async () => {
    service = new MockService()
      .fail(new undiciErrors.HeadersTimeoutError())
      .reply(409, duplicate({ documentId: 'doc_7', jobId: JOB_ID }))
      .reply(200, { jobId: JOB_ID, status: 'running', kind: 'library_ingest', estimatedSeconds: 4 });
    const accepted = await makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT);
    expect(accepted).toMatchObject({ jobId: JOB_ID, documentId: 'doc_7', status: 'running', poll: `/jobs/${JOB_ID}`, estimatedSeconds: 4, replayed: true });
    expect(service.attempts.map((attempt) => `${attempt.method} ${new URL(attempt.url).pathname}`)).toEqual([
      'POST /api/public/v1/library/documents',
      'POST /api/public/v1/library/documents',
      `GET /api/public/v1/jobs/${JOB_ID}`,
    ]);
  });

  it('without a jobId in the envelope, explains where the document is instead of guessing', async () => {
    service = new MockService().reply(500, SERVER_ERROR).reply(409, duplicate({ documentId: 'doc_7' }));
    const error = await rejection(makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT));
    expect(error.code).toBe('duplicate_document');
    expect(error.hint).toContain('getLibraryDocument({ id: "doc_7" })');
    expect(error.details).toMatchObject({ documentId: 'doc_7', replay: true });
  });

  it('without any usable id, says so and points at the listing; an empty id is no id', async () => {
    service = new MockService().reply(500, SERVER_ERROR).reply(409, duplicate({ documentId: '', jobId: '' }));
    const error = await rejection(makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT));
    expect(error).toMatchObject({
      code: 'duplicate_document',
      status: 409,
      requestId: 'req_dup',
      message: 'ingestLibraryDocument: a retried ingest was answered duplicate_document; an earlier attempt most likely created it',
      hint: 'Do not ingest again: find the document in listLibrary (same title and content hash).',
    });
    service = new MockService().reply(500, SERVER_ERROR).reply(409, duplicate({ documentId: 'doc_7', jobId: 7 }));
    expect(await rejection(makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT))).toMatchObject({
      message: 'ingestLibraryDocument: a retried ingest was answered duplicate_document for document doc_7; an earlier attempt most likely created it',
      hint: 'Do not ingest again: read it with getLibraryDocument({ id: "doc_7" }).',
    });
  });

  it('a job status it cannot read is left out: the answer is the accepted job, queued, with the document the job names', async () => {
    service = new MockService()
      .reply(500, SERVER_ERROR)
      .reply(409, duplicate({ jobId: JOB_ID }))
      .reply(404, { error: { code: 'job_not_found', message: 'No such job', hint: 'Check the id.', requestId: 'req_404' } });
    expect(await makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT)).toEqual({
      jobId: JOB_ID,
      status: 'queued',
      poll: `/jobs/${JOB_ID}`,
      estimatedSeconds: 0,
      kind: 'library_ingest',
      replayed: true,
    });
    service = new MockService()
      .reply(500, SERVER_ERROR)
      .reply(409, duplicate({ jobId: JOB_ID }))
      .reply(200, { jobId: JOB_ID, status: 'completed', kind: 'library_ingest', documentId: 'doc_9' });
    expect(await makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT)).toMatchObject({ status: 'completed', documentId: 'doc_9', estimatedSeconds: 0 });
  });

  it('cancelled while reading the job status, the cancellation is the answer', async () => {
    const controller = new AbortController();
    service = new MockService().reply(500, SERVER_ERROR).reply(409, duplicate({ jobId: JOB_ID }));
    const transport = service.transport();
    const client = makeClient(service, new FakeTime(), {
      transport: async (request) => {
        const response = await transport(request);
        if (response.status === 409) controller.abort();
        return response;
      },
    });
    await expect(client.ingestLibraryDocument(INGEST_INPUT, { signal: controller.signal })).rejects.toMatchObject({ name: 'ComplianceError', code: 'aborted', operationId: 'getJob' });
    expect(service.attempts).toHaveLength(2);
  });

  it('a duplicate on the first attempt is a real duplicate', async () => {
    service = new MockService().reply(409, duplicate({ documentId: 'doc_7', jobId: JOB_ID }));
    const error = await rejection(makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT));
    expect(error).toMatchObject({ code: 'duplicate_document', message: 'ingestLibraryDocument: Same content already present' });
    expect(service.attempts).toHaveLength(1);
  });

  it('a duplicate after a 429 (nothing admitted) is a real duplicate too', async () => {
    service = new MockService().reply(429, RATE_LIMITED).reply(409, duplicate({ documentId: 'doc_7', jobId: JOB_ID }));
    const error = await rejection(makeClient(service, new FakeTime()).ingestLibraryDocument(INGEST_INPUT));
    expect(error.code).toBe('duplicate_document');
    expect(service.attempts).toHaveLength(2);
  });
});
