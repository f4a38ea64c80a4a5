import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../api/schemas/common.js';
import { libraryDocument, libraryListing } from '../../api/schemas/responses.js';
import { contentHash } from '../../api/contentHash.js';
import { Library, LibraryError } from '../../sandbox/library/index.js';
import { LATER, NOW, SANDBOX_CAPACITY, ingestReady, newLibrary, policyText } from './helpers.js';

function rejection(fn: () => unknown): LibraryError {
  try {
    fn();
  } catch (error) {
    if (error instanceof LibraryError) return error;
    throw error;
  }
  throw new Error('expected a LibraryError');
}

describe('admission', () => {
  it('rejects content under 200 and over 300,000 characters before writing anything', () => {
    const { library } = newLibrary();
    const short = library.checkIngest('k', 'x'.repeat(LIMITS.libraryMinChars - 1), SANDBOX_CAPACITY);
    expect(short).toMatchObject({ code: 'content_too_short', status: 400 });
    expect(library.checkIngest('k', 'word '.repeat(40), SANDBOX_CAPACITY)).toBeNull();
    const long = rejection(() => library.beginIngest('k', { title: 't', content: 'a '.repeat(150_001) }, { capacity: 25, now: NOW }));
    expect(long).toMatchObject({ code: 'content_too_long', status: 400 });
    expect(library.storage('k')).toEqual({ documents: 0, bytes: 0 });
  });

  it('names the holder of duplicate content, treating CRLF and trailing spaces as the same content', () => {
    const { library } = newLibrary();
    const lf = policyText('backup');
    const held = ingestReady(library, 'k', { title: 'Backup', content: lf });
    const crlf = lf.split('\n').map((line) => `${line}  `).join('\r\n');
    expect(contentHash(crlf)).toBe(contentHash(lf));
    const error = library.checkIngest('k', crlf, SANDBOX_CAPACITY);
    expect(error).toMatchObject({ code: 'duplicate_document', status: 409, details: { documentId: held.id } });
    expect(error?.hint).toContain(held.id);
    // A pending ingest already holds its content.
    library.beginIngest('k', { title: 'Other', content: policyText('restore') }, { capacity: 25, now: NOW });
    expect(library.checkIngest('k', policyText('restore'), SANDBOX_CAPACITY)?.code).toBe('duplicate_document');
  });

  it('refuses the document after the capacity, pending documents included', () => {
    const { library } = newLibrary();
    for (let i = 0; i < 3; i++) library.beginIngest('k', { title: `D${i}`, content: policyText(`topic ${i}`) }, { capacity: 3, now: NOW });
    const full = library.checkIngest('k', policyText('one more'), 3);
    expect(full).toMatchObject({ code: 'library_full', status: 409, details: { documents: 3, capacity: 3 } });
    expect(library.checkIngest('k', policyText('one more'), 4)).toBeNull();
  });
});

describe('life cycle', () => {
  it('creates a pending document, then classifies, indexes and marks it ready', () => {
    const { library } = newLibrary();
    const work = library.beginIngest('k', { title: 'Access Control Policy', content: policyText('access', 300), filename: 'access.md', tags: ['soc2'] }, { capacity: 25, now: NOW });
    expect(work).toEqual({ documentId: 'doc_0000000000000001', version: 1, kind: 'ingest' });
    expect(library.get('k', work.documentId)).toMatchObject({ status: 'pending', version: 1, summary: null, createdAt: NOW });
    expect(library.search('k', { query: 'access' }).results).toEqual([]);
    const ready = library.completeWork('k', work.documentId, { mode: 'live', now: LATER });
    expect(ready).toMatchObject({ status: 'ready', version: 1, filename: 'access.md', createdAt: NOW, updatedAt: LATER });
    expect(ready.tags[0]).toBe('soc2');
    expect(ready.classification).not.toHaveProperty('watermark');
    expect(libraryDocument.safeParse(ready).success).toBe(true);
    expect(library.search('k', { query: 'access' }).results.map((r) => r.documentId)).toEqual([work.documentId]);
  });

  it('removes a pending ingest that fails', () => {
    const { library } = newLibrary();
    const work = library.beginIngest('k', { title: 'T', content: policyText('x') }, { capacity: 25, now: NOW });
    library.failWork('k', work.documentId);
    expect(library.get('k', work.documentId)).toBeUndefined();
    expect(library.storage('k').documents).toBe(0);
    expect(library.checkIngest('k', policyText('x'), 25)).toBeNull();
  });

  it('versions refreshes, keeps the previous version live until done, and keeps it when the refresh fails', () => {
    const { library } = newLibrary();
    const doc = ingestReady(library, 'k', { title: 'Backups', content: policyText('tape rotation') });
    const work = library.beginRefresh('k', doc.id, policyText('cloud snapshot'), LATER);
    expect(work).toEqual({ documentId: doc.id, version: 2, kind: 'refresh' });
    expect(library.get('k', doc.id)).toMatchObject({ version: 1, status: 'ready', pendingVersion: 2 });
    expect(library.search('k', { query: 'tape rotation' }).total).toBe(1);
    expect(library.checkRefresh('k', doc.id, policyText('third'))?.code).toBe('document_busy');

    library.failWork('k', doc.id);
    expect(library.get('k', doc.id, { includeContent: true })).toMatchObject({ version: 1, content: policyText('tape rotation') });
    expect(library.get('k', doc.id)).not.toHaveProperty('pendingVersion');

    library.beginRefresh('k', doc.id, policyText('cloud snapshot'), LATER);
    const refreshed = library.completeWork('k', doc.id, { mode: 'live', now: LATER });
    expect(refreshed).toMatchObject({ version: 2, contentHash: contentHash(policyText('cloud snapshot')) });
    expect(library.search('k', { query: 'tape' }).total).toBe(0);
    expect(library.search('k', { query: 'snapshot' }).total).toBe(1);
  });

  it('answers refresh rejections: unknown id, identical content, content of another document', () => {
    const { library } = newLibrary();
    const a = ingestReady(library, 'k', { title: 'A', content: policyText('alpha') });
    ingestReady(library, 'k', { title: 'B', content: policyText('beta') });
    expect(library.checkRefresh('k', 'doc_missing', policyText('x'))).toMatchObject({ code: 'document_not_found', status: 404 });
    expect(library.checkRefresh('k', a.id, policyText('alpha').replace(/\n/g, '\r\n'))).toMatchObject({ code: 'document_unchanged', status: 409, details: { version: 1 } });
    expect(library.checkRefresh('k', a.id, policyText('beta'))).toMatchObject({ code: 'duplicate_document', details: { documentId: 'doc_0000000000000002' } });
  });

  it('reports interrupted work of every key', () => {
    const { library } = newLibrary();
    const a = library.beginIngest('k1', { title: 'A', content: policyText('a') }, { capacity: 25, now: NOW });
    const b = ingestReady(library, 'k2', { title: 'B', content: policyText('b') });
    library.beginRefresh('k2', b.id, policyText('b2'), NOW);
    expect(library.interruptedWork()).toEqual([
      { keyId: 'k1', documentId: a.documentId, kind: 'ingest', version: 1 },
      { keyId: 'k2', documentId: b.id, kind: 'refresh', version: 2 },
    ]);
  });

  it('does its multi-statement work inside the caller transaction and rolls back with it', () => {
    const { db, library } = newLibrary();
    db.exec('begin');
    const doc = ingestReady(library, 'k', { title: 'T', content: policyText('rollback') });
    expect(library.search('k', { query: 'rollback' }).total).toBe(1);
    db.exec('rollback');
    expect(library.get('k', doc.id)).toBeUndefined();
    expect(library.search('k', { query: 'rollback' }).total).toBe(0);
  });
});

