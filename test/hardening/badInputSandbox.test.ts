/**
 * Bad-input catalogue, part 2: the sandbox over HTTP, as any client could send it. Every row gets
 * the JSON envelope (code, message, hint, request id; no stack trace), the right status and code,
 * names the field or the fix, and changes nothing: same balance, same ledger, same library.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, policyText, sandbox, type RequestOptions } from '../sandbox/helpers.js';
import { collect, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const KEY = 'csk_live_hardening_badinput_sandbox_0001';
const UUID = '3f1e2d4c-5b6a-4789-8abc-def012345678';
let box: RunningSandbox;
let call: ReturnType<typeof client>;
let docId = '';

function nestedJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

interface Row {
  name: string;
  method: string;
  path: string | (() => string);
  options?: RequestOptions;
  status: number;
  code: string;
  /** Text the message, hint or field must contain (the field name or the fix). */
  names: RegExp;
}

const json = (body: unknown): RequestOptions => ({ body });
const raw = (rawBody: string | Uint8Array, contentType = 'application/json'): RequestOptions => ({ rawBody, headers: { 'content-type': contentType } });
const upload = (filename: string, bytes: Uint8Array | string, framework = 'hipaa-security'): RequestOptions => {
  const form = new FormData();
  form.set('framework', framework);
  form.set('file', new Blob([bytes]), filename);
  return { rawBody: form };
};

