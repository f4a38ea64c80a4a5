/** Every operation: method, path, headers and body as they reach the service, through undici. */
import { afterEach, describe, expect, it } from 'vitest';
import { fixedPrice, operationIds, operations, type OperationId } from '../../api/operations.js';
import { API_KEY, BASE, FakeTime, JOB_ACCEPTED, JOB_ID, LIBRARY_TEXT, MockService, makeClient } from './helpers.js';

interface Expectation {
  input: Record<string, unknown>;
  method: string;
  path: string;
  /** Parsed JSON body, for POST and PUT. */
  body?: unknown;
  reply: unknown;
  replyHeaders?: Record<string, string>;
  public?: boolean;
}

const DOCUMENT = { id: 'doc_1', title: 'Access policy', tags: ['iam'], version: 2 };

/** Written out by hand, not derived from the table, so a wrong row in the table fails here. */
const EXPECTED: Record<OperationId, Expectation> = {
  getServiceCard: { input: {}, method: 'GET', path: `${BASE}/`, public: true, reply: { name: 'Compliance API', version: 'v1', endpoints: [] } },
  getOpenApi: {
    input: {}, method: 'GET', path: `${BASE}/openapi.json`, public: true,
    reply: { openapi: '3.1.0', info: { title: 'Compliance API', version: '1.0.0' }, paths: {} },
  },
  ping: { input: {}, method: 'GET', path: `${BASE}/ping`, reply: { ok: true, client: 'Acme CI', mode: 'sandbox' } },
  getCapabilities: {
    input: {}, method: 'GET', path: `${BASE}/capabilities`,
    reply: { mode: 'sandbox', documentTypes: [{ id: 'policy', title: 'Policy' }], formats: ['json', 'md'], limits: {}, prices: {}, verifiedFrameworks: [] },
  },
  suggestFrameworks: {
    input: { query: 'health data privacy', jurisdiction: 'US' }, method: 'POST', path: `${BASE}/frameworks/suggest`,
    body: { query: 'health data privacy', jurisdiction: 'US' },
    reply: { mode: 'sandbox', candidates: [{ rank: 1, name: 'HIPAA', regulator: 'HHS', jurisdiction: 'US', sector: 'health', sourceUrl: 'https://hhs.gov', confidence: 0.9, reasoning: 'PHI' }] },
  },
  getFramework: {
    input: { slug: 'nist-csf-2' }, method: 'GET', path: `${BASE}/frameworks/nist-csf-2`,
    reply: { slug: 'nist-csf-2', name: 'NIST CSF 2.0', regulator: 'NIST', jurisdiction: 'US', sector: 'all', sourceUrl: 'https://nist.gov', verified: true, updates: [] },
  },
  generateDocument: {
    input: { standard: 'ISO 27001', documentType: 'policy', organisation: { name: 'Acme', country: 'NL' }, humanize: true },
    method: 'POST', path: `${BASE}/documents/generate`,
    body: { framework: 'ISO 27001', type: 'policy', organisation: { name: 'Acme', country: 'NL' }, humanize: true },
    reply: JOB_ACCEPTED,
  },
  mapDocument: {
    input: { framework: 'nist-csf-2', content: 'We encrypt data at rest.', title: 'Security policy' },
    method: 'POST', path: `${BASE}/documents/map`,
    body: { framework: 'nist-csf-2', content: 'We encrypt data at rest.', title: 'Security policy' },
    reply: JOB_ACCEPTED,
  },
  getJob: { input: { jobId: JOB_ID }, method: 'GET', path: `${BASE}/jobs/${JOB_ID}`, reply: { jobId: JOB_ID, status: 'running' } },
  downloadDocument: {
    input: { jobId: JOB_ID, format: 'md' }, method: 'GET', path: `${BASE}/documents/${JOB_ID}?format=md`,
    reply: '# Policy\n', replyHeaders: { 'content-type': 'text/markdown; charset=utf-8' },
  },
  ingestLibraryDocument: {
    input: { title: 'Access policy', content: LIBRARY_TEXT, category: 'policies', tags: 'iam, access' },
    method: 'POST', path: `${BASE}/library/documents`,
    body: { title: 'Access policy', content: LIBRARY_TEXT, category: 'policies', tags: ['iam', 'access'] },
    reply: { ...JOB_ACCEPTED, documentId: 'doc_1' },
  },
  refreshLibraryDocument: {
    input: { id: 'doc_1', content: LIBRARY_TEXT }, method: 'POST', path: `${BASE}/library/documents/doc_1/refresh`,
    body: { content: LIBRARY_TEXT }, reply: { ...JOB_ACCEPTED, documentId: 'doc_1', version: 3 },
  },
  listLibrary: {
    input: { category: 'policies', limit: 50 }, method: 'GET', path: `${BASE}/library?limit=50&category=policies`,
    reply: { documents: [DOCUMENT], nextCursor: null },
  },
  getLibraryDocument: {
    input: { id: 'doc_1', include: 'content' }, method: 'GET', path: `${BASE}/library/documents/doc_1?include=content`,
    reply: { ...DOCUMENT, content: LIBRARY_TEXT },
  },
  deleteLibraryDocument: {
    input: { id: 'doc_1' }, method: 'DELETE', path: `${BASE}/library/documents/doc_1`, reply: { id: 'doc_1', deleted: true },
  },
  searchLibrary: {
    input: { query: 'encryption', tags: ['crypto'], limit: 5 }, method: 'POST', path: `${BASE}/library/search`,
    body: { query: 'encryption', tags: ['crypto'], limit: 5 },
    reply: { results: [{ documentId: 'doc_1', title: 'Access policy', score: 1.5, snippets: ['<mark>encryption</mark> at rest'] }] },
  },
  getUsage: { input: {}, method: 'GET', path: `${BASE}/usage`, reply: { mode: 'sandbox' } },
  getBilling: {
    input: {}, method: 'GET', path: `${BASE}/billing`,
    reply: { balanceTokens: 1_000_000, prices: {}, packs: [], ledger: [], meter: { plan: 'api', dailyFloorTokens: 22_222, monthlyUsdEquivalent: 2 } },
  },
  createCheckout: {
    input: { pack: 'pack25' }, method: 'POST', path: `${BASE}/billing/checkout`, body: { pack: 'pack25' },
    reply: { url: 'https://pay.example/cs_1', sessionId: 'cs_1', pack: { code: 'pack25' } },
  },
  getAutoTopUp: { input: {}, method: 'GET', path: `${BASE}/billing/auto-topup`, reply: { enabled: false } },
  setAutoTopUp: {
    input: { enabled: true, thresholdTokens: 500_000, pack: 'pack50' }, method: 'PUT', path: `${BASE}/billing/auto-topup`,
    body: { enabled: true, thresholdTokens: 500_000, pack: 'pack50' }, reply: { enabled: true, thresholdTokens: 500_000, pack: 'pack50' },
  },
  getCalendar: { input: {}, method: 'GET', path: `${BASE}/calendar`, reply: { cadence: 'monthly', nextReviewAt: '2026-02-01T09:00:00Z' } },
  setCalendar: {
    input: { cadence: 'quarterly', firstReviewAt: '2026-12-01T09:00:00Z' }, method: 'PUT', path: `${BASE}/calendar`,
    body: { cadence: 'quarterly', firstReviewAt: '2026-12-01T09:00:00Z' }, reply: { cadence: 'quarterly', firstReviewAt: '2026-12-01T09:00:00Z' },
  },
};