describe('listing, deletion and isolation', () => {
  it('pages in stable order with a cursor and filters by category and tag', () => {
    const { library } = newLibrary();
    const ids = Array.from({ length: 7 }, (_, i) =>
      ingestReady(library, 'k', { title: `Doc ${i}`, content: policyText(`subject ${i}`), category: i % 2 ? 'Odd' : 'Even', tags: i === 3 ? ['Special'] : [] }).id,
    );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = library.list('k', { limit: 3, ...(cursor ? { cursor } : {}) });
      expect(libraryListing.safeParse(page).success).toBe(true);
      seen.push(...page.documents.map((d) => d.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
    expect(library.list('k', { category: 'odd' }).documents.map((d) => d.id)).toEqual([ids[1], ids[3], ids[5]]);
    expect(library.list('k', { tag: 'special' }).documents.map((d) => d.id)).toEqual([ids[3]]);
    expect(library.list('k').documents[0]).not.toHaveProperty('content');
    expect(() => library.list('k', { cursor: 'bogus' })).toThrow(expect.objectContaining({ code: 'invalid_cursor' }));
    expect(() => library.list('k', { limit: 101 })).toThrow(expect.objectContaining({ code: 'invalid_limit' }));
  });

  it('deletes a document and its index entries', () => {
    const { library } = newLibrary();
    const doc = ingestReady(library, 'k', { title: 'Encryption Standard', content: policyText('encryption') });
    const other = ingestReady(library, 'k', { title: 'Other', content: policyText('encryption keys rotation') });
    expect(library.search('k', { query: 'encryption' }).total).toBe(2);
    expect(library.delete('k', doc.id)).toBe(true);
    expect(library.delete('k', doc.id)).toBe(false);
    expect(library.search('k', { query: 'encryption' }).results.map((r) => r.documentId)).toEqual([other.id]);
    expect(library.storage('k')).toEqual({ documents: 1, bytes: Buffer.byteLength(policyText('encryption keys rotation')) });
  });

  it('never mixes documents of different keys', () => {
    const { library } = newLibrary();
    const mine = ingestReady(library, 'alice', { title: 'Alice', content: policyText('vendor review') });
    expect(library.get('bob', mine.id)).toBeUndefined();
    expect(library.list('bob').documents).toEqual([]);
    expect(library.search('bob', { query: 'vendor' }).results).toEqual([]);
    expect(library.delete('bob', mine.id)).toBe(false);
    expect(library.checkIngest('bob', policyText('vendor review'), 25)).toBeNull();
    expect(library.checkRefresh('bob', mine.id, policyText('x'))?.code).toBe('document_not_found');
    expect(library.storage('bob')).toEqual({ documents: 0, bytes: 0 });
  });

  it('keeps everything in a file database across reopening', () => {
    const dir = mkdtempSync(join(tmpdir(), 'library-'));
    try {
      const path = join(dir, 'sandbox.sqlite');
      const first = new DatabaseSync(path);
      first.exec('pragma journal_mode = wal');
      const doc = ingestReady(new Library(first), 'k', { title: 'Retention Schedule', content: policyText('retention period') });
      first.close();
      const second = new DatabaseSync(path);
      const reopened = new Library(second);
      expect(reopened.get('k', doc.id)).toEqual(doc);
      expect(reopened.search('k', { query: 'retention period' }).results[0]?.documentId).toBe(doc.id);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
