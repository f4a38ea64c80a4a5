/**
 * ComplianceClient's own edges: the options it refuses (in words, never echoing a key), what it
 * shows of itself, the headers and status range of an attempt, and a call refused before anything
 * is sent.
 */
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ComplianceClient, DEFAULT_USER_AGENT } from '../../api/client.js';
import { DEFAULT_RETRY_SETTINGS } from '../../api/retry.js';
import type { TransportRequest, TransportResponse } from '../../api/transport.js';
import { API_KEY, FakeTime, JOB_ID, MockService, makeClient, ORIGIN } from './helpers.js';

const time = new FakeTime();
const transport = async (): Promise<TransportResponse> => ({ status: 200, headers: {}, body: new Uint8Array() });
const options = { apiKey: API_KEY, baseUrl: ORIGIN, transport, sleep: time.sleep };
const refusal = (make: () => unknown): unknown => {
  try {
    make();
  } catch (error) {
    return error;
  }
  throw new Error('accepted');
};

describe('options refused, with the fix', () => {
  it.each<[string, unknown, Record<string, unknown>]>([
    ['no options', null, { code: 'invalid_option', field: 'options', message: 'ComplianceClient: options are required', hint: 'Pass { apiKey, baseUrl, transport, sleep }.' }],
    ['options that are text', 'key', { code: 'invalid_option', field: 'options' }],
    ['no transport', { ...options, transport: undefined }, { code: 'invalid_option', field: 'transport', message: 'ComplianceClient: transport is required', hint: 'Use the Node entry (compliance-engine-cli), which supplies one, or pass createNodeTransport().' }],
    ['no sleep', { ...options, sleep: undefined }, { code: 'invalid_option', field: 'sleep', message: 'ComplianceClient: sleep is required', hint: 'Use the Node entry (compliance-engine-cli), which supplies one, or pass nodeSleep.' }],
    ['onRetry that is no function', { ...options, onRetry: 'log' }, { code: 'invalid_option', field: 'onRetry', message: 'ComplianceClient: onRetry must be a function', hint: 'Pass (notice) => { … } or leave it out.' }],
    ['a negative timeout', { ...options, timeoutMs: -1 }, { code: 'invalid_option', field: 'timeoutMs', message: 'ComplianceClient: timeoutMs must be a number of at least 0', hint: 'Pass for example timeoutMs: 30000.' }],
    ['a fraction of a retry', { ...options, maxRetries: 1.5 }, { code: 'invalid_option', field: 'maxRetries', message: 'ComplianceClient: maxRetries must be a whole number of at least 0', hint: 'Pass for example maxRetries: 3.' }],
    ['an infinite deadline', { ...options, maxElapsedMs: Number.POSITIVE_INFINITY }, { code: 'invalid_option', field: 'maxElapsedMs' }],
  ])('%s', (_, given, expected) => {
    expect(refusal(() => new ComplianceClient(given as never))).toMatchObject(expected);
  });

  it('a key holding a control character (not only a line break or a space) is refused without being shown', () => {
    for (const apiKey of ['csk_live_abc\u0001def', 'csk_live_abc\u007fdef', 'csk_live_abc\u001f']) {
      const error = refusal(() => new ComplianceClient({ ...options, apiKey })) as Error;
      expect(error).toMatchObject({ code: 'invalid_api_key', field: 'apiKey' });
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain('csk_live_abc');
    }
  });

  it('fractions of a millisecond are a timeout and a deadline; only retries must be whole', () => {
    expect(() => new ComplianceClient({ ...options, timeoutMs: 1500.5, maxElapsedMs: 0.5, maxRetries: 0 })).not.toThrow();
  });
});

describe('what the client shows of itself', () => {
  it('names its base URL and header, never the key', () => {
    const keyed = new ComplianceClient(options);
    expect(keyed.toJSON()).toEqual({ baseUrl: `${ORIGIN}/api/public/v1`, authHeader: 'bearer', apiKey: '[redacted]' });
    expect(inspect(keyed)).toBe(`ComplianceClient { baseUrl: '${ORIGIN}/api/public/v1', authHeader: 'bearer', apiKey: [redacted] }`);
    const keyless = new ComplianceClient({ ...options, apiKey: undefined, authHeader: 'x-api-key' });
    expect(keyless.toJSON()).toEqual({ baseUrl: `${ORIGIN}/api/public/v1`, authHeader: 'x-api-key', apiKey: undefined });
    expect(inspect(keyless)).toBe(`ComplianceClient { baseUrl: '${ORIGIN}/api/public/v1', authHeader: 'x-api-key', apiKey: none }`);
  });

  it('without pacing it has seen no rate limit', () => {
    expect(new ComplianceClient({ ...options, pacing: false }).rateLimit).toStrictEqual({ limit: undefined, remaining: undefined, observedAt: undefined });
  });
});

