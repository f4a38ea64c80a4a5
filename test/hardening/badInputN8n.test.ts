/**
 * Bad-input catalogue, part 4: the n8n Compliance node. Every row runs the node's execute through
 * the fake n8n context (test/n8n/unit/fakeContext.ts) against a real sandbox over loopback, with a
 * live key holding a balance, and asserts:
 * - the n8n error type: NodeOperationError for a local refusal (then nothing was sent at all),
 *   NodeApiError for the service's answer (with its HTTP status and code);
 * - the message names the field as the UI shows it ("Job ID in Get Job …"; the credential's
 *   fields by their own name) and the
 *   description or hint says how to fix it;
 * - with "Continue On Fail" the node does not throw: every input item gets its error as output,
 *   paired with that item;
 * - nothing was spent or written: the live key's balance, ledger, library, calendar and
 *   auto-top-up settings are the same before and after both runs;
 * - no key (the live key, or the bad key the row used) appears in any error message, description,
 *   context or output (leaks.ts, also after the whole file).
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { router } from '../../nodes/Compliance/v1/actions/router.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { fakeExecute, NODE, type FakeCredentials } from '../n8n/unit/fakeContext.js';
import { collect, findLeaks, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const KEY = 'csk_live_hardening_badinput_n8n_0001';
const UNKNOWN_KEY = 'csk_live_hardening_never_issued_n8n_0001';
const SPACED_KEY = 'csk_live_hardening badinput n8n 0002';
const CRLF_KEY = `${KEY}\r\nX-Evil: 1`;
registerSecret(KEY, UNKNOWN_KEY, SPACED_KEY, CRLF_KEY);

const UUID = '3f1e2d4c-5b6a-4789-8abc-def012345678';
const text = (n: number) => 'Access is reviewed quarterly. '.repeat(Math.ceil(n / 30)).slice(0, n);
const POLICY = text(600);

function nested(depth: number): IDataObject {
  let value: IDataObject = { leaf: 'x' };
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function binaryItem(property: string, data: Buffer, fileName: string | undefined, mimeType: string): INodeExecutionData {
  const binary: IBinaryData = { data: data.toString('base64'), mimeType, ...(fileName ? { fileName } : {}), fileSize: String(data.length) };
  return { json: {}, binary: { [property]: binary } };
}

interface Row {
  name: string;
  parameters: IDataObject;
  credentials?: Partial<FakeCredentials>;
  /** The input item (repeated for the Continue On Fail run); default `{ json: {} }`. */
  item?: INodeExecutionData;
  /** `operation`: refused locally, nothing sent. `api`: the service's answer with this status. */
  error: 'operation' | 'api';
  status?: number;
  code?: string;
  /** What the message must name: the field (display name or API field). */
  names: RegExp;
  /** What the description or hint must say: the fix. */
  fix: RegExp;
}

const library = (operation: string, parameters: IDataObject) => ({ resource: 'library', operation, ...parameters });
const ingest = (parameters: IDataObject) => library('ingest', { title: 'Access review', content: POLICY, additionalFields: {}, ...parameters });
const autoTopUp = (parameters: IDataObject) => ({ resource: 'billing', operation: 'setAutoTopUp', enabled: true, thresholdTokens: 1_000_000, pack: 'pack10', ...parameters });
const calendar = (parameters: IDataObject) => ({ resource: 'calendar', operation: 'set', cadence: 'quarterly', ...parameters });
const map = (parameters: IDataObject) => ({ resource: 'document', operation: 'map', framework: 'iso-27001', inputDataType: 'binary', binaryPropertyName: 'data', options: {}, waitForCompletion: true, ...parameters });
const PING = { resource: 'account', operation: 'ping' };
const BASE_URL_FIX = /https|expected https:\/\/<host>|loopback|API key separately/;

