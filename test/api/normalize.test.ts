/** The tolerant adapters: documented names, plausible alternatives, unknown fields kept, clear failures. */
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceApiError } from '../../api/errors.js';
import { listAllLibraryDocuments } from '../../api/library.js';
import {
  normalizeAutoTopUp,
  normalizeBilling,
  normalizeCalendar,
  normalizeCapabilities,
  normalizeCheckout,
  normalizeFramework,
  normalizeJobAccepted,
  normalizeJobStatus,
  normalizeLibraryListing,
  libraryDocumentOf,
  normalizeMappingReport,
  normalizePing,
  normalizeSearchResult,
  normalizeSuggestResult,
  normalizeUsage,
} from '../../api/normalize/index.js';
import { FakeTime, JOB_ID, MockService, makeClient } from './helpers.js';

const context = (operationId: string, input: Record<string, unknown> = {}) => ({ operationId, input });

function unexpectedError(run: () => unknown): ComplianceApiError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ComplianceApiError);
    return error as ComplianceApiError;
  }
  throw new Error('expected unexpected_response');
}

describe('mapping report', () => {
  it.each([
    [{ coverage: 72 }, 72],
    [{ coverage: 0.72 }, 72],
    [{ coveragePercent: 72 }, 72],
    [{ coveragePercentage: '72%' }, 72],
    [{ coverage_pct: 0.5 }, 0.5],
    [{ coverage: { percent: 40 } }, 40],
    [{ summary: { coverage: 0.25 } }, 25],
  ])('coverage from %o → %s', (fields, coverage) => {
    expect(normalizeMappingReport({ framework: 'NIST CSF', ...fields, controls: [] }, context('downloadDocument')).coverage).toBe(coverage);
  });

  it('maps controls, evidence and gaps from alternative names and keeps unknown fields', () => {
    const report = normalizeMappingReport(
      {
        framework: { title: 'ISO 27001', version: '2022' },
        coverageRatio: 0.5,
        results: [
          { control_id: 'A.5.1', title: 'Policies', status: 'Fully Covered', evidence: [{ text: 'We review yearly', file: 'policy.md', line: 4 }] },
          { ref: 'A.8.24', name: 'Cryptography', coverage: 'partially_met' },
        ],
        gap_list: [{ control_id: 'A.8.24', description: 'Key rotation not described', remediation: 'Describe rotation' }],
        vendorScore: 'B',
      },
      context('downloadDocument'),
    );
    expect(report).toMatchObject({
      framework: { name: 'ISO 27001', version: '2022' },
      coverage: 50,
      summary: { controls: 2, covered: 1, partial: 1, missing: 0 },
      vendorScore: 'B',
      gaps: [{ controlId: 'A.8.24', title: 'A.8.24', status: 'missing', missing: 'Key rotation not described', recommendation: 'Describe rotation' }],
    });
    expect(report.controls[0]).toMatchObject({ id: 'A.5.1', status: 'covered', evidence: [{ quote: 'We review yearly', location: { source: 'policy.md', line: 4 } }] });
    expect(report.controls[1]).toMatchObject({ id: 'A.8.24', title: 'Cryptography', status: 'partial', evidence: [] });
  });

  it('without coverage it fails listing what it looked for and the keys it saw', () => {
    const error = unexpectedError(() => normalizeMappingReport({ framework: 'x', controls: [], score_card: {} }, context('downloadDocument')));
    expect(error.code).toBe('unexpected_response');
    expect(error.message).toContain('coveragePercent');
    expect(error.message).toContain('keys seen: framework, controls, score_card');
    expect(error.details).toMatchObject({ keysSeen: ['framework', 'controls', 'score_card'] });
  });
});

