/** Error reading: the envelope, non-JSON pages, network failures and timeouts, and key redaction. */
import { inspect } from 'node:util';
import { errors as undiciErrors } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceError, ComplianceJobError, ComplianceJobTimeoutError, ComplianceValidationError } from '../../api/errors.js';
import { delayFromHint, parseRetryAfter, textExcerpt } from '../../api/http.js';
import { TransportError } from '../../api/transport.js';
import { API_KEY, FakeTime, MockService, makeClient, systemError } from './helpers.js';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function failure(promise: Promise<unknown>): Promise<ComplianceApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ComplianceApiError);
  return error as ComplianceApiError;
}

describe('the error envelope', () => {
  it('becomes a ComplianceApiError with status, code, message, hint, request id and details', async () => {
    service = new MockService().reply(409, {
      error: {
        code: 'duplicate_document',
        message: 'Same content is already in the library.',
        hint: 'Use refresh instead.',
        requestId: 'req_123',
        documentId: 'doc_9',
      },
    });
    const client = makeClient(service, new FakeTime(), { maxRetries: 0 });
    const error = await failure(client.getLibraryDocument({ id: 'doc_9' }));
    expect(error).toMatchObject({
      status: 409,
      code: 'duplicate_document',
      message: 'getLibraryDocument: Same content is already in the library.',
      hint: 'Use refresh instead.',
      requestId: 'req_123',
      operationId: 'getLibraryDocument',
      details: { documentId: 'doc_9' },
    });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it('takes the request id from x-request-id when the envelope has none, and a default hint', async () => {
    service = new MockService().reply(401, { error: { code: 'invalid_key', message: 'Invalid API key' } }, { 'x-request-id': 'req_hdr' });
    const error = await failure(makeClient(service, new FakeTime()).ping());
    expect(error).toMatchObject({ status: 401, code: 'invalid_key', requestId: 'req_hdr' });
    expect(error.hint).toMatch(/COMPLIANCE_API_KEY/);
  });

  it('reads Retry-After and a hint delay into retryAfterMs', async () => {
    service = new MockService()
      .reply(429, { error: { code: 'rate_limited', message: 'Slow down', hint: 'retry in 12 s', requestId: 'r1' } })
      .reply(429, { error: { code: 'rate_limited', message: 'Slow down', hint: 'retry in 12 s', requestId: 'r2' } }, { 'retry-after': '3' });
    const client = makeClient(service, new FakeTime(), { maxRetries: 0 });
    expect((await failure(client.ping())).retryAfterMs).toBe(12_000);
    // The header wins over the hint.
    expect((await failure(client.ping())).retryAfterMs).toBe(3_000);
  });
});

describe('a non-JSON error page', () => {
  it('an HTML 502 from a proxy becomes bad_gateway with the status and a short tag-stripped excerpt', async () => {
    const html = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{color:red}</style></head>
      <body><h1>Bad Gateway</h1><p>The upstream server returned an invalid response.</p>${'<p>filler</p>'.repeat(100)}</body></html>`;
    service = new MockService().reply(502, html, { 'content-type': 'text/html' });
    const error = await failure(makeClient(service, new FakeTime(), { maxRetries: 0 }).getUsage());
    expect(error.code).toBe('bad_gateway');
    expect(error.status).toBe(502);
    expect(error.message).toContain('HTTP 502');
    expect(error.message).toContain('text/html');
    expect(error.message).toContain('502 Bad Gateway Bad Gateway The upstream server returned an invalid response.');
    expect(error.message).not.toMatch(/<|color:red/);
    expect(error.message.length).toBeLessThan(300);
  });

  it('a non-JSON 4xx is unexpected_response', async () => {
    service = new MockService().reply(404, 'Not Found', { 'content-type': 'text/plain' });
    const error = await failure(makeClient(service, new FakeTime()).getUsage());
    expect(error).toMatchObject({ code: 'unexpected_response', status: 404 });
  });

  it('a 200 that is not JSON is unexpected_response, pointing at the base URL', async () => {
    service = new MockService().reply(200, '<html>login page</html>', { 'content-type': 'text/html' });
    const error = await failure(makeClient(service, new FakeTime()).getUsage());
    expect(error.code).toBe('unexpected_response');
    expect(error.hint).toMatch(/base URL/);
  });

  it('textExcerpt drops scripts, comments and entities', () => {
    expect(textExcerpt('<script>var a = "<b>";</script><!-- x --><p>Tom &amp; Jerry&nbsp;&lt;3</p>')).toBe('Tom & Jerry <3');
    expect(textExcerpt('a'.repeat(500), 20)).toHaveLength(20);
  });
});

describe('failures without a response', () => {
  it('a refused connection is network_error with the cause kept and sent=false', async () => {
    service = new MockService().fail(systemError('ECONNREFUSED'));
    const error = await failure(makeClient(service, new FakeTime(), { maxRetries: 0 }).ping());
    expect(error.code).toBe('network_error');
    expect(error.status).toBeUndefined();
    expect(error.cause).toBeInstanceOf(TransportError);
    expect(error.cause).toMatchObject({ kind: 'connect', sent: false });
    expect(error.details).toMatchObject({ transportKind: 'connect', sent: false });
  });

  it('a headers timeout is timeout, sent=true', async () => {
    service = new MockService().fail(new undiciErrors.HeadersTimeoutError());
    const error = await failure(makeClient(service, new FakeTime(), { maxRetries: 0 }).ping());
    expect(error.code).toBe('timeout');
    expect(error.cause).toMatchObject({ kind: 'timeout', sent: true });
  });

  it('a reset after sending is network_error, sent=true', async () => {
    service = new MockService().fail(new undiciErrors.SocketError('other side closed'));
    const error = await failure(makeClient(service, new FakeTime(), { maxRetries: 0 }).ping());
    expect(error.code).toBe('network_error');
    expect(error.cause).toMatchObject({ kind: 'reset', sent: true });
  });

  it('an exception that is not a TransportError (e.g. from an n8n helper) is network_error, assumed sent', async () => {
    const client = makeClient(new MockService(), new FakeTime(), {
      maxRetries: 0,
      transport: async () => {
        throw new Error('socket hang up');
      },
    });
    const error = await failure(client.ping());
    expect(error.code).toBe('network_error');
    expect(error.cause).toMatchObject({ kind: 'other', sent: true });
  });
});

describe('the API key stays secret', () => {
  it('is absent from JSON.stringify and util.inspect of the client', () => {
    const client = makeClient(new MockService(), new FakeTime());
    expect(JSON.stringify(client)).not.toContain(API_KEY);
    expect(JSON.stringify(client)).toContain('[redacted]');
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(String(client)).not.toContain(API_KEY);
    expect(Object.values(client).join(' ')).not.toContain(API_KEY);
  });

  it('is removed from error messages, hints and details even when the service echoes it', async () => {
    service = new MockService().reply(401, {
      error: { code: 'invalid_key', message: `Key ${API_KEY} is not valid`, hint: `Rotate ${API_KEY}`, requestId: 'r', key: API_KEY },
    });
    const error = await failure(makeClient(service, new FakeTime()).ping());
    const everything = `${error.message} ${error.hint} ${JSON.stringify(error.details)} ${inspect(error)} ${error.toDisplayString()}`;
    expect(everything).not.toContain(API_KEY);
    expect(error.message).toContain('[redacted]');
  });

  it('is removed from an HTML error excerpt and from transport failure messages', async () => {
    service = new MockService().reply(502, `<p>bad key ${API_KEY}</p>`, { 'content-type': 'text/html' }).fail(new Error(`proxy said ${API_KEY}`));
    const client = makeClient(service, new FakeTime(), { maxRetries: 0 });
    expect((await failure(client.ping())).message).not.toContain(API_KEY);
    expect((await failure(client.ping())).message).not.toContain(API_KEY);
  });

  it('is not echoed by a malformed-key error', () => {
    const secret = 'cmp_live_has a space';
    let error: unknown;
    try {
      makeClient(new MockService(), new FakeTime(), { apiKey: secret });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ComplianceError);
    expect(error).toMatchObject({ code: 'invalid_api_key', field: 'apiKey' });
    expect(inspect(error)).not.toContain('has a space');
  });
});

describe('delay parsing', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);
  it.each([
    ['3', 3000],
    ['0', 0],
    ['1.5', 1500],
    ['Thu, 01 Jan 2026 12:00:07 GMT', 7000],
    ['Thu, 01 Jan 2026 11:00:00 GMT', 0],
    ['soon', undefined],
    ['-1', undefined],
    [undefined, undefined],
  ])('Retry-After %s → %s ms', (value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });

  it.each([
    ['retry in 12 s', 12_000],
    ['Retry after 3 seconds', 3_000],
    ['Rate limit exceeded; retry in 12s.', 12_000],
    ['Please try again in 2 minutes', 120_000],
    ['wait 250 ms and retry', 250],
    ['Use refresh instead.', undefined],
    ['Upgrade to pack100 for 33 M tokens', undefined],
  ])('hint "%s" → %s ms', (hint, expected) => {
    expect(delayFromHint(hint)).toBe(expected);
  });
});

describe('what each error says about itself', () => {
  it('names its class, keeps a cause only when given one, and shows message, hint and request id on one line', () => {
    const cause = new Error('socket hang up');
    const base = new ComplianceError({ code: 'network_error', message: 'listLibrary: no answer', hint: 'Check the network.', cause });
    expect([base.name, base.cause, base.toDisplayString()]).toEqual(['ComplianceError', cause, 'listLibrary: no answer (Check the network.)']);
    const plain = new ComplianceError({ code: 'network_error', message: 'listLibrary: no answer' });
    expect([Object.hasOwn(plain, 'cause'), plain.toDisplayString()]).toEqual([false, 'listLibrary: no answer']);

    const api = new ComplianceApiError({ code: 'rate_limited', message: 'Too many requests.', hint: 'Wait a minute.', requestId: 'req_7', status: 429 });
    expect([api.name, api.toDisplayString()]).toEqual(['ComplianceApiError', 'Too many requests. | hint: Wait a minute. | request id: req_7']);
    expect(new ComplianceApiError({ code: 'rate_limited', message: 'Too many requests.' }).toDisplayString()).toBe('Too many requests.');

    const job = { id: 'job_1', status: 'failed' };
    expect(new ComplianceValidationError({ code: 'validation_error', message: 'bad', field: 'organisation.country' })).toMatchObject({ name: 'ComplianceValidationError', field: 'organisation.country' });
    expect(new ComplianceJobError({ code: 'job_failed', message: 'failed', jobId: 'job_1', job })).toMatchObject({ name: 'ComplianceJobError', jobId: 'job_1', job });
    expect(new ComplianceJobTimeoutError({ code: 'job_timeout', message: 'still running', jobId: 'job_1', job })).toMatchObject({ name: 'ComplianceJobTimeoutError', jobId: 'job_1', job });
  });
});