export const N8N_ROWS: Row[] = [
  // The credential.
  { name: 'base URL that is not a URL', parameters: PING, credentials: { baseUrl: 'not a url' }, error: 'operation', code: 'invalid_base_url', names: /baseUrl/, fix: BASE_URL_FIX },
  { name: 'plain http to a remote host', parameters: PING, credentials: { baseUrl: 'http://api.example.com/api/public/v1' }, error: 'operation', code: 'invalid_base_url', names: /baseUrl.*https/, fix: /loopback/ },
  { name: 'base URL with a wrong path', parameters: PING, credentials: { baseUrl: 'https://api.example.com/v2' }, error: 'operation', code: 'invalid_base_url', names: /baseUrl path/, fix: BASE_URL_FIX },
  { name: 'base URL carrying credentials', parameters: PING, credentials: { baseUrl: 'https://user:pw@api.example.com' }, error: 'operation', code: 'invalid_base_url', names: /baseUrl/, fix: /API key separately/ },
  { name: 'missing API key', parameters: PING, credentials: { apiKey: '' }, error: 'operation', code: 'invalid_api_key', names: /API Key.*missing/, fix: /paste the key/ },
  { name: 'API key with spaces', parameters: PING, credentials: { apiKey: SPACED_KEY }, error: 'operation', code: 'invalid_api_key', names: /API Key.*malformed/, fix: /without spaces/ },
  { name: 'API key with a line break (header injection)', parameters: PING, credentials: { apiKey: CRLF_KEY }, error: 'operation', code: 'invalid_api_key', names: /API Key.*malformed/, fix: /line breaks/ },
  { name: 'unknown API key (401)', parameters: { resource: 'billing', operation: 'get' }, credentials: { apiKey: UNKNOWN_KEY }, error: 'api', status: 401, code: 'invalid_api_key', names: /API key/i, fix: /key/i },
  // Billing.
  { name: 'checkout of an unknown pack', parameters: { resource: 'billing', operation: 'createCheckout', pack: 'pack7' }, error: 'operation', code: 'invalid_pack', names: /pack/, fix: /pack10/ },
  { name: 'auto-top-up threshold below 100,000', parameters: autoTopUp({ thresholdTokens: 99_999 }), error: 'operation', code: 'invalid_threshold', names: /Threshold \(Tokens\) in Set Auto-Top-Up/, fix: /100,000/ },
  { name: 'auto-top-up threshold not a whole number', parameters: autoTopUp({ thresholdTokens: 150_000.5 }), error: 'operation', code: 'invalid_threshold', names: /Threshold \(Tokens\) in Set Auto-Top-Up/, fix: /whole number/ },
  { name: 'auto-top-up threshold as text', parameters: autoTopUp({ thresholdTokens: 'lots' }), error: 'operation', code: 'invalid_threshold', names: /Threshold \(Tokens\) in Set Auto-Top-Up/, fix: /whole number/ },
  { name: 'auto-top-up with an unknown pack', parameters: autoTopUp({ pack: 'pack7' }), error: 'operation', code: 'invalid_pack', names: /pack/, fix: /pack10/ },
  // Calendar.
  { name: 'weekly cadence', parameters: calendar({ cadence: 'weekly' }), error: 'operation', code: 'invalid_cadence', names: /Cadence in Set Calendar/, fix: /monthly/ },
  { name: 'first review date in prose', parameters: calendar({ firstReviewAt: 'next monday' }), error: 'operation', code: 'invalid_timestamp', names: /First Review At in Set Calendar/, fix: /ISO 8601/ },
  { name: 'first review date that does not exist', parameters: calendar({ firstReviewAt: '2031-02-30T09:00:00Z' }), error: 'operation', code: 'invalid_timestamp', names: /First Review At in Set Calendar/, fix: /ISO 8601/ },
  { name: 'first review date that does not exist, zone-less (n8n dateTime)', parameters: calendar({ firstReviewAt: '2031-04-31T09:00:00' }), error: 'operation', code: 'invalid_timestamp', names: /First Review At in Set Calendar/, fix: /ISO 8601/ },
  { name: 'first review date as an object', parameters: calendar({ firstReviewAt: { date: '2031-03-01' } }), error: 'operation', code: 'invalid_request', names: /First Review At/, fix: /First Review At/ },
  // Library.
  { name: 'ingest content of 199 characters', parameters: ingest({ content: text(199) }), error: 'operation', code: 'content_too_short', names: /Content in Ingest Library Document has 199 characters/, fix: /at least 200/ },
  { name: 'ingest content of 300,001 characters', parameters: ingest({ content: text(300_001) }), error: 'operation', code: 'content_too_long', names: /Content in Ingest Library Document has 300,001 characters/, fix: /300,000/ },
  { name: 'ingest of 5 MB of content', parameters: ingest({ content: text(5_000_000) }), error: 'operation', code: 'content_too_long', names: /Content in Ingest Library Document has 5,000,000 characters/, fix: /split the document/ },
  { name: 'ingest of 300 Braille blanks (no letter or digit, issue 37)', parameters: ingest({ content: '\u2800'.repeat(300) }), error: 'operation', code: 'empty_document', names: /Content in Ingest Library Document has no letter or digit/, fix: /document's text/ },
  { name: 'ingest of 300 combining marks alone', parameters: ingest({ content: '\u0301'.repeat(300) }), error: 'operation', code: 'empty_document', names: /Content in Ingest Library Document has no letter or digit/, fix: /document's text/ },
  { name: 'ingest content as a JSON object', parameters: ingest({ content: { text: POLICY } }), error: 'operation', names: /Content in Ingest Library Document/, fix: /./ },
  { name: 'ingest tags given as a number', parameters: ingest({ additionalFields: { tags: 7 } }), error: 'operation', code: 'invalid_request', names: /Tags in Ingest Library Document must be comma-separated text.*not a number/, fix: /Set Tags to/ },
  { name: 'ingest tags as a huge list of numbers', parameters: ingest({ additionalFields: { tags: Array.from({ length: 100_000 }, (_, i) => i) } }), error: 'operation', code: 'invalid_request', names: /Tags .*not a list/, fix: /Set Tags to/ },
  { name: 'ingest title as a deeply nested object', parameters: ingest({ title: nested(500) }), error: 'operation', code: 'invalid_request', names: /Title in Ingest Library Document must be text, not an object/, fix: /Set Title to/ },
  { name: 'refresh content too short', parameters: library('refresh', { documentId: 'doc_0123456789abcdef', content: 'short' }), error: 'operation', code: 'content_too_short', names: /Content in Refresh Library Document/, fix: /at least 200/ },
  { name: 'refresh of an unknown document (404)', parameters: library('refresh', { documentId: 'doc_0123456789abcdef', content: POLICY }), error: 'api', status: 404, names: /doc_0123456789abcdef|document/i, fix: /./ },
  { name: 'delete with a path-escaping document id', parameters: library('delete', { documentId: '../../billing' }), error: 'operation', code: 'invalid_id', names: /\bid\b/, fix: /id returned by ingest/ },
  { name: 'search with an empty query', parameters: library('search', { query: '   ', returnAll: false, limit: 5 }), error: 'operation', code: 'missing_query', names: /Query in Search Library/, fix: /./ },
  { name: 'search limit as text', parameters: library('search', { query: 'least privilege', returnAll: false, limit: 'ten' }), error: 'operation', names: /Limit in Search Library/, fix: /./ },
  { name: 'search tag filter as an object', parameters: library('search', { query: 'least privilege', returnAll: false, limit: 5, filters: { tags: { a: 1 } } }), error: 'operation', code: 'invalid_request', names: /Tags .*not an object/, fix: /Set Tags to/ },
  // Jobs and downloads.
  { name: 'job id that is not a UUID', parameters: { resource: 'job', operation: 'get', jobId: 'abc' }, error: 'operation', code: 'invalid_job_id', names: /Job ID in Get Job/, fix: /UUID/ },
  { name: 'job wait with a path-traversal job id', parameters: { resource: 'job', operation: 'wait', jobId: '../billing', waitTimeout: 5, onTimeout: 'fail' }, error: 'operation', code: 'invalid_job_id', names: /Job ID in Wait for a job/, fix: /UUID/ },
  { name: 'unknown job id (404)', parameters: { resource: 'job', operation: 'get', jobId: UUID }, error: 'api', status: 404, code: 'job_not_found', names: /job/i, fix: /./ },
  { name: 'download in an unsupported format', parameters: { resource: 'document', operation: 'download', jobId: UUID, format: 'exe' }, error: 'operation', code: 'unsupported_format', names: /Format in Download Document/, fix: /json, md, pdf, docx/ },
  { name: 'download of an unknown job (404)', parameters: { resource: 'document', operation: 'download', jobId: UUID, format: 'pdf' }, error: 'api', status: 404, names: /job|document/i, fix: /./ },
  // Generation and mapping.
  { name: 'generate with the framework as an object', parameters: { resource: 'document', operation: 'generate', framework: { slug: 'gdpr' } }, error: 'operation', code: 'invalid_request', names: /Framework in Generate Document must be text/, fix: /Set Framework to/ },
  { name: 'generate with a deeply nested JSON context', parameters: { resource: 'document', operation: 'generate', framework: 'gdpr', additionalFields: { context: nested(1_000) } }, error: 'operation', code: 'invalid_request', names: /Context in Generate Document must be text/, fix: /Set Context to/ },
  { name: 'map against a framework that is not verified', parameters: map({ framework: 'dora', inputDataType: 'text', content: POLICY }), error: 'api', status: 400, code: 'framework_not_verified', names: /verified framework/, fix: /verified framework/ },
  { name: 'map against an unknown framework', parameters: map({ framework: 'no-such-framework-xyz', inputDataType: 'text', content: POLICY }), error: 'api', status: 404, code: 'framework_not_found', names: /framework/i, fix: /Closest|suggest/ },
  { name: 'map upload over 10 MB', parameters: map({}), item: binaryItem('data', Buffer.alloc(10 * 1024 * 1024 + 1, 0x41), 'big.pdf', 'application/pdf'), error: 'operation', code: 'upload_too_large', names: /file "big\.pdf".*10 MB/, fix: /Split the document/ },
  { name: 'map upload of an executable', parameters: map({}), item: binaryItem('data', Buffer.from('MZ\x90\x00'), 'tool.exe', 'application/x-msdownload'), error: 'operation', code: 'unsupported_file_type', names: /file "tool\.exe"/, fix: /Convert the file/ },
  { name: 'map upload of a legacy .doc', parameters: map({}), item: binaryItem('data', Buffer.from('legacy'), 'policy.doc', 'application/msword'), error: 'operation', code: 'unsupported_file_type', names: /file "policy\.doc"/, fix: /Re-save the file as \.docx/ },
  { name: 'map upload with no name and an unknown MIME type', parameters: map({}), item: binaryItem('data', Buffer.from('bytes'), undefined, 'application/octet-stream'), error: 'operation', names: /binary field "data"/, fix: /File Name/ },
  { name: 'map from a missing binary property', parameters: map({ binaryPropertyName: 'attachment' }), item: binaryItem('data', Buffer.from(POLICY), 'policy.txt', 'text/plain'), error: 'operation', names: /binary field 'attachment'/, fix: /input binary field name/ },
  { name: 'map from an item without any binary data', parameters: map({}), item: { json: { text: POLICY } }, error: 'operation', names: /binary file 'data'/, fix: /previous node outputs a binary file/ },
  // Resource and operation values.
  { name: 'unknown resource', parameters: { resource: 'admin', operation: 'dropTables' }, error: 'operation', names: /resource "admin"/, fix: /Choose a Resource: .*library/ },
  { name: 'unknown operation', parameters: { resource: 'library', operation: 'dropTables' }, error: 'operation', names: /operation "dropTables"/, fix: /Choose an Operation of library: .*search/ },
  { name: 'operation named after an Object prototype member', parameters: { resource: 'library', operation: 'constructor' }, error: 'operation', names: /operation "constructor"/, fix: /Choose an Operation of library/ },
];

let box: RunningSandbox;
let credentials: FakeCredentials;

/** What "spent or written" would change for the live key. */
async function state(): Promise<string> {
  const headers = { authorization: `Bearer ${KEY}` };
  const get = async (path: string) => {
    const response = await fetch(`${box.baseUrl}${path}`, { headers });
    expect(response.status, path).toBe(200);
    return (await response.json()) as IDataObject;
  };
  const billing = await get('/billing');
  const documents = await get('/library?limit=100');
  return JSON.stringify({ balance: billing.balanceTokens, ledger: billing.ledger, documents: documents.documents, calendar: await get('/calendar'), autoTopUp: await get('/billing/auto-topup') }, null, 1);
}

beforeAll(async () => {
  box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, badKeyThreshold: 1_000, keys: [`${KEY}:live:50000000`] });
  credentials = { apiKey: KEY, baseUrl: box.origin, authHeader: 'bearer' };
  // Some real state, so "unchanged" compares something: a document, a calendar, an auto-top-up.
  for (const parameters of [ingest({ additionalFields: { tags: 'access' } }), calendar({ firstReviewAt: '2031-03-01T09:00:00Z' }), autoTopUp({ thresholdTokens: 2_000_000 })]) {
    const { context } = fakeExecute({ credentials, parameters });
    await router.call(context);
  }
}, 60_000);