describe('discovery candidates', () => {
  it.each(['candidates', 'results', 'frameworks'])('under %s, with alternative field names and percent confidence', (listName) => {
    const result = normalizeSuggestResult(
      { mode: 'live', [listName]: [{ framework: 'GDPR', authority: 'EDPB', country: 'EU', industry: 'all', url: 'https://gdpr.eu', score: 87, rationale: 'EU personal data', rank: 2 }, { name: 'ePrivacy', rank: 1 }] },
      context('suggestFrameworks'),
    );
    expect(result.mode).toBe('live');
    expect(result.candidates.map((candidate) => candidate.name)).toEqual(['ePrivacy', 'GDPR']);
    expect(result.candidates[1]).toMatchObject({ regulator: 'EDPB', jurisdiction: 'EU', sector: 'all', sourceUrl: 'https://gdpr.eu', confidence: 0.87, reasoning: 'EU personal data' });
  });

  it('a candidate without a name fails clearly', () => {
    const error = unexpectedError(() => normalizeSuggestResult({ candidates: [{ regulator: 'X' }] }, context('suggestFrameworks')));
    expect(error.message).toContain('name of candidate 1');
  });
});

describe('jobs', () => {
  it.each([
    [{ status: 'failed', error: { code: 'bad_input', message: 'No text found' } }, 'No text found', 'bad_input'],
    [{ status: 'failed', error: 'Parser crashed' }, 'Parser crashed', 'job_failed'],
    [{ status: 'failed', failureReason: 'Unverified framework' }, 'Unverified framework', 'job_failed'],
    [{ status: 'failed', reason: 'Timeout in classifier', errorCode: 'timeout' }, 'Timeout in classifier', 'timeout'],
    [{ state: 'error', message: 'Boom' }, 'Boom', 'job_failed'],
    [{ status: 'failed' }, 'the job failed without a reason', 'job_failed'],
  ])('failure reason from %o', (fields, message, code) => {
    const job = normalizeJobStatus({ jobId: JOB_ID, ...fields }, context('getJob'));
    expect(job.status).toBe('failed');
    expect(job.error).toEqual({ code, message });
  });

  it('maps status aliases and takes the job id from the request when absent', () => {
    expect(normalizeJobStatus({ state: 'In Progress', progress: 55 }, context('getJob', { jobId: JOB_ID }))).toMatchObject({ jobId: JOB_ID, status: 'running', progress: 0.55 });
    expect(normalizeJobStatus({ data: { status: 'succeeded' } }, context('getJob', { jobId: JOB_ID })).status).toBe('completed');
    expect(unexpectedError(() => normalizeJobStatus({ status: 'paused' }, context('getJob', { jobId: JOB_ID }))).message).toContain('known job status (got "paused")');
  });

  it('a 202 answer with alternative names', () => {
    expect(normalizeJobAccepted({ job_id: JOB_ID, document_id: 'doc_3', eta: '12' }, context('ingestLibraryDocument'))).toMatchObject({
      jobId: JOB_ID, status: 'queued', poll: `/jobs/${JOB_ID}`, estimatedSeconds: 12, documentId: 'doc_3',
    });
    expect(unexpectedError(() => normalizeJobAccepted({ status: 'queued' }, context('generateDocument'))).message).toContain('no job id');
  });
});

describe('library', () => {
  it.each(['documents', 'items', 'data'])('listing under %s with storage counters', (listName) => {
    const listing = normalizeLibraryListing(
      { [listName]: [{ documentId: 'd1', name: 'Policy', tags: 'a, b', hash: 'AB'.repeat(32), revision: 3 }], usage: { count: 1, limit: 25, usedBytes: 900 } },
      context('listLibrary'),
    );
    expect(listing.documents[0]).toMatchObject({ id: 'd1', title: 'Policy', tags: ['a', 'b'], version: 3, contentHash: `sha256:${'ab'.repeat(32)}` });
    expect(listing.storage).toMatchObject({ documents: 1, maxDocuments: 25, bytes: 900 });
    expect(listing.nextCursor).toBeNull();
  });

  it.each([
    [{ nextCursor: 'c2' }, { nextCursor: 'c2' }],
    [{ next: '/library?cursor=c3&limit=10' }, { nextCursor: 'c3' }],
    [{ pagination: { next_cursor: 'c4' } }, { nextCursor: 'c4' }],
    [{ page: 1, totalPages: 3 }, { nextCursor: null, nextPage: 2 }],
    [{ page: 3, totalPages: 3 }, { nextCursor: null }],
  ])('pagination %o', (fields, expected) => {
    const listing = normalizeLibraryListing({ documents: [], ...fields }, context('listLibrary'));
    expect({ nextCursor: listing.nextCursor, ...(listing.nextPage ? { nextPage: listing.nextPage } : {}) }).toEqual(expected);
  });

  it('a document without an id fails', () => {
    expect(unexpectedError(() => libraryDocumentOf({ title: 'x' }, context('listLibrary'), 'document 1 of the listing')).message).toContain('id of the document 1 of the listing');
  });
});