describe('one attempt', () => {
  function recording(answer: Partial<TransportResponse> = {}) {
    const seen: TransportRequest[] = [];
    const client = new ComplianceClient({
      ...options,
      pacing: false,
      transport: async (request) => {
        seen.push(request);
        return { status: 200, headers: {}, body: new TextEncoder().encode('{}'), ...answer };
      },
    });
    return { client, seen };
  }

  it('asks for the format it downloads, with JSON as the fallback for errors; JSON otherwise', async () => {
    const { client, seen } = recording({ headers: { 'content-type': 'application/pdf' }, body: new TextEncoder().encode('%PDF-1.7') });
    await client.downloadDocument({ jobId: JOB_ID, format: 'pdf' });
    await client.downloadDocument({ jobId: JOB_ID, format: 'json' }).catch(() => undefined);
    await client.downloadDocument({ jobId: JOB_ID }).catch(() => undefined);
    expect(seen.map((request) => request.headers.accept)).toEqual(['application/pdf, application/json;q=0.5', 'application/json', 'application/json']);
    expect(seen[0]?.headers['user-agent']).toBe(DEFAULT_USER_AGENT);
  });

  it('a JSON download that is no object is refused, naming the request id', async () => {
    for (const body of ['[1]', 'null', '"text"']) {
      const { client } = recording({ headers: { 'content-type': 'application/json', 'x-request-id': 'req_dl' }, body: new TextEncoder().encode(body) });
      await expect(client.downloadDocument({ jobId: JOB_ID, format: 'json' })).rejects.toMatchObject({
        name: 'ComplianceApiError',
        code: 'unexpected_response',
        status: 200,
        operationId: 'downloadDocument',
        message: 'downloadDocument: the json download is not an object',
        hint: 'Download the md format instead, or report it with the request id.',
        requestId: 'req_dl',
      });
    }
  });

  it('hands the caller\'s signal to the transport, and none when there is none', async () => {
    const { client, seen } = recording();
    const controller = new AbortController();
    await client.call('ping', {}, { signal: controller.signal }).catch(() => undefined);
    await client.call('ping', {}).catch(() => undefined);
    expect(seen[0]?.signal).toBe(controller.signal);
    expect(seen[1] && 'signal' in seen[1]).toBe(false);
  });

  it('a 299 is a success; a 199 and a 300 are not', async () => {
    await expect(recording({ status: 199, body: new TextEncoder().encode('{"status":"ok","mode":"live"}') }).client.call('ping', {})).rejects.toMatchObject({ status: 199 });
    expect(await recording({ status: 299, body: new TextEncoder().encode('{"status":"ok","mode":"live"}') }).client.call('ping', {})).toMatchObject({ mode: 'live' });
    const envelope = new TextEncoder().encode(JSON.stringify({ error: { code: 'multiple_choices', message: 'Pick one', hint: 'Follow a link.', requestId: 'req_300' } }));
    await expect(recording({ status: 300, headers: { 'content-type': 'application/json' }, body: envelope }).client.call('ping', {})).rejects.toMatchObject({ status: 300, code: 'multiple_choices' });
  });

  it('an empty body is no JSON error: the normaliser says what is missing', async () => {
    await expect(recording({ body: new Uint8Array() }).client.call('getUsage', {})).rejects.toMatchObject({
      name: 'ComplianceApiError',
      code: 'unexpected_response',
      operationId: 'getUsage',
      status: 200,
      message: 'getUsage: unexpected response: no usage (looked for an object); got undefined',
    });
  });
});

describe('refused before anything is sent', () => {
  it('an unknown operation lists the known ones', async () => {
    const error = await makeClient(new MockService(), time).call('pong' as never).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unknown_operation', field: 'operationId', message: 'unknown operation "pong"' });
    expect((error as { hint: string }).hint).toMatch(/^Use one of: getServiceCard, [a-zA-Z]+, /);
  });

  it('an aborted call is aborted, whatever its input', async () => {
    const service = new MockService();
    await expect(makeClient(service, time).call('getJob', { jobId: 'not-a-uuid' }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ code: 'aborted', operationId: 'getJob' });
    expect(service.attempts).toEqual([]);
  });

  it('without maxRetries or maxElapsedMs the defaults hold', async () => {
    const service = new MockService();
    for (let i = 0; i <= DEFAULT_RETRY_SETTINGS.maxRetries; i++) service.reply(503, { error: { code: 'unavailable', message: 'Down', hint: 'Retry.', requestId: `r${i}` } });
    await expect(makeClient(service, new FakeTime()).getUsage()).rejects.toMatchObject({ status: 503 });
    expect(service.attempts).toHaveLength(DEFAULT_RETRY_SETTINGS.maxRetries + 1);
    // A wait past the default deadline is not waited out.
    const limited = new MockService().reply(429, { error: { code: 'rate_limited', message: 'Slow down', hint: 'Wait.', requestId: 'r' } }, { 'retry-after': String(DEFAULT_RETRY_SETTINGS.maxElapsedMs / 1000 + 10) });
    await expect(makeClient(limited, new FakeTime()).getUsage()).rejects.toMatchObject({ status: 429 });
    expect(limited.attempts).toHaveLength(1);
  });
});