afterAll(async () => {
  await box?.close();
});

/** The fake context, with n8n-core's own errors for a missing binary field (as n8n 2.x throws them). */
function context(row: Row, items: INodeExecutionData[], continueOnFail: boolean) {
  const made = fakeExecute({ credentials: { ...credentials, ...row.credentials }, parameters: row.parameters, items, continueOnFail });
  const helpers = made.context.helpers as unknown as { assertBinaryData: (itemIndex: number, property: string) => IBinaryData };
  helpers.assertBinaryData = (itemIndex, property) => {
    const binary = items[itemIndex]?.binary;
    if (binary === undefined) {
      throw new NodeOperationError(NODE, `This operation expects the node's input data to contain a binary file '${property}', but none was found [item ${itemIndex}]`, {
        itemIndex,
        description: 'Make sure that the previous node outputs a binary file',
      });
    }
    const data = binary[property];
    if (data === undefined) {
      throw new NodeOperationError(NODE, `The item has no binary field '${property}' [item ${itemIndex}]`, {
        itemIndex,
        description: 'Check that the parameter where you specified the input binary field name is correct, and that it matches a field in the binary input',
      });
    }
    return data;
  };
  return made;
}

function secretsOf(row: Row): string[] {
  return [KEY, ...(row.credentials?.apiKey ? [row.credentials.apiKey] : [])].filter((secret) => secret.length >= 8);
}

