/** The HTTP contract: envelope, routing, auth, body limits and validation codes, over loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, sandbox, SANDBOX_KEY } from './helpers.js';

let box: RunningSandbox;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  box = await sandbox();
  call = client(box);
});
afterAll(() => box.close());

describe('public endpoints', () => {
  it('serves the service card without a key, version v1, every endpoint', async () => {
    const answer = await call('GET', '/', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.body.version).toBe('v1');
    expect(answer.body.endpoints).toHaveLength(23);
    expect(answer.headers.get('x-request-id')).toMatch(/^req_/);
    expect((await call('GET', '', { key: null })).body.version).toBe('v1');
  });

  it('serves the OpenAPI document without a key', async () => {
    const answer = await call('GET', '/openapi.json', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.body.info.version).toBe('1.0.0');
  });
});

describe('error envelope', () => {
  it('answers unknown paths inside and outside the API with 404 not_found', async () => {
    envelope(await call('GET', '/nowhere'), 404, 'not_found');
    envelope(await call('GET', `${box.origin}/index.html`), 404, 'not_found');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const answer = await call('DELETE', '/ping');
    envelope(answer, 405, 'method_not_allowed');
    expect(answer.headers.get('allow')).toBe('GET');
    expect((await call('GET', '/documents/generate')).headers.get('allow')).toBe('POST');
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    envelope(await call('POST', '/frameworks/suggest', { rawBody: '{"query": ', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
  });

  it('answers a non-object body with 400 invalid_request', async () => {
    envelope(await call('POST', '/frameworks/suggest', { body: ['query'] }), 400, 'invalid_request');
  });

  it('answers an unsupported media type with 415', async () => {
    envelope(await call('POST', '/frameworks/suggest', { rawBody: 'query=x', headers: { 'content-type': 'text/plain' } }), 415, 'unsupported_media_type');
  });

  it('answers a JSON body over 2 MB with 413 payload_too_large', async () => {
    const content = 'x'.repeat(2 * 1024 * 1024 + 10);
    envelope(await call('POST', '/library/documents', { body: { title: 't', content } }), 413, 'payload_too_large');
    // The server is still healthy afterwards.
    expect((await call('GET', '/ping')).status).toBe(200);
  });

  it('answers an upload over the limit with 413', async () => {
    const form = new FormData();
    form.set('framework', 'gdpr');
    form.set('file', new Blob([new Uint8Array(11 * 1024 * 1024)]), 'big.txt');
    envelope(await call('POST', '/documents/map', { rawBody: form }), 413, 'payload_too_large');
  });
});

describe('authentication', () => {
  it('accepts the key in Authorization: Bearer and in X-API-Key', async () => {
    expect((await call('GET', '/ping', { via: 'bearer' })).body.mode).toBe('sandbox');
    expect((await call('GET', '/ping', { via: 'x-api-key' })).body.mode).toBe('sandbox');
  });

  it('answers a missing key with 401 missing_api_key and an unknown one with 401 invalid_api_key, never echoing it', async () => {
    envelope(await call('GET', '/ping', { key: null }), 401, 'missing_api_key');
    const answer = await call('GET', '/ping', { key: 'csk_sandbox_not_a_real_key_777' });
    envelope(answer, 401, 'invalid_api_key');
    expect(answer.text).not.toContain('not_a_real_key_777');
    envelope(await call('GET', '/ping', { key: null, headers: { authorization: 'Basic abc' } }), 401, 'invalid_api_key');
  });

  it('refuses two different keys in the two headers', async () => {
    envelope(await call('GET', '/ping', { headers: { 'x-api-key': 'csk_sandbox_other_key' } }), 400, 'conflicting_api_keys');
    expect((await call('GET', '/ping', { headers: { 'x-api-key': SANDBOX_KEY } })).status).toBe(200);
  });
});

describe('validation with the service codes', () => {
  it.each([
    ['POST', '/frameworks/suggest', {}, 'missing_query'],
    ['POST', '/documents/generate', { type: 'policy' }, 'missing_framework'],
    ['POST', '/documents/generate', { framework: 'gdpr', type: 'no_such_type' }, 'unknown_document_type'],
    ['POST', '/documents/map', { content: 'text' }, 'missing_framework'],
    ['POST', '/library/search', {}, 'missing_query'],
    ['POST', '/library/documents', { title: 'short', content: 'too short' }, 'content_too_short'],
    ['POST', '/billing/checkout', { pack: 'pack7' }, 'invalid_pack'],
    ['PUT', '/billing/auto-topup', { enabled: true, thresholdTokens: 99_999, pack: 'pack10' }, 'invalid_threshold'],
    ['PUT', '/calendar', { cadence: 'weekly' }, 'invalid_cadence'],
    ['PUT', '/calendar', { cadence: 'monthly', firstReviewAt: 'tomorrow' }, 'invalid_timestamp'],
    ['POST', '/library/search', { query: 'x', colour: 'red' }, 'unknown_field'],
  ])('%s %s %j → 400 %s', async (method, path, body, code) => {
    envelope(await call(method, path, { body }), 400, code);
  });

  it('checks path and query parameters', async () => {
    envelope(await call('GET', '/jobs/not-a-uuid'), 400, 'invalid_job_id');
    envelope(await call('GET', '/jobs/3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a'), 404, 'job_not_found');
    envelope(await call('GET', '/documents/3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a?format=html'), 400, 'unsupported_format');
    envelope(await call('GET', '/ping?verbose=1'), 400, 'unknown_field');
    envelope(await call('GET', '/frameworks/no-such-framework'), 404, 'framework_not_found');
  });
});
