/**
 * The action node with a fake execute context whose requests go to a real sandbox: parameter
 * handling of every operation (what is sent, what comes out, pairedItem) and error mapping.
 */
import type { IDataObject, ILoadOptionsFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operationIds, operations } from '../../../api/operations.js';
import { Compliance } from '../../../nodes/Compliance/Compliance.node.js';
import { resources } from '../../../nodes/Compliance/v1/actions/resources.js';
import { router } from '../../../nodes/Compliance/v1/actions/router.js';
import { executeOnce as mapPolicySet } from '../../../nodes/Compliance/v1/actions/review/mapPolicySet.operation.js';
import { createClient } from '../../../nodes/shared/client.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { ComplianceClient } from '../../../api/node/index.js';
import { searchFrameworks, searchLibraryDocuments } from '../../../nodes/Compliance/v1/methods/listSearch.js';
import { TOOL_DESCRIPTION } from '../../../nodes/Compliance/v1/helpers/tool.js';
import { fakeExecute, type FakeCredentials, type RecordedRequest } from './fakeContext.js';
import { sarifErrors } from '../../fixtures/sarif/validateSarif.js';

const KEY = 'csk_sandbox_unit_node_key_00001';
const SLOW_KEY = 'csk_sandbox_unit_slow_key_00001';
const PICKER_KEY = 'csk_sandbox_unit_picker_key_0001';
const SYNC_KEY = 'csk_sandbox_unit_sync_key_000001';
/** A live key: its ledger shows what the report formats cost. */
const LIVE_KEY = 'csk_live_unit_node_formats_00001';
/** A live key for the money rule of Map Policy Set: its balance shows what was spent. */
const CAP_KEY = 'csk_live_unit_node_map_cap_00001';
/** A live key for the money rule of the single charged operations: its balance shows what was spent. */
const POOR_KEY = 'csk_live_unit_node_poor_0000001';
const SPEND_KEY = 'csk_live_unit_node_spend_000001';
const LONG_TEXT =
  'Access to production systems follows least privilege. Access is reviewed every quarter by the system owner, ' +
  'privileged accounts need multi-factor authentication, and leavers lose access within one working day. ';

let sandbox: RunningSandbox;
let slowSandbox: RunningSandbox;
/** Started with fault injection: a request's X-Sandbox-Fault header makes it fail. */
let faultySandbox: RunningSandbox;
let credentials: FakeCredentials;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [KEY, PICKER_KEY, SYNC_KEY, `${LIVE_KEY}:live:10000000`, `${CAP_KEY}:live:10000000`] });
  slowSandbox = await startSandbox({ port: 0, jobSeconds: 30, keys: [SLOW_KEY] });
  faultySandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [KEY], faults: true });
  credentials = { apiKey: KEY, baseUrl: sandbox.origin, authHeader: 'bearer' };
});
afterAll(async () => {
  await sandbox?.close();
  await slowSandbox?.close();
  await faultySandbox?.close();
});

async function run(parameters: IDataObject | IDataObject[], options: { items?: INodeExecutionData[]; continueOnFail?: boolean; credentials?: FakeCredentials } = {}) {
  const { context, requests } = fakeExecute({ credentials: options.credentials ?? credentials, parameters, ...options });
  const [output] = await router.call(context);
  return { output: output!, requests, sent: withoutPricing(requests), json: output![0]?.json as IDataObject };
}

/** The requests but the free reads that price a charged call (GET /ping and GET /billing, spendOnce's). */
function withoutPricing(requests: RecordedRequest[]): RecordedRequest[] {
  return requests.filter((request) => !(request.method === 'GET' && /\/(ping|billing)$/.test(new URL(request.url).pathname)));
}

function bodyOf(request: { body?: string | Buffer } | undefined): IDataObject {
  return JSON.parse(String(request?.body)) as IDataObject;
}

describe('node description', () => {
  it('exposes every operation of the table exactly once, under the resource the table names', () => {
    const exposed = Object.entries(resources).flatMap(([resource, { operations: entries }]) =>
      Object.values(entries).map((entry) => ({ resource, id: entry.operationId })),
    );
    for (const id of operationIds) {
      expect(exposed.filter((entry) => entry.id === id && entry.resource === operations[id].resource).length, id).toBeGreaterThanOrEqual(1);
    }
    // Job → Wait polls getJob; Review's operations are the review loop's, over several rows.
    expect(exposed.filter((entry) => entry.resource !== 'review')).toHaveLength(operationIds.length + 1);
    expect(Object.keys(resources.review.operations).sort()).toEqual(['mapPolicySet', 'planGapIssues', 'syncDocuments']);
  });

  it('derives option descriptions, actions and cost notes from the table and offers Wait for Completion where jobs are created', () => {
    const node = new Compliance();
    const description = node.nodeVersions[1]!.description;
    expect(description.usableAsTool).toMatchObject({ replacements: { description: TOOL_DESCRIPTION } });
    const selectors = description.properties.filter((property) => property.name === 'operation');
    const options = selectors.flatMap((selector) => selector.options as Array<{ value: string; description: string; action: string }>);
    const search = options.find((option) => option.action === operations.searchLibrary.summary)!;
    expect(search.description).toBe('Full-text search over the library, ranked. 5,000 tokens on live keys.');
    expect(options.find((option) => option.value === 'generate')!.description).toMatch(/Charged on live keys\.$/);
    // Short enough for the dropdown, which cuts long descriptions ("Charged pe…").
    for (const option of options) expect(option.description.length, option.description).toBeLessThanOrEqual(70);
    expect(options.find((option) => option.value === 'getOpenApi')).toMatchObject({ action: 'Get OpenAPI description' });
    for (const [resource, { operations: entries }] of Object.entries(resources)) {
      if (resource === 'review') continue;
      for (const [value, entry] of Object.entries(entries)) {
        const waits = description.properties.some(
          (property) => property.name === 'waitForCompletion' && property.displayOptions?.show?.resource?.includes(resource) && property.displayOptions?.show?.operation?.includes(value),
        );
        expect(waits, `${resource}.${value}`).toBe(operations[entry.operationId].createsJob === true && value !== 'wait');
      }
    }
  });
});

describe('account, billing and calendar', () => {
  it.each([
    ['ping', '/ping', { mode: 'sandbox' }],
    ['getCapabilities', '/capabilities', { formats: ['json', 'md', 'pdf', 'docx'] }],
    ['getUsage', '/usage', {}],
    ['getServiceCard', '/api/public/v1', { version: 'v1' }],
    ['getOpenApi', '/openapi.json', { openapi: expect.stringMatching(/^3\./) }],
  ])('account %s', async (operation, path, expected) => {
    const { json, requests, output } = await run({ resource: 'account', operation });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.method).toBe('GET');
    expect(new URL(requests[0]!.url).pathname.replace(/\/$/, '')).toBe(`/api/public/v1${path === '/api/public/v1' ? '' : path}`);
    expect(json).toMatchObject(expected);
    expect(output[0]!.pairedItem).toEqual({ item: 0 });
  });

  it('billing get, checkout, auto-top-up', async () => {
    expect((await run({ resource: 'billing', operation: 'get' })).json).toMatchObject({ balanceTokens: 0, meter: expect.any(Object) });
    const checkout = await run({ resource: 'billing', operation: 'createCheckout', pack: 'pack25' });
    expect(bodyOf(checkout.requests[0])).toEqual({ pack: 'pack25' });
    expect(checkout.json).toMatchObject({ url: expect.stringContaining('/checkout/'), pack: { code: 'pack25' } });
    const enable = await run({ resource: 'billing', operation: 'setAutoTopUp', enabled: true, thresholdTokens: 200_000, pack: 'pack10' });
    expect(enable.requests[0]!.method).toBe('PUT');
    expect(bodyOf(enable.requests[0])).toEqual({ enabled: true, thresholdTokens: 200_000, pack: 'pack10' });
    expect((await run({ resource: 'billing', operation: 'getAutoTopUp' })).json).toMatchObject({ enabled: true, thresholdTokens: 200_000 });
    // Disabling sends only enabled=false, whatever the hidden fields hold.
    const disable = await run({ resource: 'billing', operation: 'setAutoTopUp', enabled: false, thresholdTokens: 5, pack: 'pack500' });
    expect(bodyOf(disable.requests[0])).toEqual({ enabled: false });
  });

  it('calendar set reads a zone-less n8n date as UTC; get reads it back', async () => {
    const set = await run({ resource: 'calendar', operation: 'set', cadence: 'quarterly', firstReviewAt: '2031-03-01T09:00:00' });
    expect(bodyOf(set.requests[0])).toEqual({ cadence: 'quarterly', firstReviewAt: '2031-03-01T09:00:00.000Z' });
    expect((await run({ resource: 'calendar', operation: 'get' })).json).toMatchObject({ cadence: 'quarterly', nextReviewAt: expect.stringContaining('2031-03-01') });
    const none = await run({ resource: 'calendar', operation: 'set', cadence: 'none', firstReviewAt: '2031-03-01T09:00:00' });
    expect(bodyOf(none.requests[0])).toEqual({ cadence: 'none' });
  });
});