export const SANDBOX_ROWS: Row[] = [
  { name: 'no key', method: 'GET', path: '/ping', options: { key: null }, status: 401, code: 'missing_api_key', names: /key|Authorization/i },
  { name: 'malformed key', method: 'GET', path: '/ping', options: { key: 'not-a-key' }, status: 401, code: 'invalid_api_key', names: /key/i },
  { name: 'two different keys in the two headers', method: 'GET', path: '/ping', options: { headers: { 'x-api-key': 'csk_live_other_key_0009' } }, status: 400, code: 'conflicting_api_keys', names: /key/i },
  { name: 'unknown path', method: 'GET', path: '/nope', status: 404, code: 'not_found', names: /GET|endpoint/i },
  { name: 'path escaping the API with ..', method: 'GET', path: '/../../etc/passwd', status: 404, code: 'not_found', names: /api\/public\/v1|endpoint/i },
  { name: 'wrong method', method: 'PATCH', path: '/billing', status: 405, code: 'method_not_allowed', names: /GET|allowed/i },
  { name: 'malformed JSON', method: 'POST', path: '/frameworks/suggest', options: raw('{"query": '), status: 400, code: 'invalid_json', names: /JSON/ },
  { name: 'JSON array instead of object', method: 'POST', path: '/frameworks/suggest', options: raw('["query"]'), status: 400, code: 'invalid_request', names: /object/i },
  { name: 'wrong content type', method: 'POST', path: '/frameworks/suggest', options: raw('query=x', 'text/csv'), status: 415, code: 'unsupported_media_type', names: /application\/json|Content-Type/i },
  { name: 'non-UTF-8 JSON body', method: 'POST', path: '/frameworks/suggest', options: raw(Buffer.concat([Buffer.from('{"query":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')])), status: 400, code: 'invalid_json', names: /UTF-8|JSON/i },
  { name: 'huge JSON (3 MB)', method: 'POST', path: '/library/documents', options: raw(JSON.stringify({ title: 'x', content: 'a'.repeat(3 * 1024 * 1024) })), status: 413, code: 'payload_too_large', names: /MB|smaller|size|large/i },
  { name: 'deeply nested JSON', method: 'POST', path: '/documents/generate', options: raw(`{"framework":"gdpr","organisation":${nestedJson(5000)}}`), status: 400, code: 'unknown_field', names: /organisation/ },
  { name: 'deeply nested JSON at the top (200,000 levels)', method: 'POST', path: '/frameworks/suggest', options: raw(`{"query":${'['.repeat(200_000)}${']'.repeat(200_000)}}`), status: 400, code: 'missing_query', names: /query/ },
  { name: 'discovery without query', method: 'POST', path: '/frameworks/suggest', options: json({}), status: 400, code: 'missing_query', names: /query/ },
  { name: 'discovery query of the wrong type', method: 'POST', path: '/frameworks/suggest', options: json({ query: 42 }), status: 400, code: 'missing_query', names: /query/ },
  { name: 'generation without framework', method: 'POST', path: '/documents/generate', options: json({ type: 'policy' }), status: 400, code: 'missing_framework', names: /framework/ },
  { name: 'generation with an unknown document type', method: 'POST', path: '/documents/generate', options: json({ framework: 'gdpr', type: 'poem' }), status: 400, code: 'unknown_document_type', names: /type|capabilities/ },
  { name: 'mapping a framework that is not verified', method: 'POST', path: '/documents/map', options: json({ framework: 'made-up-framework', content: policyText('map') }), status: 404, code: 'framework_not_found', names: /framework/ },
  { name: 'upload over 10 MB', method: 'POST', path: '/documents/map', options: upload('big.txt', new Uint8Array(10 * 1024 * 1024 + 10).fill(0x61)), status: 413, code: 'upload_too_large', names: /10 MB|10,485,760|limit/ },
  { name: 'upload of the wrong kind (.exe)', method: 'POST', path: '/documents/map', options: upload('tool.exe', 'MZ'), status: 400, code: 'unsupported_file_type', names: /DOCX|PDF|accepted/i },
  { name: 'upload that is not what its name says (.pdf)', method: 'POST', path: '/documents/map', options: upload('policy.pdf', 'this is not a pdf'), status: 400, code: 'unreadable_file', names: /pdf|file/i },
  { name: 'job id not a UUID', method: 'GET', path: '/jobs/abc', status: 400, code: 'invalid_job_id', names: /jobId|UUID/ },
  { name: 'unknown job', method: 'GET', path: `/jobs/${UUID}`, status: 404, code: 'job_not_found', names: /job/i },
  { name: 'download in an unknown format', method: 'GET', path: `/documents/${UUID}?format=exe`, status: 400, code: 'unsupported_format', names: /format/ },
  { name: 'ingest too short', method: 'POST', path: '/library/documents', options: json({ title: 'T', content: 'too short' }), status: 400, code: 'content_too_short', names: /content|200/ },
  { name: 'ingest too long', method: 'POST', path: '/library/documents', options: json({ title: 'T', content: 'a'.repeat(300_001) }), status: 400, code: 'content_too_long', names: /content|300/ },
  { name: 'ingest content of the wrong type', method: 'POST', path: '/library/documents', options: json({ title: 'T', content: 12345 }), status: 400, code: 'invalid_request', names: /content/ },
  { name: 'ingest with an unknown field', method: 'POST', path: '/library/documents', options: json({ title: 'T', content: policyText('u'), owner: 'x' }), status: 400, code: 'unknown_field', names: /owner/ },
  { name: 'ingest duplicate content', method: 'POST', path: '/library/documents', options: json({ title: 'Again', content: policyText('held') }), status: 409, code: 'duplicate_document', names: /refresh/i },
  { name: 'refresh with unchanged content', method: 'POST', path: () => `/library/documents/${docId}/refresh`, options: json({ content: policyText('held') }), status: 409, code: 'document_unchanged', names: /unchanged|identical|same|already/i },
  { name: 'refresh of an unknown document', method: 'POST', path: '/library/documents/doc_0000000000000000/refresh', options: json({ content: policyText('r') }), status: 404, code: 'document_not_found', names: /library|document/i },
  { name: 'search limit above the maximum', method: 'POST', path: '/library/search', options: json({ query: 'access', limit: 51 }), status: 400, code: 'invalid_limit', names: /limit|50/ },
  { name: 'search query of FTS syntax only', method: 'POST', path: '/library/search', options: json({ query: '*** ((( )))' }), status: 400, code: 'invalid_query', names: /query|word/i },
  { name: 'checkout with an unknown pack', method: 'POST', path: '/billing/checkout', options: json({ pack: 'pack1000' }), status: 400, code: 'invalid_pack', names: /pack10/ },
  { name: 'auto-top-up threshold too low', method: 'PUT', path: '/billing/auto-topup', options: json({ enabled: true, thresholdTokens: 5, pack: 'pack10' }), status: 400, code: 'invalid_threshold', names: /thresholdTokens|100,000|100000/ },
  { name: 'auto-top-up threshold as a string', method: 'PUT', path: '/billing/auto-topup', options: json({ enabled: true, thresholdTokens: '200000', pack: 'pack10' }), status: 400, code: 'invalid_threshold', names: /thresholdTokens/ },
  { name: 'calendar with a weekly cadence', method: 'PUT', path: '/calendar', options: json({ cadence: 'weekly' }), status: 400, code: 'invalid_cadence', names: /monthly|quarterly/ },
  { name: 'calendar date that does not exist', method: 'PUT', path: '/calendar', options: json({ cadence: 'monthly', firstReviewAt: '2026-02-30T09:00:00Z' }), status: 400, code: 'invalid_timestamp', names: /firstReviewAt|ISO/ },
  { name: 'calendar date without a zone', method: 'PUT', path: '/calendar', options: json({ cadence: 'monthly', firstReviewAt: '01/12/2026' }), status: 400, code: 'invalid_timestamp', names: /firstReviewAt|ISO/ },
  { name: 'unknown fault value (faults off: ignored, the request answers normally)', method: 'GET', path: '/frameworks/no-such-framework', options: { headers: { 'x-sandbox-fault': 'explode' } }, status: 404, code: 'framework_not_found', names: /framework/ },
];

async function state() {
  const billing = await call('GET', '/billing');
  const library = await call('GET', '/library?limit=100');
  return { balance: billing.body.balanceTokens as number, ledger: JSON.stringify(billing.body.ledger), library: JSON.stringify(library.body.documents) };
}

beforeAll(async () => {
  registerSecret(KEY);
  box = await sandbox({ keys: [`${KEY}:live:50000000`], rateLimitPerMinute: 1_000_000 });
  call = client(box, KEY);
  const held = await call('POST', '/library/documents', { body: { title: 'Held', content: policyText('held') } });
  expect(held.status).toBe(202);
  docId = held.body.documentId;
});

afterAll(async () => {
  await box?.close();
});

describe('bad input: sandbox over HTTP', () => {
  it.each(SANDBOX_ROWS)('$name → $status $code, nothing changed', async (row) => {
    const before = await state();
    const answer = await call(row.method, typeof row.path === 'function' ? row.path() : row.path, row.options);
    collect(`sandbox answer (${row.name})`, answer.text);
    const error = envelope(answer, row.status, row.code);
    expect(`${error.message} ${error.hint} ${String(error.field ?? '')}`).toMatch(row.names);
    expect(await state()).toEqual(before);
  });
});
