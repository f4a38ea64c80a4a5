/** api/http.ts read directly: each envelope shape, error page, status default and transport failure. */
import { describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../api/errors.js';
import { delayFromHint, errorFromResponse, errorFromTransport, parseRetryAfter, readJsonBody, textExcerpt, type ResponseContext } from '../../api/http.js';
import { TransportError, type TransportResponse } from '../../api/transport.js';

const context: ResponseContext = { operationId: 'getUsage', nowMs: 0, redact: (text) => text.replaceAll('SECRET', '[redacted]') };
const response = (status: number, body: unknown, headers: Record<string, string> = {}): TransportResponse => ({
  status,
  headers,
  body: new TextEncoder().encode(typeof body === 'string' ? body : JSON.stringify(body)),
});

describe('readJsonBody', () => {
  it('parses JSON, and names the status, content type and an excerpt of anything else', () => {
    expect(readJsonBody(response(200, { ok: true }), context)).toEqual({ ok: true });
    const error = (() => {
      try {
        readJsonBody(response(200, '<p>SECRET login</p>', { 'x-request-id': 'req_1' }), context);
      } catch (caught) {
        return caught as ComplianceApiError;
      }
    })();
    expect(error).toBeInstanceOf(ComplianceApiError);
    expect(error).toMatchObject({
      code: 'unexpected_response',
      status: 200,
      operationId: 'getUsage',
      requestId: 'req_1',
      message: 'getUsage: HTTP 200 answer is not JSON (no content type): "[redacted] login"',
    });
    expect(error?.cause).toBeInstanceOf(SyntaxError);
    expect(() => readJsonBody(response(200, 'x', { 'content-type': 'text/html' }), context)).toThrow('(text/html)');
  });
});

describe('errorFromResponse with an error envelope', () => {
  it('the documented envelope: the rest of the error object and its siblings become details, named fields do not', () => {
    const error = errorFromResponse(
      response(409, { error: { code: 'duplicate_document', message: 'Held', hint: 'Refresh it.', requestId: 'req_9', documentId: 'doc_1', details: { jobId: 'job_1' } }, meta: { x: 1 } }),
      context,
    );
    expect(error).toMatchObject({ code: 'duplicate_document', status: 409, message: 'getUsage: Held', hint: 'Refresh it.', requestId: 'req_9' });
    expect(error.details).toEqual({ meta: { x: 1 }, jobId: 'job_1', documentId: 'doc_1' });
    // Named fields stay out of the details wherever they sit: beside the error object or in its details.
    const scattered = errorFromResponse(
      response(409, { error: { code: 'a', details: { hint: 'h', requestId: 'r', documentId: 'doc_2' } }, code: 'b', message: 'm' }),
      context,
    );
    expect(scattered.details).toEqual({ documentId: 'doc_2' });
  });

  it('tolerates {error: "code", message} and {code, message}, keeping no named field in the details', () => {
    const short = errorFromResponse(response(400, { error: 'invalid_limit', message: 'Limit too big', hint: 'Use 50.', requestId: 'r', field: 'limit' }), context);
    expect(short).toMatchObject({ code: 'invalid_limit', message: 'getUsage: Limit too big', hint: 'Use 50.', requestId: 'r' });
    expect(short.details).toEqual({ field: 'limit' });
    const flat = errorFromResponse(response(400, { code: 'invalid_query', message: 'No word' }), context);
    expect(flat).toMatchObject({ code: 'invalid_query', message: 'getUsage: No word' });
    expect(flat.details).toEqual({});
  });

  it('fills an empty or missing code, message, hint and request id from the status and headers', () => {
    const error = errorFromResponse(response(404, { error: { code: '', message: '', hint: '', requestId: '' } }, { 'x-request-id': 'req_h' }), context);
    expect(error).toMatchObject({ code: 'not_found', message: 'getUsage: HTTP 404 not_found', requestId: 'req_h' });
    expect(error.hint).toMatch(/^Check the id or path/);
    const numbers = errorFromResponse(response(400, { error: { code: 7, message: 8, hint: 9, requestId: 10 } }), context);
    expect(numbers).toMatchObject({ code: 'invalid_request', message: 'getUsage: HTTP 400 invalid_request', requestId: undefined });
    expect(numbers.hint).toMatch(/^Check the request fields/);
  });

  it.each([
    [500, 'server_error', /^A service-side fault/],
    [503, 'server_error', /^A service-side fault/],
    [499, 'http_499', /^Unexpected status/],
    [401, 'unauthorized', /COMPLIANCE_API_KEY/],
    [403, 'forbidden', /getCapabilities/],
    [409, 'conflict', /not in a state/],
    [413, 'payload_too_large', /smaller/],
    [429, 'rate_limited', /Slow down/],
  ])('status %s without a code is %s', (status, code, hint) => {
    const error = errorFromResponse(response(status, { error: {} }), context);
    expect(error.code).toBe(code);
    expect(error.hint).toMatch(hint);
  });

  it('redacts the message, hint and string details; Retry-After wins over a delay in the hint', () => {
    const error = errorFromResponse(response(429, { error: { code: 'rate_limited', message: 'SECRET', hint: 'SECRET: retry in 2 s', key: 'SECRET', count: 3 } }), context);
    expect(error).toMatchObject({ message: 'getUsage: [redacted]', hint: '[redacted]: retry in 2 s', retryAfterMs: 2_000 });
    expect(error.details).toEqual({ key: '[redacted]', count: 3 });
    expect(errorFromResponse(response(429, { error: { hint: 'retry in 2 s' } }, { 'retry-after': '5' }), context).retryAfterMs).toBe(5_000);
  });

  it('an envelope needs an error object, an error code string or a code string; anything else is a page', () => {
    for (const body of [{ error: 5 }, { message: 'no code' }, [{ code: 'x' }], 'null']) {
      expect(errorFromResponse(response(400, body), context).code).toBe('unexpected_response');
    }
  });
});

describe('errorFromResponse without an envelope', () => {
  it('a 5xx page is bad_gateway, a 4xx page unexpected_response, each with its hint and the Retry-After delay', () => {
    const gateway = errorFromResponse(response(500, '<h1>Oops</h1>', { 'content-type': 'text/html', 'retry-after': '4', 'x-request-id': 'req_p' }), context);
    expect(gateway).toMatchObject({ code: 'bad_gateway', status: 500, requestId: 'req_p', retryAfterMs: 4_000, message: 'getUsage: HTTP 500 with a non-JSON body (text/html): "Oops"' });
    expect(gateway.hint).toMatch(/^A proxy or gateway/);
    const page = errorFromResponse(response(499, 'SECRET page'), context);
    expect(page).toMatchObject({ code: 'unexpected_response', message: 'getUsage: HTTP 499 with a non-JSON body (no content type): "[redacted] page"' });
    expect(page.hint).toMatch(/^Check that the base URL/);
  });

  it('an empty or blank body names no excerpt', () => {
    expect(errorFromResponse(response(502, '  '), context).message).toBe('getUsage: HTTP 502 with a non-JSON body (no content type)');
  });
});

describe('errorFromTransport', () => {
  it('a timeout: its own code and hint, kind and sent in the details, the failure as cause', () => {
    const failure = new TransportError('timeout', true, 'SECRET slow');
    const error = errorFromTransport(failure, context) as ComplianceApiError;
    expect(error).toMatchObject({ code: 'timeout', operationId: 'getUsage', message: 'getUsage: timed out waiting for the service: [redacted] slow', details: { transportKind: 'timeout', sent: true } });
    expect(error.hint).toMatch(/^Raise timeoutMs/);
    expect(error.cause).toBe(failure);
  });

  it.each([
    ['connect', 'could not connect to the service (the request was not sent)'],
    ['reset', 'the connection failed after the request was sent'],
    ['aborted', 'the request was aborted'],
    ['other', 'the request failed'],
  ] as const)('%s is a network_error saying "%s"', (kind, words) => {
    const error = errorFromTransport(new TransportError(kind, false, ''), context) as ComplianceApiError;
    expect(error).toMatchObject({ code: 'network_error', message: `getUsage: ${words}` });
    expect(error.hint).toMatch(/^Check the network/);
  });

  it('something thrown that is no TransportError may have been sent', () => {
    const error = errorFromTransport('boom', context) as ComplianceApiError;
    expect(error).toMatchObject({ code: 'network_error', message: 'getUsage: the request failed: boom', details: { transportKind: 'other', sent: true } });
    expect(error.cause).toMatchObject({ kind: 'other', sent: true, cause: 'boom' });
  });

  it("the caller's abort wins over the failure", () => {
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    const error = errorFromTransport(new TransportError('reset', true, 'x'), { ...context, signal: controller.signal });
    expect(error).not.toBeInstanceOf(ComplianceApiError);
    expect(error.code).toBe('aborted');
  });
});

describe('delays and excerpts', () => {
  it.each([
    [' 2 ', 2_000],
    ['2.25', 2_250],
    ['2.', undefined],
    ['+2', undefined],
    ['', undefined],
    ['2s', undefined],
  ])('Retry-After "%s" → %s ms', (value, expected) => {
    expect(parseRetryAfter(value, 0)).toBe(expected);
  });

  it.each([
    ['retry in 1.5 seconds', 1_500],
    ['try again in 300 milliseconds', 300],
    ['retry in 2 millisecond', 2],
    ['wait 2 secs', 2_000],
    ['retry in 3 sec', 3_000],
    ['retry after 2 mins', 120_000],
    ['retry in 1 min', 60_000],
    ['retry in 2 m', 120_000],
    ['retry in 4 minute', 240_000],
    ['RETRY IN 5 S', 5_000],
    ['retrying 5 s', undefined],
    [undefined, undefined],
  ])('hint "%s" → %s ms', (hint, expected) => {
    expect(delayFromHint(hint)).toBe(expected);
  });

  it('textExcerpt decodes each entity once, collapses space, and shortens only past the limit', () => {
    expect(textExcerpt('<style>p{}</style>a&quot;b&#39;c&gt;d&lt;e &amp;lt;\n\t f')).toBe('a"b\'c>d<e &lt; f');
    expect(textExcerpt('<SCRIPT type="x">1</SCRIPT >x')).toBe('x');
    // Scripts, styles and comments leave a space, so the words on either side stay apart.
    expect(textExcerpt('a<script>x</script>b<!-- note -->c<style>p{}</style>d')).toBe('a b c d');
    expect(textExcerpt('a<!-- 1 > 0 -->b')).toBe('a b');
    expect(textExcerpt('abcde', 5)).toBe('abcde');
    expect(textExcerpt('abcdef', 5)).toBe('abcd…');
    expect(textExcerpt('x'.repeat(161))).toBe(`${'x'.repeat(159)}…`);
    expect(textExcerpt('x'.repeat(160))).toBe('x'.repeat(160));
  });
});