let service: MockService | undefined;
afterEach(async () => {
  service?.assertNoPendingInterceptors();
  await service?.close();
  service = undefined;
});

const JOB_CREATING = new Set<OperationId>(['generateDocument', 'mapDocument', 'ingestLibraryDocument', 'refreshLibraryDocument']);

describe('every operation', () => {
  it('has an expectation here for each of the 23 operation ids', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...operationIds].sort());
    expect(operationIds).toHaveLength(23);
  });

  for (const operationId of operationIds) {
    const expected = EXPECTED[operationId];

    it(`${operationId}: ${expected.method} ${expected.path} through the typed method`, async () => {
      service = new MockService().reply(JOB_CREATING.has(operationId) ? 202 : 200, expected.reply, expected.replyHeaders);
      const client = makeClient(service, new FakeTime());
      const method = client[operationId] as (input: unknown) => Promise<unknown>;
      const result = await method.call(client, expected.input);
      expect(result).toBeDefined();

      expect(service.received).toHaveLength(1);
      const [request] = service.received;
      expect(request!.method).toBe(expected.method);
      expect(request!.path).toBe(expected.path);
      expect(request!.headers['user-agent']).toBe('compliance-engine-api');
      if (expected.public) {
        expect(request!.headers.authorization).toBeUndefined();
      } else {
        expect(request!.headers.authorization).toBe(`Bearer ${API_KEY}`);
      }
      expect(request!.headers['x-api-key']).toBeUndefined();
      if (expected.body === undefined) {
        expect(request!.body ?? '').toBe('');
        expect(request!.headers['content-type']).toBeUndefined();
      } else {
        expect(request!.headers['content-type']).toBe('application/json');
        expect(JSON.parse(request!.body!)).toEqual(expected.body);
      }
    });

    it(`${operationId}: the same request through call()`, async () => {
      service = new MockService().reply(200, expected.reply, expected.replyHeaders);
      const client = makeClient(service, new FakeTime(), { authHeader: 'x-api-key' });
      await client.call(operationId, expected.input as never);
      const [request] = service.received;
      expect(`${request!.method} ${request!.path}`).toBe(`${expected.method} ${expected.path}`);
      expect(request!.headers.authorization).toBeUndefined();
      expect(request!.headers['x-api-key']).toBe(expected.public ? undefined : API_KEY);
      if (expected.body !== undefined) expect(JSON.parse(request!.body!)).toEqual(expected.body);
    });
  }
});

