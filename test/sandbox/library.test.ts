/** Library routes over HTTP: admission rejections before any charge, refunds, isolation, search charge. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, LIVE_KEY, ManualClock, OTHER_KEY, policyText, sandbox } from './helpers.js';

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe('library admission', () => {
  it('answers a duplicate with 409 duplicate_document naming the holder and its last job, without charging', async () => {
    box = await sandbox();
    const call = client(box, LIVE_KEY);
    const content = policyText('Incident response');
    const first = await call('POST', '/library/documents', { body: { title: 'Incident response', content } });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ kind: 'library_ingest', documentId: expect.any(String), poll: `/jobs/${first.body.jobId}` });
    const balance = (await call('GET', '/billing')).body.balanceTokens;
    expect(balance).toBe(5_000_000 - 400_000);
    const duplicate = await call('POST', '/library/documents', { body: { title: 'Copy', content } });
    const error = envelope(duplicate, 409, 'duplicate_document');
    expect(error).toMatchObject({ documentId: first.body.documentId, jobId: first.body.jobId });
    expect((await call('GET', '/billing')).body.balanceTokens).toBe(balance);
  });

  it('answers 409 library_full at 25 documents for a sandbox key', async () => {
    box = await sandbox();
    const call = client(box);
    for (let i = 0; i < 25; i++) {
      expect((await call('POST', '/library/documents', { body: { title: `Policy ${i}`, content: policyText(`Policy number ${i}`) } })).status).toBe(202);
    }
    envelope(await call('POST', '/library/documents', { body: { title: 'One more', content: policyText('One more') } }), 409, 'library_full');
    const listing = await call('GET', '/library?limit=5');
    expect(listing.body.storage).toMatchObject({ documents: 25, maxDocuments: 25 });
    expect(listing.body.documents).toHaveLength(5);
  });
});

describe('library jobs and billing', () => {
  it('refunds an ingest that fails after admission and leaves no document', async () => {
    box = await sandbox({ faults: true });
    const call = client(box, LIVE_KEY);
    const ingest = await call('POST', '/library/documents', { body: { title: 'Doomed', content: policyText('Doomed') }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(ingest.status).toBe(202);
    const job = await call('GET', `/jobs/${ingest.body.jobId}`);
    expect(job.body).toMatchObject({ status: 'failed', kind: 'library_ingest', error: { code: 'processing_failed' } });
    const billing = (await call('GET', '/billing')).body;
    expect(billing.balanceTokens).toBe(5_000_000);
    expect(billing.ledger[0]).toMatchObject({ operation: 'refund', tokens: 400_000, reference: ingest.body.jobId });
    envelope(await call('GET', `/library/documents/${ingest.body.documentId}`), 404, 'document_not_found');
    // The same content can be ingested again: the failed attempt holds nothing.
    expect((await call('POST', '/library/documents', { body: { title: 'Doomed', content: policyText('Doomed') } })).status).toBe(202);
  });

  it('charges 5,000 tokens per search and refuses a limit over the maximum without charging', async () => {
    box = await sandbox();
    const call = client(box, LIVE_KEY);
    await call('POST', '/library/documents', { body: { title: 'Backup policy', content: policyText('Backup') } });
    const before = (await call('GET', '/billing')).body.balanceTokens;
    const found = await call('POST', '/library/search', { body: { query: 'encrypted backups' } });
    expect(found.status).toBe(200);
    expect(found.body.results[0].snippets.join(' ')).toContain('<mark>');
    expect((await call('GET', '/billing')).body.balanceTokens).toBe(before - 5_000);
    envelope(await call('POST', '/library/search', { body: { query: 'backups', limit: 1000 } }), 400, 'invalid_limit');
    expect((await call('GET', '/billing')).body.balanceTokens).toBe(before - 5_000);
  });

  it("answers another key's document exactly like an unknown one", async () => {
    box = await sandbox();
    const call = client(box);
    const ingest = await call('POST', '/library/documents', { body: { title: 'Mine', content: policyText('Mine') } });
    const id = ingest.body.documentId as string;
    expect((await call('GET', `/library/documents/${id}`)).status).toBe(200);
    envelope(await call('GET', `/library/documents/${id}`, { key: OTHER_KEY }), 404, 'document_not_found');
    envelope(await call('DELETE', `/library/documents/${id}`, { key: OTHER_KEY }), 404, 'document_not_found');
    envelope(await call('POST', `/library/documents/${id}/refresh`, { key: OTHER_KEY, body: { content: policyText('Theirs') } }), 404, 'document_not_found');
    expect((await call('POST', '/library/search', { key: OTHER_KEY, body: { query: 'least privilege' } })).body.results).toEqual([]);
    expect((await call('GET', `/library/documents/${id}`)).status).toBe(200);
  });
});

describe('deleting a document with a pending job', () => {
  it('fails the job as document_deleted (not internal_error), refunds it once and logs it', async () => {
    const clock = new ManualClock();
    box = await sandbox({ jobSeconds: 60, clock: clock.now });
    const call = client(box, LIVE_KEY);
    const logged: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => void logged.push(String(line)));
    try {
      const kept = await call('POST', '/library/documents', { body: { title: 'Kept', content: policyText('Kept') } });
      clock.advance(60_000);
      expect((await call('GET', `/jobs/${kept.body.jobId}`)).body.status).toBe('completed');
      const start = (await call('GET', '/billing')).body.balanceTokens;

      const ingest = await call('POST', '/library/documents', { body: { title: 'Pending', content: policyText('Pending') } });
      const refresh = await call('POST', `/library/documents/${kept.body.documentId}/refresh`, { body: { content: policyText('Changed') } });
      expect([ingest.status, refresh.status]).toEqual([202, 202]);
      expect((await call('GET', `/jobs/${ingest.body.jobId}`)).body.status).toBe('queued');
      expect((await call('DELETE', `/library/documents/${ingest.body.documentId}`)).status).toBe(200);
      expect((await call('DELETE', `/library/documents/${kept.body.documentId}`)).status).toBe(200);

      clock.advance(60_000); // past the jobs' due time: settling must not touch them again
      for (const [job, documentId] of [[ingest.body.jobId, ingest.body.documentId], [refresh.body.jobId, kept.body.documentId]]) {
        const answer = await call('GET', `/jobs/${job}`);
        expect(answer.body).toMatchObject({ status: 'failed', error: { code: 'document_deleted' } });
        expect(answer.body.error.message).toContain(`${documentId} was deleted`);
      }
      const billing = (await call('GET', '/billing')).body;
      expect(billing.balanceTokens).toBe(start);
      const refunds = billing.ledger.filter((entry: { operation: string }) => entry.operation === 'refund');
      expect(refunds.map((entry: { reference: string }) => entry.reference).sort()).toEqual([ingest.body.jobId, refresh.body.jobId].sort());
      expect(logged.filter((line) => line.includes('was deleted before it finished'))).toHaveLength(2);
      expect(logged.filter((line) => line.includes(ingest.body.jobId))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('what the library counts and refuses', () => {
  it('refuses blank text (spaces, zero-width spaces) before charging, and counts characters as code points', async () => {
    box = await sandbox();
    const call = client(box, LIVE_KEY);
    const balance = (await call('GET', '/billing')).body.balanceTokens;
    for (const content of [' '.repeat(300), '\u200B'.repeat(300), '\uFEFF\u2060\u200D\n'.repeat(100), '\u2800'.repeat(300), '\u0301'.repeat(300), '\u{1D159}'.repeat(200), '🔒'.repeat(300)]) {
      const error = envelope(await call('POST', '/library/documents', { body: { title: 'Blank', content } }), 400, 'empty_document');
      expect(error.message).toContain('no letter or digit');
    }
    // 150 letters outside the BMP are 150 characters (300 UTF-16 code units): under the minimum, and the message says how it counted.
    const short = envelope(await call('POST', '/library/documents', { body: { title: 'Astral', content: '𝐀'.repeat(150) } }), 400, 'content_too_short');
    expect(short.message).toContain('has 150 characters (Unicode code points)');
    expect((await call('GET', '/billing')).body.balanceTokens).toBe(balance);

    // 300,000 of them (with spaces) are 300,000 characters: within the maximum, held and reported as that size.
    const emoji = await call('POST', '/library/documents', { body: { title: 'Astral', content: '𝐀 '.repeat(150_000) } });
    expect(emoji.status).toBe(202);
    expect((await call('GET', `/library/documents/${emoji.body.documentId}`)).body.size).toBe(300_000);
    const blankRefresh = await call('POST', `/library/documents/${emoji.body.documentId}/refresh`, { body: { content: '\u200B'.repeat(300) } });
    envelope(blankRefresh, 400, 'empty_document');

    const openapi = (await call('GET', '/openapi.json')).body;
    const content = openapi.paths['/library/documents'].post.requestBody.content['application/json'].schema.properties.content;
    expect(content).toMatchObject({ minLength: 200, maxLength: 300_000 });
    expect(content.description).toContain('Unicode code points');
    expect(new RegExp(content.pattern, 'u').test('\u200B'.repeat(300))).toBe(false);
  });
});
