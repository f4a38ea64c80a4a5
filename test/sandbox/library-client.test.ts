/**
 * The library contract through the real API client over loopback, in both key modes: ingest,
 * classification, listing, fetch, refresh versioning, search (limits, filters, snippets), delete,
 * the rejections before any charge, refunds of failed jobs and the ledger.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceClient, ComplianceJobError, ComplianceValidationError } from '../../api/node/index.js';
import { contentHash } from '../../api/contentHash.js';
import { SANDBOX_CLASSIFICATION_WATERMARK, SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from '../../sandbox/library/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { loadPolicies } from '../fixtures/policies/corpus.js';
import { apiClient, client, envelope, failure, LIVE_KEY, policyText, sandbox, SANDBOX_KEY } from './helpers.js';

const INGEST = 400_000;
const SEARCH = 5_000;

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const api = (key: string): ComplianceClient => apiClient(box!, key);

/** Ingests and waits until the document is searchable. */
async function ingest(compliance: ComplianceClient, input: { title: string; content: string; category?: string; tags?: string[]; filename?: string }) {
  const accepted = await compliance.ingestLibraryDocument(input);
  await compliance.waitForJob(accepted.jobId);
  return accepted as typeof accepted & { documentId: string };
}

const modes = [
  { mode: 'sandbox', key: SANDBOX_KEY },
  { mode: 'live', key: LIVE_KEY },
] as const;