describe('other models', () => {
  it('search hits from hits/highlights', () => {
    const result = normalizeSearchResult({ hits: [{ id: 'd1', title: 'T', relevance: 3, highlight: 'a <mark>b</mark>' }], count: 1 }, context('searchLibrary'));
    expect(result).toMatchObject({ total: 1, results: [{ documentId: 'd1', score: 3, snippets: ['a <mark>b</mark>'] }] });
  });

  it('billing with alternative names, meter and pack defaults', () => {
    const billing = normalizeBilling(
      {
        balance: { tokens: 3_300_000 },
        accountStatus: 'read-only',
        pricing: [{ operation: 'searchLibrary', tokens: 5000 }],
        packs: ['pack10', { code: 'pack200' }],
        transactions: [{ id: 't1', createdAt: '2026-01-01T00:00:00Z', type: 'ingest', amount: -400_000 }],
        meter: { plan: 'API plan', dailyFloor: 22_222, daysRemaining: 12, tokensPerDay: 22_222 },
      },
      context('getBilling'),
    );
    expect(billing).toMatchObject({
      balanceTokens: 3_300_000,
      status: 'read_only',
      prices: { searchLibrary: 5000 },
      packs: [{ code: 'pack10', priceUsd: 10, tokens: 3_300_000 }, { code: 'pack200', tokens: 70_000_000, bonusPercent: 5 }],
      ledger: [{ id: 't1', at: '2026-01-01T00:00:00Z', operation: 'ingest', tokens: -400_000 }],
      meter: { plan: 'api', dailyFloorTokens: 22_222, monthlyUsdEquivalent: 2, estimatedDaysRemaining: 12, dailyRateTokens: 22_222 },
    });
    expect(unexpectedError(() => normalizeBilling({ meter: {} }, context('getBilling'))).message).toContain('token balance');
  });

  it('checkout, auto-top-up, calendar, ping, usage, capabilities, framework', () => {
    expect(normalizeCheckout({ checkout_url: 'https://pay/x', session_id: 's1', pack: 'pack25' }, context('createCheckout'))).toMatchObject({ url: 'https://pay/x', sessionId: 's1', pack: { code: 'pack25' } });
    expect(normalizeAutoTopUp({ autoTopUp: { active: true, threshold: 200_000, packCode: 'pack50' } }, context('getAutoTopUp'))).toMatchObject({ enabled: true, thresholdTokens: 200_000, pack: 'pack50' });
    expect(normalizeCalendar({ frequency: 'Quarterly', next_review_at: '2026-04-01T09:00:00Z' }, context('getCalendar'))).toMatchObject({ cadence: 'quarterly', nextReviewAt: '2026-04-01T09:00:00Z' });
    expect(normalizePing({ clientName: 'CI', livemode: false }, context('ping'))).toMatchObject({ ok: true, client: 'CI', mode: 'sandbox' });
    expect(unexpectedError(() => normalizePing({ ok: true }, context('ping'))).message).toContain('key mode');
    expect(normalizeUsage({ requests: { perMinute: { count: 3, max: 60 } } }, context('getUsage'))).toMatchObject({ requests: { perMinute: { used: 3, limit: 60 } } });
    expect(normalizeCapabilities({ types: ['policy'], limits: { rpm: 60 } }, context('getCapabilities'))).toMatchObject({
      documentTypes: [{ id: 'policy', title: 'policy' }], formats: ['json', 'md', 'pdf', 'docx'], limits: { requestsPerMinute: 60, uploadMaxBytes: 10 * 1024 * 1024 },
    });
    expect(normalizeFramework({ id: 'gdpr', title: 'GDPR', changes: [{ publishedAt: '2025-01-01', summary: 'Guidance' }] }, context('getFramework'))).toMatchObject({
      slug: 'gdpr', name: 'GDPR', verified: false, updates: [{ date: '2025-01-01', title: 'Guidance' }],
    });
  });

  it('an adapter failure through the client carries the status and request id', async () => {
    const service = new MockService().reply(200, { hello: 'world' }, { 'x-request-id': 'req_shape' });
    const error = await makeClient(service, new FakeTime()).getCalendar().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'unexpected_response', status: 200, requestId: 'req_shape' });
    await service.close();
  });
});