describe('framework and document', () => {
  it('suggest sends the query and filled additional fields only; split gives one item per candidate', async () => {
    const whole = await run({ resource: 'framework', operation: 'suggest', query: ' health data privacy ', additionalFields: { jurisdiction: 'US', domain: '' } });
    expect(bodyOf(whole.sent[0])).toEqual({ query: 'health data privacy', jurisdiction: 'US' });
    expect(whole.output).toHaveLength(1);
    const candidates = whole.json.candidates as IDataObject[];
    expect(candidates.length).toBeGreaterThan(1);
    const split = await run({ resource: 'framework', operation: 'suggest', query: 'health data privacy', splitIntoItems: true });
    expect(split.output).toHaveLength(candidates.length);
    expect(split.output.every((item) => JSON.stringify(item.pairedItem) === '{"item":0}')).toBe(true);
    expect(split.output[0]!.json).toMatchObject({ rank: 1, mode: 'sandbox' });
  });

  it('framework get', async () => {
    const { json, requests } = await run({ resource: 'framework', operation: 'get', slug: 'gdpr' });
    expect(requests[0]!.url).toMatch(/\/frameworks\/gdpr$/);
    expect(json).toMatchObject({ slug: 'gdpr', updates: expect.any(Array) });
  });

  let jobId = '';
  it('generate waits by default, and returns the accepted job when told not to wait', async () => {
    const waited = await run({
      resource: 'document',
      operation: 'generate',
      framework: 'gdpr',
      documentType: 'data_protection_policy',
      organisation: { name: 'Acme Ltd', country: '' },
      additionalFields: { humanize: true, context: '' },
    });
    expect(bodyOf(waited.sent[0])).toEqual({ framework: 'gdpr', type: 'data_protection_policy', organisation: { name: 'Acme Ltd' }, humanize: true });
    expect(waited.sent[1]!.url).toMatch(/\/jobs\//);
    expect(waited.json).toMatchObject({ status: 'completed', timedOut: false, kind: 'generation' });
    jobId = String(waited.json.jobId);
    const queued = await run({ resource: 'document', operation: 'generate', framework: 'iso-27001', waitForCompletion: false });
    expect(queued.sent).toHaveLength(1);
    expect(queued.requests.map((request) => `${request.method} ${new URL(request.url).pathname.replace('/api/public/v1', '')}`)).toEqual(['GET /ping', 'GET /billing', 'POST /documents/generate']);
    expect(queued.json).toMatchObject({ jobId: expect.any(String), estimatedSeconds: expect.any(Number) });
  });

  it('download: pdf and docx as binary with name and MIME type, md as text, json parsed', async () => {
    const pdf = await run({ resource: 'document', operation: 'download', jobId, format: 'pdf', binaryPropertyName: 'file' });
    const binary = pdf.output[0]!.binary!.file!;
    expect(binary.mimeType).toBe('application/pdf');
    expect(binary.fileName).toMatch(/\.pdf$/);
    expect(Buffer.from(binary.data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.json).toMatchObject({ jobId, format: 'pdf', fileSize: Number(binary.fileSize) });
    const docx = await run({ resource: 'document', operation: 'download', jobId, format: 'docx', binaryPropertyName: 'data', options: { fileName: 'policy.docx' } });
    expect(docx.output[0]!.binary!.data).toMatchObject({ fileName: 'policy.docx', mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' });
    const md = await run({ resource: 'document', operation: 'download', jobId, format: 'md' });
    expect(md.output[0]!.binary).toBeUndefined();
    expect(String(md.json.text)).toMatch(/^#/m);
    const json = await run({ resource: 'document', operation: 'download', jobId, format: 'json' });
    expect(json.json.document).toMatchObject({ jobId, sections: expect.any(Array) });
  });

  it('map: text content, or an upload from a binary property (named from its MIME type when needed)', async () => {
    const text = await run({ resource: 'document', operation: 'map', framework: 'iso-27001', inputDataType: 'text', content: LONG_TEXT, options: { title: 'Access' } });
    expect(bodyOf(text.sent[0])).toEqual({ framework: 'iso-27001', content: LONG_TEXT, title: 'Access' });
    expect(text.json).toMatchObject({ status: 'completed', kind: 'mapping' });
    const items: INodeExecutionData[] = [
      { json: {}, binary: { upload: { data: Buffer.from(LONG_TEXT).toString('base64'), mimeType: 'text/plain', fileName: 'policy' } } },
    ];
    const upload = await run({ resource: 'document', operation: 'map', framework: 'iso-27001', inputDataType: 'binary', binaryPropertyName: 'upload' }, { items });
    const request = upload.sent[0]!;
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(String(request.body)).toContain('filename="policy.txt"');
    expect(String(request.body)).toContain(LONG_TEXT.slice(0, 40));
    expect(upload.json).toMatchObject({ status: 'completed', kind: 'mapping' });
  });

  it('job get and wait', async () => {
    expect((await run({ resource: 'job', operation: 'get', jobId })).json).toMatchObject({ jobId, status: 'completed' });
    expect((await run({ resource: 'job', operation: 'wait', jobId, waitTimeout: 10, onTimeout: 'fail' })).json).toMatchObject({ jobId, status: 'completed', timedOut: false });
  });
});

describe('library', () => {
  let documentId = '';
  it('ingest, get, refresh, list, search, delete', async () => {
    const ingested = await run({
      resource: 'library',
      operation: 'ingest',
      title: 'Access review',
      content: LONG_TEXT,
      additionalFields: { tags: 'access, review', category: '', filename: 'policies/access.md' },
    });
    expect(bodyOf(ingested.sent[0])).toEqual({ title: 'Access review', content: LONG_TEXT, tags: ['access', 'review'], filename: 'policies/access.md' });
    expect(ingested.json).toMatchObject({ status: 'completed', documentId: expect.any(String) });
    documentId = String(ingested.json.documentId);

    const got = await run({ resource: 'library', operation: 'get', documentId, includeContent: true });
    expect(got.requests[0]!.url).toMatch(/include=content$/);
    expect(got.json).toMatchObject({ id: documentId, content: LONG_TEXT, version: 1 });

    const refreshed = await run({ resource: 'library', operation: 'refresh', documentId, content: `${LONG_TEXT}Updated.` });
    expect(refreshed.json).toMatchObject({ status: 'completed' });
    expect((await run({ resource: 'library', operation: 'get', documentId })).json).toMatchObject({ version: 2 });

    await run({ resource: 'library', operation: 'ingest', title: 'Second', content: `${LONG_TEXT} A second document.`, additionalFields: {} });
    const limited = await run({ resource: 'library', operation: 'getAll', returnAll: false, limit: 1, filters: {} });
    expect(limited.output).toHaveLength(1);
    const all = await run({ resource: 'library', operation: 'getAll', returnAll: true, filters: { tag: 'access' } });
    expect(all.output.map((item) => item.json.id)).toEqual([documentId]);

    const search = await run({ resource: 'library', operation: 'search', query: 'least privilege', returnAll: false, limit: 1, filters: { tags: '' } });
    expect(bodyOf(search.sent[0])).toEqual({ query: 'least privilege', limit: 1 });
    expect(search.output).toHaveLength(1);
    expect(search.json).toMatchObject({ rank: 1, documentId: expect.any(String), snippets: expect.any(Array) });
    const searchAll = await run({ resource: 'library', operation: 'search', query: 'least privilege', returnAll: true });
    expect(bodyOf(searchAll.sent[1])).toMatchObject({ limit: 50 });
    expect(searchAll.output.length).toBe(2);

    const deleted = await run({ resource: 'library', operation: 'delete', documentId });
    expect(deleted.requests[0]!.method).toBe('DELETE');
    expect(deleted.json).toMatchObject({ id: documentId, deleted: true });
  });
});

describe("the charged operations under review/'s money rule (Max Tokens, Dry Run, tokensSpent)", () => {
  // Its own sandbox, unthrottled: these runs make more requests a minute than a live key may.
  let spendBox: RunningSandbox;
  let stored = '';
  beforeAll(async () => {
    spendBox = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${SPEND_KEY}:live:10000000`, `${POOR_KEY}:live:1000`] });
    // A library document for Search to find and Refresh to replace.
    const client = new ComplianceClient({ apiKey: SPEND_KEY, baseUrl: spendBox.baseUrl });
    const accepted = await client.ingestLibraryDocument({ title: 'Stored', content: LONG_TEXT });
    stored = String((await client.waitForJob(accepted.jobId, { timeoutMs: 10_000 })).documentId ?? accepted.documentId);
  });
  afterAll(async () => {
    await spendBox?.close();
  });
  const live = () => ({ apiKey: SPEND_KEY, baseUrl: spendBox.origin, authHeader: 'bearer' as const });
  const balance = async () => (await new ComplianceClient({ apiKey: SPEND_KEY, baseUrl: spendBox.baseUrl }).getBilling()).balanceTokens;
  const posts = (requests: RecordedRequest[]) => requests.filter((request) => request.method !== 'GET');
  let serial = 0;
  // The sandbox's live prices (GET /billing for the listed ones, the operation table for Ingest).
  const cases: Array<[string, number, () => IDataObject]> = [
    ['Suggest Framework', 20_000, () => ({ resource: 'framework', operation: 'suggest', query: 'health data privacy' })],
    ['Generate Document', 150_000, () => ({ resource: 'document', operation: 'generate', framework: 'gdpr', documentType: 'data_protection_policy' })],
    // A new text each time: the library would refuse a replay of the same document.
    ['Ingest Library Document', 400_000, () => ({ resource: 'library', operation: 'ingest', title: 'Spend', content: `${LONG_TEXT} Copy ${(serial += 1)}.`, additionalFields: {} })],
    ['Map Document', 250_000, () => ({ resource: 'document', operation: 'map', framework: 'iso-27001', inputDataType: 'text', content: LONG_TEXT, options: {} })],
    ['Refresh Library Document', 400_000, () => ({ resource: 'library', operation: 'refresh', documentId: stored, content: `${LONG_TEXT} Version ${(serial += 1)}.` })],
    ['Search Library', 5_000, () => ({ resource: 'library', operation: 'search', query: 'least privilege', returnAll: false, limit: 5, filters: {} })],
  ];

  it.each(cases)('%s under its cap: tokensSpent is what the balance dropped by', async (_label, price, parameters) => {
    const before = await balance();
    const ran = await run({ ...parameters(), maxTokens: price }, { credentials: live() });
    expect(ran.output.length).toBeGreaterThan(0);
    for (const item of ran.output) expect(item.json.tokensSpent).toBe(price);
    expect(before - (await balance())).toBe(price);
  });

  it.each(cases)('%s with Max Tokens below its price is refused, naming the cap; nothing sent, nothing charged', async (label, price, parameters) => {
    const before = await balance();
    const { context, requests } = fakeExecute({ credentials: live(), parameters: { ...parameters(), maxTokens: price - 1 } });
    const refusal = router.call(context);
    await expect(refusal).rejects.toThrow(`${label} refused before spending anything: 1 × `);
    await expect(refusal).rejects.toThrow(`costs ${price.toLocaleString('en-US')} tokens, but the cap of ${(price - 1).toLocaleString('en-US')} tokens allows`);
    await expect(refusal).rejects.toMatchObject({ description: `Set Max Tokens to ${price.toLocaleString('en-US')} or more, or plan fewer calls; a dry run shows the plan.` });
    expect(posts(requests)).toEqual([]);
    const rendered = await run({ ...parameters(), maxTokens: price - 1 }, { credentials: live(), continueOnFail: true });
    expect(rendered.json).toMatchObject({ status: 'refused', tokensSpent: 0, plannedTokens: price, maxTokens: price - 1, mode: 'live', code: 'budget_exceeded' });
    expect(posts(rendered.requests)).toEqual([]);
    expect(await balance()).toBe(before);
  });

  it('an item refused for the balance (Continue On Fail) carries the code the service would answer, insufficient_balance, so a workflow routes both alike', async () => {
    const poor = { apiKey: POOR_KEY, baseUrl: spendBox.origin, authHeader: 'bearer' as const };
    const rendered = await run({ resource: 'document', operation: 'generate', framework: 'gdpr', documentType: 'data_protection_policy' }, { credentials: poor, continueOnFail: true });
    expect(rendered.json).toMatchObject({ status: 'refused', tokensSpent: 0, plannedTokens: 150_000, code: 'insufficient_balance', error: expect.stringMatching(/^refused before spending anything: .*balance/) });
    expect(posts(rendered.requests)).toEqual([]);
  });

  it.each(cases)('%s as a dry run is priced only (status skipped): nothing sent, nothing charged', async (_label, price, parameters) => {
    const before = await balance();
    const dry = await run({ ...parameters(), dryRun: true }, { credentials: live() });
    expect(dry.output).toHaveLength(1);
    expect(dry.json).toMatchObject({ status: 'skipped', dryRun: true, tokensSpent: 0, plannedTokens: price, maxTokens: null, mode: 'live' });
    expect(dry.json.reasons).toEqual([expect.stringMatching(new RegExp(`^Dry run, nothing sent: 1 × \\w+ at ${price.toLocaleString('en-US')} tokens, ${price.toLocaleString('en-US')} tokens at live prices\\.$`))]);
    expect(posts(dry.requests)).toEqual([]);
    // Under a cap that would refuse it, a dry run is still no error: it says what a real run would meet.
    const overCap = await run({ ...parameters(), dryRun: true, maxTokens: price - 1 }, { credentials: live() });
    expect(overCap.json).toMatchObject({ status: 'skipped', dryRun: true, tokensSpent: 0, plannedTokens: price, maxTokens: price - 1 });
    expect(overCap.json.reasons).toEqual([expect.stringContaining(`A real run would be refused before spending anything: 1 × `)]);
    expect(String((overCap.json.reasons as string[])[0])).toContain(`but the cap of ${(price - 1).toLocaleString('en-US')} tokens allows`);
    expect(posts(overCap.requests)).toEqual([]);
    expect(await balance()).toBe(before);
  });

  it.each(cases)('%s: two items under a cap that fits one: the first is charged, the second refused', async (_label, price, parameters) => {
    const before = await balance();
    const items = [{ json: {} }, { json: {} }];
    const ran = await run([parameters(), parameters()].map((each) => ({ ...each, maxTokens: price + price / 2 })) as unknown as IDataObject, { credentials: live(), items, continueOnFail: true });
    const first = ran.output.filter((item) => JSON.stringify(item.pairedItem) === '{"item":0}');
    const second = ran.output.filter((item) => JSON.stringify(item.pairedItem) === '{"item":1}');
    expect(first.every((item) => item.json.tokensSpent === price)).toBe(true);
    expect(second.map((item) => item.json)).toEqual([expect.objectContaining({ status: 'refused', tokensSpent: 0, plannedTokens: price, capRemainingTokens: price / 2 })]);
    expect(posts(ran.requests)).toHaveLength(1);
    expect(before - (await balance())).toBe(price);
  });

  it.each(cases)('%s: two items under a cap that fits one, without Continue On Fail: refused whole before anything is sent', async (label, price, parameters) => {
    const before = await balance();
    const { context, requests } = fakeExecute({ credentials: live(), parameters: [parameters(), parameters()].map((each) => ({ ...each, maxTokens: price + price / 2 })), items: [{ json: {} }, { json: {} }] });
    const refusal = router.call(context);
    await expect(refusal).rejects.toThrow(`${label} refused before spending anything: 2 × `);
    await expect(refusal).rejects.toThrow(`costs ${(2 * price).toLocaleString('en-US')} tokens, but the cap of ${(price + price / 2).toLocaleString('en-US')} tokens allows ${(price + price / 2).toLocaleString('en-US')} tokens more: enough for 1 of the 2 calls`);
    await expect(refusal).rejects.toMatchObject({ description: `Set Max Tokens to ${(2 * price).toLocaleString('en-US')} or more, or plan fewer calls; a dry run shows the plan.` });
    expect(posts(requests)).toEqual([]);
    expect(await balance()).toBe(before);
  });

  it('Max Tokens that is not a whole number of tokens is refused before any request, naming the field', async () => {
    const { context, requests } = fakeExecute({ credentials: live(), parameters: { ...cases[0]![2](), maxTokens: -5 } });
    await expect(router.call(context)).rejects.toThrow(/^Max Tokens in Suggest Framework must be a whole number of tokens, 0 or more \(got -5\)/);
    expect(requests).toEqual([]);
  });
});

describe('search snippets', () => {
  it('are plain text with highlight offsets by default, markdown emphasis or the HTML as sent on request', async () => {
    await run({ resource: 'library', operation: 'ingest', title: 'Snippets', content: `${LONG_TEXT} R&D systems <admin> keep zebrafish records.`, additionalFields: {} });
    const search = (options: IDataObject) => run({ resource: 'library', operation: 'search', query: 'privilege', returnAll: false, limit: 5, filters: {}, options });
    const html = (await search({ snippetFormat: 'html' })).output.flatMap((item) => item.json.snippets as string[]);
    expect(html.join(' ')).toMatch(/<mark>privilege<\/mark>/i);
    const plain = await search({});
    for (const item of plain.output) {
      const snippets = item.json.snippets as string[];
      const highlights = item.json.snippetHighlights as Array<Array<{ start: number; end: number }>>;
      expect(snippets.join(' ')).not.toMatch(/<\/?mark>|&amp;|&lt;/);
      expect(highlights).toHaveLength(snippets.length);
      for (const [index, snippet] of snippets.entries()) {
        expect(highlights[index]!.length).toBeGreaterThan(0);
        for (const { start, end } of highlights[index]!) expect(snippet.slice(start, end).toLowerCase()).toMatch(/^privilege/);
      }
    }
    const escaped = await run({ resource: 'library', operation: 'search', query: 'zebrafish', returnAll: false, limit: 1, filters: {} });
    expect((escaped.json.snippets as string[]).join(' ')).toContain('R&D systems <admin> keep zebrafish');
    const markdown = (await search({ snippetFormat: 'markdown' })).output.flatMap((item) => item.json.snippets as string[]);
    expect(markdown.join(' ')).toMatch(/\*\*privilege\*\*/i);
    expect(markdown.join(' ')).not.toContain('<mark>');
  });
});

describe('errors', () => {
  it('a local refusal is a NodeOperationError with the code and hint; nothing is sent', async () => {
    const { context, requests } = fakeExecute({ credentials, parameters: { resource: 'framework', operation: 'suggest', query: '  ' } });
    const error = await router.call(context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(NodeOperationError);
    expect((error as NodeOperationError).context).toMatchObject({ code: 'missing_query', itemIndex: 0 });
    expect(requests).toHaveLength(0);
  });

  it("a service error is a NodeApiError with the service's code, hint and request id", async () => {
    const { context } = fakeExecute({ credentials, parameters: { resource: 'job', operation: 'get', jobId: '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a' } });
    const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeApiError;
    expect(error).toBeInstanceOf(NodeApiError);
    expect(error.httpCode).toBe('404');
    expect(error.context).toMatchObject({ code: 'job_not_found', requestId: expect.any(String), hint: expect.any(String) });
    expect(error.message).toMatch(/^Get Job: /);
    expect(error.description).toContain(`Request ID: ${String(error.context.requestId)}`);
  });

  it('a refused field is named as the UI shows it: the field label in the operation, then code, hint and request id', async () => {
    const refused = async (parameters: IDataObject) => {
      const { context, requests } = fakeExecute({ credentials, parameters });
      const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeOperationError;
      expect(error).toBeInstanceOf(NodeOperationError);
      expect(requests).toHaveLength(0);
      return error;
    };
    const job = await refused({ resource: 'job', operation: 'get', jobId: { __rl: true, mode: 'id', value: 'abc' } });
    expect(job.message).toBe('Job ID in Get Job must be a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a');
    expect(job.description).toMatch(/Code: invalid_job_id/);
    expect((await refused({ resource: 'job', operation: 'wait', jobId: '../x', waitTimeout: 5, onTimeout: 'fail' })).message).toMatch(/^Job ID in Wait for a job must be a UUID/);
    expect((await refused({ resource: 'library', operation: 'get', documentId: 'a/b' })).message).toMatch(/^Document ID in Get Library Document must be/);
    const short = await refused({ resource: 'library', operation: 'ingest', title: 'T', content: 'too short', additionalFields: {} });
    expect(short.message).toMatch(/^Content in Ingest Library Document has 9 characters/);
    expect((await refused({ resource: 'framework', operation: 'get', slug: { __rl: true, mode: 'list', value: { wrong: 1 } } })).message).toMatch(/^Framework in Get Framework must be text, not an object/);
  });

  it('a bad key gives 401 and the key appears nowhere in the error', async () => {
    const secret = 'csk_sandbox_this_key_does_not_exist_42';
    const { context } = fakeExecute({ credentials: { ...credentials, apiKey: secret, authHeader: 'xApiKey' }, parameters: { resource: 'account', operation: 'ping' } });
    const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeApiError;
    expect(error.httpCode).toBe('401');
    expect(error.context.code).toBe('invalid_api_key');
    expect(JSON.stringify({ message: error.message, description: error.description, context: error.context })).not.toContain(secret);
  });

  it('Continue On Fail returns the error for the failing item and carries on, every item paired', async () => {
    const items = [{ json: {} }, { json: {} }];
    const { output } = await run([{ resource: 'framework', operation: 'get', slug: 'no-such-framework' }, { resource: 'framework', operation: 'get', slug: 'gdpr' }] as unknown as IDataObject, {
      items,
      continueOnFail: true,
    });
    expect(output).toHaveLength(2);
    expect(output[0]).toMatchObject({ json: { code: 'framework_not_found', status: 404, error: 'Get Framework: No framework matches "no-such-framework".' }, pairedItem: { item: 0 } });
    // Regular output: no node error on the item, or n8n would reduce it to its message.
    expect(output[0]!.error).toBeUndefined();
    expect(output[1]).toMatchObject({ json: { slug: 'gdpr' }, pairedItem: { item: 1 } });
  });

  it('under "Continue (using error output)" the failing item carries the node error n8n routes by', async () => {
    const { context } = fakeExecute({ credentials, parameters: { resource: 'framework', operation: 'get', slug: 'no-such-framework' }, continueOnFail: true });
    const routed = { ...context, getNode: () => ({ ...context.getNode(), onError: 'continueErrorOutput' as const }) };
    const [output] = await router.call(routed as typeof context);
    expect(output![0]!.error).toBeInstanceOf(NodeApiError);
    expect(output![0]!.json).toMatchObject({ code: 'framework_not_found', status: 404 });
  });

  it("a wait before a retry is shown as a hint in the output pane, in the service's words; a run without one shows none", async () => {
    const { context, requests, hints } = fakeExecute({
      credentials: { ...credentials, baseUrl: faultySandbox.origin },
      parameters: { resource: 'account', operation: 'ping' },
      // The service's first answer: 503 with Retry-After 1 (the sandbox's injected fault).
      requestHeaders: (index): Record<string, string> => (index === 0 ? { 'X-Sandbox-Fault': '503' } : {}),
    });
    const [output] = await router.call(context);
    expect(output![0]!.json).toMatchObject({ mode: 'sandbox' });
    expect(requests).toHaveLength(2);
    expect(hints).toEqual([{ message: 'Waited for the service: ping: HTTP 503 service_unavailable; trying again in 1 s', type: 'info', location: 'outputPane' }]);

    const quiet = fakeExecute({ credentials: { ...credentials, baseUrl: faultySandbox.origin }, parameters: { resource: 'account', operation: 'ping' } });
    await router.call(quiet.context);
    expect(quiet.hints).toEqual([]);
  });

  it('an invalid base URL is refused before any request', async () => {
    const { context, requests } = fakeExecute({ credentials: { ...credentials, baseUrl: 'http://example.com/wrong' }, parameters: { resource: 'account', operation: 'ping' } });
    const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeOperationError;
    expect(error.context.code).toBe('invalid_base_url');
    expect(requests).toHaveLength(0);
  });

  it('a wait that runs out either fails with the job id or returns the last status, as chosen', async () => {
    const slow = { apiKey: SLOW_KEY, baseUrl: slowSandbox.baseUrl };
    const submitted = await run({ resource: 'document', operation: 'generate', framework: 'gdpr', waitForCompletion: true, waitTimeout: 0.2, onTimeout: 'returnStatus' }, { credentials: slow });
    expect(submitted.json).toMatchObject({ timedOut: true, status: 'queued', jobId: expect.any(String) });
    const { context } = fakeExecute({ credentials: slow, parameters: { resource: 'job', operation: 'wait', jobId: submitted.json.jobId, waitTimeout: 0.2, onTimeout: 'fail' } });
    const error = (await router.call(context).catch((caught: unknown) => caught)) as NodeOperationError;
    expect(error).toBeInstanceOf(NodeOperationError);
    expect(error.context).toMatchObject({ code: 'job_timeout', jobId: submitted.json.jobId });
  });
});

describe('version 2 pickers', () => {
  const rl = (value: string, mode = 'list') => ({ __rl: true, mode, value });
  const loadContext = (apiKey: string) => fakeExecute({ credentials: { ...credentials, apiKey }, parameters: {} }).context as unknown as ILoadOptionsFunctions;

  it('version 2 makes framework, document and job resource locators; version 1 keeps its text fields', () => {
    const { properties } = new Compliance().nodeVersions[2]!.description;
    const versionsOf = (name: string, type: string) =>
      properties.filter((property) => property.name === name && property.type === type && !property.displayOptions?.show?.resource?.includes('review')).map((property) => JSON.stringify(property.displayOptions?.show?.['@version']));
    for (const name of ['framework', 'documentId', 'jobId', 'slug']) {
      expect(versionsOf(name, 'resourceLocator').length, name).toBeGreaterThan(0);
      expect(new Set(versionsOf(name, 'resourceLocator')), name).toEqual(new Set(['[{"_cnd":{"gte":2}}]']));
    }
    expect(versionsOf('jobId', 'string')).toEqual(expect.arrayContaining(['[1]']));
    const job = properties.find((property) => property.name === 'jobId' && property.type === 'resourceLocator') as INodeProperties;
    const validation = job.modes![0]!.validation![0] as unknown as { properties: { regex: string } };
    expect(new RegExp(validation.properties.regex).test('3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a')).toBe(true);
    expect(new RegExp(validation.properties.regex).test('../billing')).toBe(false);
  });

  it('From List of frameworks: the verified frameworks, narrowed by the search text', async () => {
    const { verifiedFrameworks } = await new ComplianceClient({ apiKey: KEY, baseUrl: sandbox.baseUrl }).getCapabilities();
    const all = await searchFrameworks.call(loadContext(KEY));
    expect(all.results.map((result) => result.value).sort()).toEqual(verifiedFrameworks.map((framework) => framework.slug).sort());
    const first = verifiedFrameworks[0]!;
    const narrowed = await searchFrameworks.call(loadContext(KEY), first.name.slice(0, 4).toUpperCase());
    expect(narrowed.results.map((result) => result.value)).toContain(first.slug);
    expect(narrowed.results.length).toBeLessThan(all.results.length);
  });

  it('From List of library documents follows the listing pages and filters by title', async () => {
    const client = new ComplianceClient({ apiKey: PICKER_KEY, baseUrl: sandbox.baseUrl });
    for (let n = 0; n < 22; n++) await client.ingestLibraryDocument({ title: `Policy ${n}`, content: `${LONG_TEXT} Number ${n}.` });
    const first = await searchLibraryDocuments.call(loadContext(PICKER_KEY));
    expect(first.results).toHaveLength(20);
    expect(first.paginationToken).toEqual(expect.any(String));
    const second = await searchLibraryDocuments.call(loadContext(PICKER_KEY), undefined, first.paginationToken);
    expect(second.results).toHaveLength(2);
    expect(second.paginationToken).toBeUndefined();
    const titles = new Set([...first.results, ...second.results].map((result) => result.name));
    expect(titles.size).toBe(22);
    const filtered = await searchLibraryDocuments.call(loadContext(PICKER_KEY), 'policy 7');
    expect(filtered.results.map((result) => result.name)).toEqual(['Policy 7']);
  });

  it('runs with locator values: a framework picked from the list, a document and a job by ID', async () => {
    const { verifiedFrameworks } = await new ComplianceClient({ apiKey: KEY, baseUrl: sandbox.baseUrl }).getCapabilities();
    const slug = verifiedFrameworks[0]!.slug;
    expect((await run({ resource: 'framework', operation: 'get', slug: rl(slug) })).json).toMatchObject({ slug });
    const mapped = await run({ resource: 'document', operation: 'map', framework: rl(slug), inputDataType: 'text', content: LONG_TEXT, options: {} });
    expect(mapped.json).toMatchObject({ status: 'completed', jobId: expect.any(String) });
    expect((await run({ resource: 'job', operation: 'get', jobId: rl(String(mapped.json.jobId), 'id') })).json).toMatchObject({ status: 'completed' });
    const ingested = await run({ resource: 'library', operation: 'ingest', title: 'Picked', content: `${LONG_TEXT} Picked.`, additionalFields: {} });
    const documentId = String(ingested.json.documentId);
    expect((await run({ resource: 'library', operation: 'get', documentId: rl(documentId) })).json).toMatchObject({ id: documentId, title: 'Picked' });
    expect((await run({ resource: 'library', operation: 'delete', documentId: rl(documentId, 'id') })).json).toMatchObject({ deleted: true });
  });
});

describe('Review → Sync Documents', () => {
  const policy = (name: string, extra = '') => `${LONG_TEXT} The ${name} policy applies to every team.${extra}`;
  async function sync(documents: Array<{ path: string; content: string }>, settings: IDataObject = {}) {
    const base = { resource: 'review', operation: 'syncDocuments', documentSet: 'Acme/Policies', inputDataType: 'text', dryRun: false, options: {}, ...settings };
    return await run(
      documents.map((document) => ({ ...base, path: document.path, content: document.content })) as unknown as IDataObject,
      { items: documents.map((document) => ({ json: document })), credentials: { ...credentials, apiKey: SYNC_KEY } },
    );
  }
  const outcomes = (output: INodeExecutionData[]) => Object.fromEntries(output.map((item) => [item.json.path, item.json.outcome]));

  it('plans and prices first, ingests new, refreshes changed, leaves unchanged alone and deletes only when asked', async () => {
    const set = [
      { path: 'policies/access.md', content: policy('access') },
      { path: 'policies/backup.md', content: policy('backup') },
    ];
    const dry = await sync(set, { dryRun: true });
    expect(outcomes(dry.output)).toEqual({ 'policies/access.md': 'planned', 'policies/backup.md': 'planned' });
    expect(dry.json).toMatchObject({ kind: 'new', plannedTokens: 400_000, planTotalTokens: 800_000, dryRun: true, tokensSpent: 0 });
    expect(dry.requests.filter((request) => request.method !== 'GET')).toEqual([]);
    // As a dry run, a cap below the plan is no error: the plan, saying what a real run would meet.
    const dryOverCap = await sync(set, { dryRun: true, options: { maxTokens: 400_000 } });
    expect(outcomes(dryOverCap.output)).toEqual({ 'policies/access.md': 'planned', 'policies/backup.md': 'planned' });
    expect(dryOverCap.json.reasons).toEqual([expect.stringContaining('A real run would be refused before spending anything: 2 × ingestLibraryDocument at 400,000 tokens costs 800,000 tokens, but the cap of 400,000 tokens allows 400,000 tokens more')]);
    // A cap below the plan refuses the whole sync before anything is sent.
    const { context, requests } = fakeExecute({
      credentials: { ...credentials, apiKey: SYNC_KEY },
      parameters: set.map((document) => ({ resource: 'review', operation: 'syncDocuments', documentSet: 'acme/policies', inputDataType: 'text', dryRun: false, options: { maxTokens: 400_000 }, ...document })),
      items: set.map((document) => ({ json: document })),
    });
    const refusal = router.call(context);
    await expect(refusal).rejects.toThrow(/Sync Documents refused before spending anything/);
    // The plan, then the fix in the words every charged operation uses.
    await expect(refusal).rejects.toMatchObject({ description: expect.stringMatching(/^The plan costs 800,000 tokens at live prices \(2 new, 0 changed\)\. Set Max Tokens to 800,000 or more/) });
    expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);

    const first = await sync(set);
    expect(outcomes(first.output)).toEqual({ 'policies/access.md': 'ingested', 'policies/backup.md': 'ingested' });
    expect(first.output.map((item) => item.pairedItem)).toEqual(expect.arrayContaining([{ item: 0 }, { item: 1 }]));
    const again = await sync(set);
    expect(outcomes(again.output)).toEqual({ 'policies/access.md': 'kept', 'policies/backup.md': 'kept' });
    expect(again.output.every((item) => item.json.kind === 'unchanged')).toBe(true);

    const changed = [{ path: 'policies/access.md', content: policy('access', ' Reviewed yearly.') }];
    const kept = await sync(changed);
    expect(kept.output.find((item) => item.json.path === 'policies/access.md')!.json).toMatchObject({ kind: 'changed', outcome: 'refreshed' });
    expect(kept.output.find((item) => item.json.kind === 'removed')!.json).toMatchObject({ outcome: 'kept', message: expect.stringMatching(/Delete Documents That Left the Set/) });
    const removed = await sync(changed, { options: { deleteRemoved: true } });
    expect(removed.output.find((item) => item.json.kind === 'removed')!.json).toMatchObject({ outcome: 'deleted' });
    const library = await new ComplianceClient({ apiKey: SYNC_KEY, baseUrl: sandbox.baseUrl }).listAllLibraryDocuments();
    expect(library.map((document) => document.filename)).toEqual(['policies/access.md']);
  });

  it('never sends front matter, and an edit of the front matter alone is no change', async () => {
    const front = (controls: string) => `---\nsatisfies:\n  iso-27001: [${controls}]\n---\n\n`;
    const path = 'policies/front-matter.md';
    const first = await sync([{ path, content: front('A.5.15') + policy('front matter') }], { documentSet: 'acme/front-matter' });
    expect(outcomes(first.output)).toEqual({ [path]: 'ingested' });
    const client = new ComplianceClient({ apiKey: SYNC_KEY, baseUrl: sandbox.baseUrl });
    const stored = (await client.listAllLibraryDocuments()).find((document) => document.filename === path)!;
    const { content } = await client.getLibraryDocument({ id: stored.id, include: 'content' });
    expect(content).not.toContain('satisfies');
    expect(content?.startsWith(LONG_TEXT.slice(0, 40))).toBe(true);
    const edited = await sync([{ path, content: front('A.5.15, A.8.2') + policy('front matter') }], { documentSet: 'acme/front-matter' });
    expect(edited.output.find((item) => item.json.path === path)!.json).toMatchObject({ kind: 'unchanged', outcome: 'kept' });
  });
});

describe('Review → Map Policy Set', () => {
  it("maps the items' documents as one set and gives the gate's verdict with its gaps, or one item per gap", async () => {
    const documents = [
      { path: 'policies/access.md', content: LONG_TEXT },
      { path: 'policies/backup.md', content: 'Backups are taken nightly, encrypted, copied off site and restore-tested every quarter. '.repeat(3) },
    ];
    const base = { resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'list', value: 'iso-27001' }, inputDataType: 'text', mappingMode: 'combined', threshold: 80 };
    const parameters = (extra: IDataObject) => documents.map((document) => ({ ...base, ...extra, path: document.path, content: document.content }));
    const items = documents.map((document) => ({ json: document }));
    const whole = await run(parameters({ splitGaps: false }) as unknown as IDataObject, { items });
    expect(whole.output).toHaveLength(1);
    const verdict = whole.json;
    expect(verdict).toMatchObject({ passed: false, threshold: 80, framework: { slug: 'iso-27001' }, jobIds: [expect.any(String)] });
    expect(verdict.coverage).toBeGreaterThan(0);
    expect((verdict.reasons as string[]).join(' ')).toMatch(/coverage/i);
    const gaps = verdict.gaps as Array<{ key: string; controlId: string }>;
    expect(gaps.length).toBeGreaterThan(0);
    // One mapping job for the set: a single upload holding both documents.
    expect(whole.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    const split = await run(parameters({ splitGaps: true }) as unknown as IDataObject, { items });
    expect(split.output.map((item) => item.json.key)).toEqual(gaps.map((gap) => gap.key));
    expect(split.json).toMatchObject({ controlId: gaps[0]!.controlId, gate: { passed: false, coverage: verdict.coverage } });
    expect(split.output[0]!.pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
  });

  it("attaches the publisher's report files as binary fields, with evidence traced and linked at the commit given", async () => {
    const commit = 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00';
    const reportOptions = { formats: ['html', 'sarif', 'junit'], repository: 'acme/policies', commit };
    const mapped = await run({ resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false, reportOptions });
    const binary = mapped.output[0]!.binary!;
    expect(Object.keys(binary)).toEqual(['html', 'sarif', 'junit']);
    expect([binary.html!.fileName, binary.sarif!.fileName, binary.junit!.fileName]).toEqual(['report.html', 'report.sarif', 'report.junit.xml']);
    const evidence = (mapped.json.controls as Array<{ evidence: Array<{ file?: string; line?: number; endLine?: number }> }>).flatMap((control) => control.evidence);
    expect(evidence.length).toBeGreaterThan(0);
    const first = evidence[0]!;
    expect(first).toMatchObject({ file: 'policies/access.md', line: expect.any(Number), endLine: expect.any(Number) });
    const html = Buffer.from(binary.html!.data, 'base64').toString('utf8');
    expect(html).toContain(`href="https://github.com/acme/policies/blob/${commit}/policies/access.md#L${first.line}-L${first.endLine}"`);
    expect(sarifErrors(JSON.parse(Buffer.from(binary.sarif!.data, 'base64').toString('utf8')))).toEqual([]);
    const { context, requests } = fakeExecute({ credentials, parameters: { resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'a.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false, reportOptions: { formats: ['xlsx'] } }, items: [{ json: {} }] });
    await expect(router.call(context)).rejects.toThrow(/Report Formats: "xlsx" is not a report format/);
    // Refused before the mapping is priced or paid.
    expect(requests).toEqual([]);
  });

  it('the report formats cost nothing: a live key is charged the same mapping with and without them', async () => {
    const live = { ...credentials, apiKey: LIVE_KEY };
    const ledger = async () => (await new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: sandbox.baseUrl }).getBilling()).ledger.map((entry) => [entry.operation, entry.tokens]);
    const parameters = { resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false };
    const before = (await ledger()).length;
    await run(parameters, { credentials: live });
    const plain = (await ledger()).slice(before);
    const all = await run({ ...parameters, reportOptions: { formats: ['html', 'sarif', 'junit'], repository: 'acme/policies', commit: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00' } }, { credentials: live });
    expect(Object.keys(all.output[0]!.binary!)).toEqual(['html', 'sarif', 'junit']);
    const withFormats = (await ledger()).slice(before + plain.length);
    expect(plain).toHaveLength(1);
    expect(plain[0]![1]).toBeLessThan(0);
    expect(withFormats).toEqual(plain);
  });

  it("judges by the clock it is given: a waiver holds through its last day, and the report is dated by that clock", async () => {
    const parameters = { resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false };
    const mapAt = async (iso: string, extra: IDataObject = {}) => {
      const { context } = fakeExecute({ credentials, parameters: { ...parameters, ...extra }, items: [{ json: {} }] });
      const [item] = await mapPolicySet.call(context, context.getInputData(), await createClient(context), () => new Date(iso));
      return item!;
    };
    const plain = await mapAt('2030-06-30T12:00:00.000Z', { reportOptions: { formats: ['json'] } });
    const report = JSON.parse(Buffer.from(plain.binary!.json!.data, 'base64').toString('utf8')) as { generatedAt: string };
    expect(report.generatedAt).toBe('2030-06-30T12:00:00.000Z');
    const control = (plain.json.gaps as Array<{ controlId: string }>)[0]!.controlId;
    const waivers = JSON.stringify([{ control, reason: 'accepted', owner: 'ciso', expires: '2030-06-30' }]);
    expect((await mapAt('2030-06-30T23:59:59.000Z', { waivers })).json).toMatchObject({ figures: { waivedGaps: 1 } });
    expect((await mapAt('2030-07-01T00:00:00.000Z', { waivers })).json).toMatchObject({ figures: { waivedGaps: 0 } });
  });

  it("takes the framework by its catalogue name as by its slug: the same mapping and verdict", async () => {
    const { verifiedFrameworks } = await new ComplianceClient({ apiKey: KEY, baseUrl: sandbox.baseUrl }).getCapabilities();
    const iso = verifiedFrameworks.find((framework) => framework.slug === 'iso-27001')!;
    const mapBy = async (value: string) => (await run({ resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false })).json;
    const bySlug = await mapBy('iso-27001');
    const byName = await mapBy(`  ${iso.name.toUpperCase()} `);
    expect(bySlug.status).toMatch(/^(passed|failed)$/);
    expect(byName).toMatchObject({ status: bySlug.status, coverage: bySlug.coverage, framework: { slug: 'iso-27001', configured: iso.name.toUpperCase() } });
    expect(byName.gaps).toEqual(bySlug.gaps);
  });

  it("a framework the service cannot map is the core's verdict not-evaluated (never passed), not a node error", async () => {
    const mapped = await run({ resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'no-such-framework' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false });
    expect(mapped.json).toMatchObject({ status: 'not-evaluated', passed: false, gaps: [], coverage: null });
    expect((mapped.json.reasons as string[])[0]).toMatch(/^no-such-framework: not evaluated \(/);
    // It says nothing about the gaps: Plan Gap Issues closes no open issue on it (nor fails on it).
    const existingIssues = '[{"number": 3, "title": "t", "body": "b\\n<!-- compliance-gap:no-such-framework/A.5.15 -->", "state": "open", "labels": []}]';
    const plan = await run({ resource: 'review', operation: 'planGapIssues', existingIssues, options: {} }, { items: [{ json: mapped.json }] });
    expect(plan.output).toEqual([]);
  });

  describe("review/'s money rule and verdict", () => {
    const live = () => ({ ...credentials, apiKey: CAP_KEY });
    const balance = async () => (await new ComplianceClient({ apiKey: CAP_KEY, baseUrl: sandbox.baseUrl }).getBilling()).balanceTokens;
    const parameters = (extra: IDataObject = {}) => ({ resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false, ...extra });

    it('refuses a mapping over Max Tokens before sending anything, naming the plan and the cap; On Error Continue renders status refused', async () => {
      const before = await balance();
      const { context, requests } = fakeExecute({ credentials: live(), parameters: parameters({ maxTokens: 100_000 }), items: [{ json: {} }] });
      const refusal = router.call(context);
      await expect(refusal).rejects.toThrow(/Map Policy Set refused before spending anything: 1 × mapDocument at 250,000 tokens costs 250,000 tokens, but the cap of 100,000 tokens allows 100,000 tokens more/);
      await expect(refusal).rejects.toMatchObject({ description: expect.stringMatching(/Set Max Tokens to 250,000 or more/) });
      expect(requests.filter((request) => request.method !== 'GET')).toEqual([]);
      const rendered = await run(parameters({ maxTokens: 100_000 }), { credentials: live(), continueOnFail: true });
      expect(rendered.json).toMatchObject({ status: 'refused', passed: false, tokensSpent: 0, plannedTokens: 250_000, maxTokens: 100_000, gaps: [] });
      // As the other charged operations' refused items: the error, its code and the fix.
      expect(rendered.json).toMatchObject({ code: 'budget_exceeded', error: expect.stringMatching(/^refused before spending anything/), hint: expect.stringMatching(/Set Max Tokens to 250,000 or more/) });
      expect((rendered.json.reasons as string[])[0]).toMatch(/^refused before spending anything: .*cap of 100,000 tokens/);
      expect(await balance()).toBe(before);
    });

    it('a dry run prices the mapping and sends nothing (status skipped); a run under the cap reports what the ledger drew', async () => {
      const before = await balance();
      const dry = await run(parameters({ dryRun: true, maxTokens: 300_000 }), { credentials: live() });
      expect(dry.json).toMatchObject({ status: 'skipped', passed: false, dryRun: true, tokensSpent: 0, plannedTokens: 250_000, mode: 'live' });
      expect(dry.requests.filter((request) => request.method !== 'GET')).toEqual([]);
      expect(await balance()).toBe(before);
      const mapped = await run(parameters({ maxTokens: 300_000 }), { credentials: live() });
      // The fixture text covers little of ISO 27001: the core's verdict fails it, with its figures.
      expect(mapped.json).toMatchObject({ status: 'failed', passed: false, tokensSpent: 250_000, plannedTokens: 250_000, figures: { source: 'this run', gaps: (mapped.json.gaps as unknown[]).length } });
      expect(before - (await balance())).toBe(250_000);
    });

    it('waives the gaps given in Waivers: counted as covered, never planned as issues; a malformed waiver or cap names its field', async () => {
      const plain = await run(parameters());
      const gaps = plain.json.gaps as Array<{ key: string; controlId: string }>;
      expect(gaps.length).toBeGreaterThan(1);
      const waivers = JSON.stringify([{ control: gaps[0]!.controlId, reason: 'accepted', owner: 'ciso', expires: '2099-12-31' }]);
      const waived = await run(parameters({ waivers }));
      expect(waived.json).toMatchObject({ figures: { gaps: gaps.length - 1, waivedGaps: 1 } });
      expect(waived.json.effectiveCoverage).toBeGreaterThan(plain.json.effectiveCoverage as number);
      const created = (verdict: IDataObject) => run({ resource: 'review', operation: 'planGapIssues', existingIssues: '[]', options: { maxNewPerRun: 100 } }, { items: [{ json: verdict }] });
      expect((await created(plain.json)).output.map((item) => item.json.key)).toContain(gaps[0]!.key);
      const plannedKeys = (await created(waived.json)).output.map((item) => item.json.key);
      expect(plannedKeys).toHaveLength(gaps.length - 1);
      expect(plannedKeys).not.toContain(gaps[0]!.key);
      // An expired waiver counts again.
      const expired = await run(parameters({ waivers: JSON.stringify([{ control: gaps[0]!.controlId, reason: 'accepted', owner: 'ciso', expires: '2020-01-01' }]) }));
      expect(expired.json).toMatchObject({ figures: { gaps: gaps.length, waivedGaps: 0 } });
      const fails = async (extra: IDataObject) => {
        const { context, requests } = fakeExecute({ credentials, parameters: parameters(extra), items: [{ json: {} }] });
        const error = await router.call(context).then(() => undefined, (thrown: unknown) => thrown as Error);
        expect(requests).toEqual([]);
        return error;
      };
      expect((await fails({ waivers: '[{"control": "A.5.15", "reason": "x", "owner": "ciso", "expires": "next year"}]' }))?.message).toMatch(/^Waivers in Map Policy Set: waiver 1 expires on "next year", not a date written YYYY-MM-DD/);
      expect((await fails({ waivers: '[{"control": "A.5.15"}]' }))?.message).toMatch(/^Waivers in Map Policy Set: waiver 1 has no reason, owner, expires/);
      expect((await fails({ waivers: '{"control": "A.5.15"}' }))?.message).toMatch(/^Waivers in Map Policy Set must be a list/);
      expect((await fails({ maxTokens: -5 }))?.message).toMatch(/^Max Tokens in Map Policy Set must be a whole number of tokens/);
    });

    it('Plan Gap Issues plans nothing from a verdict that mapped nothing (refused or dry run)', async () => {
      const dry = await run(parameters({ dryRun: true }));
      expect(dry.json.status).toBe('skipped');
      const plan = await run({ resource: 'review', operation: 'planGapIssues', existingIssues: '[{"number": 3, "title": "t", "body": "b\\n<!-- compliance-gap:iso-27001/A.5.15 -->", "state": "open", "labels": []}]', options: {} }, { items: [{ json: dry.json }] });
      expect(plan.output).toEqual([]);
    });
  });

  it('Plan Gap Issues turns the verdict into create, update and close actions against the existing issues', async () => {
    const mapped = await run({ resource: 'review', operation: 'mapPolicySet', framework: { __rl: true, mode: 'id', value: 'iso-27001' }, inputDataType: 'text', path: 'policies/access.md', content: LONG_TEXT, mappingMode: 'combined', threshold: 80, splitGaps: false });
    const gaps = mapped.json.gaps as Array<{ key: string }>;
    const plan = (existingIssues: string | IDataObject[], options: IDataObject = {}) =>
      run({ resource: 'review', operation: 'planGapIssues', existingIssues, options }, { items: [{ json: mapped.json }] });
    const first = await plan('[]', { maxNewPerRun: 3, labels: 'compliance-gap, iso', titlePrefix: '[ISO]' });
    expect(first.output).toHaveLength(Math.min(3, gaps.length));
    expect(first.json).toMatchObject({ action: 'create', labels: ['compliance-gap', 'iso'], title: expect.stringMatching(/^\[ISO\] /) });
    expect(String(first.json.body)).toMatch(/<!-- compliance-gap:\S+ -->\s*$/);
    // The created issue, now closed by hand, comes back as a reopen; a resolved gap's open issue is closed.
    const created = { number: 7, title: String(first.json.title), body: String(first.json.body), state: 'closed', labels: [] };
    const resolved = { number: 8, title: 'old gap', body: `old\n<!-- compliance-gap:${gaps[0]!.key.replace(/[^/]+$/, 'NO.SUCH.CONTROL')} -->`, state: 'open', labels: [] };
    const next = await plan([created, resolved], { maxNewPerRun: 0 });
    expect(next.output.map((item) => [item.json.action, item.json.number])).toEqual([['update', 7], ['close', 8]]);
    expect(next.output[0]!.json).toMatchObject({ reopen: true });
    // An issue of the review-loop template before the Review resource (marker <framework>:<control>)
    // is the same gap's issue: updated in place to today's marker, not opened twice.
    const [framework, control] = gaps[0]!.key.split('/').map(decodeURIComponent) as [string, string];
    const legacy = { number: 9, title: 'old template', body: `Old text.\n\n<!-- compliance-gap:${framework}:${control} -->`, state: 'open', labels: [] };
    const adopted = await plan([legacy], { maxNewPerRun: 0 });
    expect(adopted.output.map((item) => [item.json.action, item.json.number, item.json.key])).toEqual([['update', 9, gaps[0]!.key]]);
    expect(String(adopted.output[0]!.json.body)).toMatch(new RegExp(`<!-- compliance-gap:${gaps[0]!.key.replace(/[.]/g, '\\.')} -->$`));
    // On request, the gaps needing nothing and those over Max New Issues come out too (for a summary).
    const unchanged = { number: 10, title: String(first.json.title), body: String(first.json.body), state: 'open', labels: [] };
    const all = await plan([unchanged], { maxNewPerRun: 1, labels: 'compliance-gap, iso', titlePrefix: '[ISO]', includeUnchangedAndDeferred: true });
    const actions = all.output.map((item) => item.json.action);
    expect(all.output.find((item) => item.json.action === 'unchanged')!.json).toEqual({ action: 'unchanged', number: 10, key: first.json.key });
    expect(actions.filter((action) => action === 'create')).toHaveLength(Math.min(1, gaps.length - 1));
    expect(actions.filter((action) => action === 'deferred')).toHaveLength(Math.max(0, gaps.length - 2));
    expect((await plan([unchanged], { maxNewPerRun: 1, labels: 'compliance-gap, iso', titlePrefix: '[ISO]' })).output.map((item) => item.json.action)).not.toContain('unchanged');
    // Not a verdict: refused, naming the operation.
    const { context } = fakeExecute({ credentials, parameters: { resource: 'review', operation: 'planGapIssues', existingIssues: '[]', options: {} }, items: [{ json: { hello: 1 } }] });
    await expect(router.call(context)).rejects.toThrow(/Item 0 in Plan Gap Issues is not a Map Policy Set verdict/);
  });
});