describe('responses of the typed methods', () => {
  it('returns the normalised models', async () => {
    service = new MockService()
      .reply(200, EXPECTED.ping.reply)
      .reply(202, EXPECTED.ingestLibraryDocument.reply)
      .reply(200, EXPECTED.downloadDocument.reply, EXPECTED.downloadDocument.replyHeaders);
    const client = makeClient(service, new FakeTime());
    expect(await client.ping()).toMatchObject({ ok: true, client: 'Acme CI', mode: 'sandbox' });
    expect(await client.ingestLibraryDocument({ title: 'Access policy', content: LIBRARY_TEXT })).toMatchObject({
      jobId: JOB_ID, status: 'queued', documentId: 'doc_1', estimatedSeconds: 8,
    });
    expect(await client.downloadDocument({ jobId: JOB_ID, format: 'md' })).toEqual({
      kind: 'text', text: '# Policy\n', contentType: 'text/markdown; charset=utf-8', filename: `${JOB_ID}.md`,
    });
  });

  it('sends no auth header when the transport authenticates (no apiKey, as in n8n)', async () => {
    service = new MockService().reply(200, EXPECTED.ping.reply);
    const client = makeClient(service, new FakeTime(), { apiKey: undefined });
    await client.ping();
    expect(service.received[0]!.headers.authorization).toBeUndefined();
    expect(service.received[0]!.headers['x-api-key']).toBeUndefined();
  });

  it('refuses an unknown operation id in call()', async () => {
    service = new MockService();
    const client = makeClient(service, new FakeTime());
    await expect(client.call('pong' as never)).rejects.toMatchObject({ code: 'unknown_operation', field: 'operationId' });
    expect(service.attempts).toHaveLength(0);
  });
});

describe('fixedPrice', () => {
  it('reads a price the operation table fixes, and refuses an operation it does not price', () => {
    const { cost } = operations.ingestLibraryDocument;
    expect(cost.kind).toBe('fixed');
    expect(fixedPrice('ingestLibraryDocument')).toBe(cost.kind === 'fixed' ? cost.tokens : undefined);
    expect(() => fixedPrice('ping')).toThrow(new Error('ping has no fixed price in the operation table'));
  });
});