describe.each(modes)('library through the client, $mode key', ({ mode, key }) => {
  const charged = (tokens: number) => (mode === 'live' ? tokens : 0);

  it('ingests, classifies, lists, fetches, refreshes, searches and deletes, charging only what the price list says', async () => {
    box = await sandbox();
    const compliance = api(key);
    const policies = loadPolicies();
    const access = policies.find((p) => p.file === 'access-control-policy.md')!;
    const incident = policies.find((p) => p.file === 'incident-response-plan.md')!;

    const startBalance = (await compliance.getBilling()).balanceTokens;
    const first = await ingest(compliance, { title: access.title, content: access.content, filename: access.file, tags: ['soc2'] });
    const second = await ingest(compliance, { title: incident.title, content: incident.content, category: 'Security Operations' });
    expect(first.documentId).toMatch(/^doc_[0-9a-f]{16}$/);

    // Metadata: the given category is kept, a missing one is chosen; tags keep the caller's first.
    const doc = await compliance.getLibraryDocument({ id: first.documentId });
    expect(doc).toMatchObject({ id: first.documentId, title: access.title, filename: access.file, version: 1, size: access.content.length, status: 'ready' });
    expect(doc.category).toBe('Access Control');
    expect(doc.tags[0]).toBe('soc2');
    expect(doc.contentHash).toBe(contentHash(access.content));
    expect(doc.content).toBeUndefined();
    const raw = await client(box, key)('GET', `/library/documents/${first.documentId}`);
    // Sandbox classification is visibly watermarked; live classification is not.
    if (mode === 'sandbox') {
      expect(raw.body.classification.watermark).toBe(SANDBOX_CLASSIFICATION_WATERMARK);
      expect(raw.body.summary).toMatch(/^\[SANDBOX\] /);
    } else {
      expect(raw.body.classification.watermark).toBeUndefined();
      expect(raw.body.summary).not.toMatch(/SANDBOX/);
    }
    expect((await compliance.getLibraryDocument({ id: first.documentId, include: 'content' })).content).toBe(access.content);
    expect((await compliance.getLibraryDocument({ id: second.documentId })).category).toBe('Security Operations');

    const listing = await compliance.listLibrary();
    expect(listing.documents.map((d) => d.id)).toEqual([first.documentId, second.documentId]);
    expect(listing.storage).toMatchObject({
      documents: 2,
      maxDocuments: mode === 'live' ? 500 : 25,
      bytes: Buffer.byteLength(access.content) + Buffer.byteLength(incident.content),
    });

    // Search: ranked, highlighted, filtered; the refresh below changes what is found.
    const found = await compliance.searchLibrary({ query: 'multi-factor authentication' });
    expect(found.results[0]).toMatchObject({ documentId: first.documentId, title: access.title });
    for (const hit of found.results) expect(hit.snippets.join(' ')).toMatch(/<mark>[^<]+<\/mark>/);
    const filtered = await compliance.searchLibrary({ query: 'incident', category: 'Security Operations' });
    expect(filtered.results.map((r) => r.documentId)).toEqual([second.documentId]);

    const refreshed = policyText('Quarterly access recertification');
    const refresh = await compliance.refreshLibraryDocument({ id: first.documentId, content: refreshed });
    expect(refresh).toMatchObject({ documentId: first.documentId, version: 2 });
    await compliance.waitForJob(refresh.jobId);
    const after = await compliance.getLibraryDocument({ id: first.documentId, include: 'content' });
    expect(after).toMatchObject({ version: 2, content: refreshed, contentHash: contentHash(refreshed), size: refreshed.length });
    expect((await compliance.searchLibrary({ query: '"break-glass"' })).results).toEqual([]);
    expect((await compliance.searchLibrary({ query: 'recertification' })).results.map((r) => r.documentId)).toEqual([first.documentId]);
    // The same content again is refused before any charge.
    const unchanged = await failure<ComplianceApiError>(compliance.refreshLibraryDocument({ id: first.documentId, content: refreshed }));
    expect(unchanged).toMatchObject({ status: 409, code: 'document_unchanged' });

    expect(await compliance.deleteLibraryDocument({ id: second.documentId })).toMatchObject({ deleted: true });
    expect((await compliance.searchLibrary({ query: 'incident escalation' })).results.map((r) => r.documentId)).not.toContain(second.documentId);
    expect(await failure<ComplianceApiError>(compliance.getLibraryDocument({ id: second.documentId }))).toMatchObject({ status: 404, code: 'document_not_found' });
    expect((await compliance.listLibrary()).storage).toMatchObject({ documents: 1 });

    // The ledger: two ingests and one refresh at 400,000, five searches at 5,000; nothing else.
    const billing = await compliance.getBilling();
    expect(billing.balanceTokens).toBe(startBalance - charged(3 * INGEST + 5 * SEARCH));
    const spent = billing.ledger.filter((e) => ['ingestLibraryDocument', 'refreshLibraryDocument', 'searchLibrary'].includes(e.operation));
    if (mode === 'live') {
      expect(spent.filter((e) => e.operation === 'ingestLibraryDocument').map((e) => e.tokens)).toEqual([-INGEST, -INGEST]);
      expect(spent.filter((e) => e.operation === 'refreshLibraryDocument')).toMatchObject([{ tokens: -INGEST, reference: refresh.jobId }]);
      expect(spent.filter((e) => e.operation === 'searchLibrary').map((e) => e.tokens)).toEqual(Array(5).fill(-SEARCH));
    } else {
      expect(spent).toEqual([]);
    }
  });

  it('rejects before any charge: too short, too long, duplicate naming the holder, a limit over the maximum', async () => {
    box = await sandbox();
    const compliance = api(key);
    const call = client(box, key);
    const held = await ingest(compliance, { title: 'Backup', content: policyText('Backup') });
    const balance = (await compliance.getBilling()).balanceTokens;

    // The client refuses what the service would refuse, without sending it …
    expect(await failure(compliance.ingestLibraryDocument({ title: 'Short', content: 'Too short.' }))).toBeInstanceOf(ComplianceValidationError);
    // … and the service refuses it too, for clients that send anyway.
    const short = envelope(await call('POST', '/library/documents', { body: { title: 'Short', content: 'x'.repeat(199) } }), 400, 'content_too_short');
    expect(short.message).toContain('200');
    envelope(await call('POST', '/library/documents', { body: { title: 'Long', content: 'word '.repeat(60_001) } }), 400, 'content_too_long');
    envelope(await call('POST', `/library/documents/${held.documentId}/refresh`, { body: { content: 'x'.repeat(300_001) } }), 400, 'content_too_long');

    // Same content, with CRLF line ends and trailing spaces: a duplicate, naming the holder.
    const copy = policyText('Backup').split('\n').map((line) => `${line} `).join('\r\n');
    const duplicate = await failure<ComplianceApiError>(compliance.ingestLibraryDocument({ title: 'Copy', content: copy }));
    expect(duplicate).toMatchObject({ status: 409, code: 'duplicate_document' });
    expect(duplicate.details).toMatchObject({ documentId: held.documentId, jobId: held.jobId });
    expect(duplicate.message).toContain(held.documentId);

    const search = await compliance.searchLibrary({ query: 'backups' });
    expect(search.limit).toBe(SEARCH_DEFAULT_LIMIT);
    expect((await compliance.searchLibrary({ query: 'backups', limit: SEARCH_MAX_LIMIT })).limit).toBe(SEARCH_MAX_LIMIT);
    expect(await failure<ComplianceApiError>(compliance.searchLibrary({ query: 'backups', limit: SEARCH_MAX_LIMIT + 1 }))).toMatchObject({ status: 400, code: 'invalid_limit' });
    expect(await failure<ComplianceApiError>(compliance.searchLibrary({ query: '?!' }))).toMatchObject({ status: 400, code: 'invalid_query' });

    // Only the two accepted searches were charged.
    expect((await compliance.getBilling()).balanceTokens).toBe(balance - charged(2 * SEARCH));
  });

  it('refunds an ingest and a refresh that fail after admission; the failed refresh leaves the previous version live', async () => {
    box = await sandbox({ faults: true });
    const compliance = api(key);
    const call = client(box, key);
    const kept = await ingest(compliance, { title: 'Kept', content: policyText('Kept') });
    const before = (await compliance.getBilling()).balanceTokens;

    const doomed = await call('POST', '/library/documents', { body: { title: 'Doomed', content: policyText('Doomed') }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(doomed.status).toBe(202);
    const failed = await failure<ComplianceJobError>(compliance.waitForJob(doomed.body.jobId));
    expect(failed).toBeInstanceOf(ComplianceJobError);
    expect(await failure<ComplianceApiError>(compliance.getLibraryDocument({ id: doomed.body.documentId }))).toMatchObject({ status: 404 });

    const refresh = await call('POST', `/library/documents/${kept.documentId}/refresh`, { body: { content: policyText('Changed') }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(refresh.status).toBe(202);
    await failure(compliance.waitForJob(refresh.body.jobId));
    expect(await compliance.getLibraryDocument({ id: kept.documentId, include: 'content' })).toMatchObject({ version: 1, content: policyText('Kept') });

    const billing = await compliance.getBilling();
    expect(billing.balanceTokens).toBe(before);
    const refunds = billing.ledger.filter((e) => e.operation === 'refund');
    if (mode === 'live') {
      expect(refunds.map((e) => [e.tokens, e.reference]).sort()).toEqual([[INGEST, doomed.body.jobId], [INGEST, refresh.body.jobId]].sort());
    } else {
      expect(refunds).toEqual([]);
    }
    // Nothing of the failed attempts holds content: both texts can be ingested again.
    await ingest(compliance, { title: 'Doomed', content: policyText('Doomed') });
    await ingest(compliance, { title: 'Changed', content: policyText('Changed') });
  });
});

describe('library capacity through the client', () => {
  it('refuses the 26th document of a sandbox key with 409 library_full, and accepts again after a delete', async () => {
    box = await sandbox();
    const compliance = api(SANDBOX_KEY);
    const ids: string[] = [];
    for (let i = 0; i < 25; i++) ids.push((await compliance.ingestLibraryDocument({ title: `Policy ${i}`, content: policyText(`Policy number ${i}`) })).documentId!);
    const full = await failure<ComplianceApiError>(compliance.ingestLibraryDocument({ title: 'One more', content: policyText('One more') }));
    expect(full).toMatchObject({ status: 409, code: 'library_full' });
    expect(full.details).toMatchObject({ documents: 25, capacity: 25 });
    await compliance.deleteLibraryDocument({ id: ids[0]! });
    expect(await compliance.ingestLibraryDocument({ title: 'One more', content: policyText('One more') })).toMatchObject({ documentId: expect.stringMatching(/^doc_/) });
    expect((await compliance.listLibrary()).storage).toMatchObject({ documents: 25, maxDocuments: 25 });
  });
});