describe('following the library listing', () => {
  let service: MockService;
  afterEach(async () => {
    service.assertNoPendingInterceptors();
    await service.close();
  });

  it('by cursor', async () => {
    service = new MockService()
      .reply(200, { documents: [{ id: 'd1', title: 'a', tags: [], version: 1 }], nextCursor: 'c2' })
      .reply(200, { items: [{ id: 'd2', title: 'b', tags: [], version: 1 }], next: null });
    const documents = await makeClient(service, new FakeTime()).listAllLibraryDocuments({ category: 'policies' });
    expect(documents.map((document) => document.id)).toEqual(['d1', 'd2']);
    expect(service.received.map((request) => request.path)).toEqual(['/api/public/v1/library?category=policies', '/api/public/v1/library?cursor=c2&category=policies']);
  });

  it('by page', async () => {
    service = new MockService()
      .reply(200, { documents: [{ id: 'd1', title: 'a' }], page: 1, totalPages: 2 })
      .reply(200, { documents: [{ id: 'd2', title: 'b' }], page: 2, totalPages: 2 });
    const ids: string[] = [];
    for await (const document of makeClient(service, new FakeTime()).iterateLibrary()) ids.push(document.id);
    expect(ids).toEqual(['d1', 'd2']);
    expect(service.received[1]!.path).toBe('/api/public/v1/library?page=2');
  });

  it('refuses a service that repeats the same cursor', async () => {
    service = new MockService()
      .reply(200, { documents: [{ id: 'd1', title: 'a' }], nextCursor: 'same' })
      .reply(200, { documents: [{ id: 'd1', title: 'a' }], nextCursor: 'same' });
    await expect(makeClient(service, new FakeTime()).listAllLibraryDocuments()).rejects.toMatchObject({
      code: 'unexpected_response',
      operationId: 'listLibrary',
      message: 'listLibrary: the service returned the same next page twice ({"cursor":"same"})',
      hint: 'Report it with the request id; list with a category or tag filter meanwhile.',
    });
  });

  it('ends at an empty page even when it names a next one', async () => {
    service = new MockService().reply(200, { documents: [], nextCursor: 'c2' });
    expect(await makeClient(service, new FakeTime()).listAllLibraryDocuments()).toEqual([]);
    expect(service.received).toHaveLength(1);
  });

  it('stops after 10,000 pages of a service that never ends', async () => {
    // A fault the sandbox cannot produce: every page names a new next page.
    service = new MockService();
    let pages = 0;
    const endless = { listLibrary: async () => ({ documents: [{ id: `d${++pages}`, title: 'a', tags: [], version: 1 }], nextCursor: `c${pages}` }) };
    expect(await listAllLibraryDocuments(endless as unknown as Parameters<typeof listAllLibraryDocuments>[0])).toHaveLength(10_000);
    expect(pages).toBe(10_000);
  });
});