describe('bad input: the n8n Compliance node', () => {
  it('the catalogue has at least 20 rows, each with a distinct name', () => {
    expect(N8N_ROWS.length).toBeGreaterThanOrEqual(20);
    expect(new Set(N8N_ROWS.map((row) => row.name)).size).toBe(N8N_ROWS.length);
  });

  it.each(N8N_ROWS)('$name → $error error naming the field and the fix; Continue On Fail; nothing spent; no key', { timeout: 60_000 }, async (row) => {
    const before = await state();
    const item = row.item ?? { json: {} };

    // 1. Without Continue On Fail: the node throws the right n8n error.
    const failing = context(row, [item], false);
    const error = (await router.call(failing.context).then(
      (output) => ({ notThrown: output }),
      (caught: unknown) => caught,
    )) as NodeApiError | NodeOperationError;
    const seen = JSON.stringify({ message: error.message, description: error.description, context: error.context });
    collect(`n8n ${row.name} error`, seen);
    if (row.error === 'operation') {
      expect(error, seen).toBeInstanceOf(NodeOperationError);
      expect(error).not.toBeInstanceOf(NodeApiError);
      // A local refusal: nothing reached the network.
      expect(failing.requests.map((request) => `${request.method} ${request.url}`)).toEqual([]);
    } else {
      expect(error, seen).toBeInstanceOf(NodeApiError);
      expect((error as NodeApiError).httpCode).toBe(String(row.status));
      expect(error.context.requestId, 'the request id of the service error').toEqual(expect.any(String));
    }
    if (row.code) expect(error.context.code, seen).toBe(row.code);
    expect(error.message).toMatch(row.names);
    const fix = `${error.description ?? ''} ${String(error.context.hint ?? '')}`;
    expect(fix, 'the description says what to do').toMatch(row.fix);
    expect(fix.trim().length).toBeGreaterThan(10);
    expect(`${error.message}\n${error.description ?? ''}`, 'no stack trace').not.toMatch(/\n\s+at .+:\d+:\d+/);

    // 2. With Continue On Fail: no throw; each input item gets its error, paired with it.
    const continuing = context(row, [item, item], true);
    const [output] = await router.call(continuing.context);
    collect(`n8n ${row.name} output`, JSON.stringify(output));
    expect(output).toHaveLength(2);
    output!.forEach((result, index) => {
      expect(result.pairedItem).toEqual({ item: index });
      expect(result.binary).toBeUndefined();
      expect(String(result.json.error)).toMatch(row.names);
      expect(`${String(result.json.hint ?? '')} ${String(result.json.description ?? '')}`).toMatch(row.fix);
      if (row.code) expect(result.json.code).toBe(row.code);
      if (row.status) expect(result.json.status).toBe(row.status);
    });
    if (row.error === 'operation') expect(continuing.requests).toEqual([]);

    // 3. Nothing spent or written; no key in anything the node returned or threw.
    expect(await state()).toBe(before);
    expect(findLeaks([{ place: `${row.name} error`, text: seen }, { place: `${row.name} output`, text: JSON.stringify(output) }], secretsOf(row))).toEqual([]);
  });

  it('control: the same operations with good input do spend and write, and the snapshot sees it', { timeout: 60_000 }, async () => {
    const before = await state();
    const { context: good } = fakeExecute({ credentials, parameters: ingest({ title: 'Control', content: `${POLICY} Control.`, additionalFields: { tags: ['access', 'control'] } }) });
    const [output] = await router.call(good);
    collect('n8n control output', JSON.stringify(output));
    expect(output![0]!.json).toMatchObject({ status: 'completed', documentId: expect.any(String) });
    const after = JSON.parse(await state()) as { balance: number; documents: Array<{ title: string; tags: string[] }> };
    expect(after.balance).toBe((JSON.parse(before) as { balance: number }).balance - 400_000);
    expect(after.documents.find((document) => document.title === 'Control')?.tags).toEqual(expect.arrayContaining(['access', 'control']));
  });
});
