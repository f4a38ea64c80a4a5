/**
 * The library read tolerantly (api/normalize/library.ts): every name the adapter accepts for a
 * document's fields, the listing, its storage counters and its pagination is read on its own, and
 * what it cannot read fails naming what it looked for. Sync compares these documents' hashes and
 * follows these pages: a misread name re-uploads a document, or stops the listing early.
 */
import { describe, expect, it } from 'vitest';
import { normalizeLibraryDeleted } from '../../api/normalize/library.js';
import { libraryDocumentOf, normalizeLibraryListing } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const GET = { operationId: 'getLibraryDocument', input: {} };
const LIST = { operationId: 'listLibrary', input: {} };
const document = (fields: Record<string, unknown>) => libraryDocumentOf({ id: 'd1', ...fields }, GET);
const listing = (fields: Record<string, unknown>) => normalizeLibraryListing({ documents: [], ...fields }, LIST);
const next = (fields: Record<string, unknown>) => {
  const { nextCursor, nextPage } = listing(fields);
  return { nextCursor, nextPage };
};
const HEX = 'ab'.repeat(32);
const ID_NAMES = ['id', 'documentId', 'document_id', '_id', 'docId'];

describe('a library document', () => {
  it('fails on an answer that is no object, or without an id, naming where it looked', () => {
    expect(() => libraryDocumentOf(3, GET)).toThrowError('getLibraryDocument: unexpected response: no library document (looked for an object); got number');
    expect(() => libraryDocumentOf({ title: 'T' }, GET)).toThrowError('no id of the library document (looked for id, documentId, document_id, _id, docId); keys seen: title');
  });

  it.each(ID_NAMES)('reads the id from %s', (name) => {
    expect(libraryDocumentOf({ [name]: 'd7' }, GET).id).toBe('d7');
  });

  it('takes the id asked for only for the document asked for, not for one of a listing', () => {
    expect(libraryDocumentOf({ title: 'T' }, { operationId: 'getLibraryDocument', input: { id: 'asked' } }).id).toBe('asked');
    expect(() => libraryDocumentOf({ title: 'T' }, { operationId: 'getLibraryDocument' })).toThrowError('no id of the library document');
    expect(() => libraryDocumentOf({ title: 'T' }, { operationId: 'listLibrary', input: { id: 'asked' } }, 'document 1 of the listing')).toThrowError('no id of the document 1 of the listing');
  });

  it('reads a document wrapped in document, leaving no document field', () => {
    const read = libraryDocumentOf({ document: { id: 'd1', title: 'T' }, requestId: 'r1' }, GET);
    expect(read).toMatchObject({ id: 'd1', title: 'T', requestId: 'r1' });
    expect('document' in read).toBe(false);
  });

  it.each(['title', 'name'])('reads the title from %s, else the filename, else the id', (name) => {
    expect(document({ [name]: 'Policy', filename: 'policy.md' }).title).toBe('Policy');
    expect(document({ filename: 'policy.md' }).title).toBe('policy.md');
    expect(document({}).title).toBe('d1');
  });

  it.each([
    ['filename', ['filename', 'fileName', 'file_name', 'path']],
    ['category', ['category', 'folder', 'classification.category']],
  ] as const)('reads the %s from each of its names; null when the service says none, absent when it is silent', (field, names) => {
    for (const name of names) expect(document(at(name, 'x'))[field]).toBe('x');
    for (const name of names.filter((name) => !name.includes('.'))) expect(document({ [name]: null })[field]).toBeNull();
    expect(field in document({})).toBe(false);
  });

  it('reads the tags from tags, labels or the classification, else none', () => {
    expect(document({ tags: ['a'] }).tags).toEqual(['a']);
    expect(document({ labels: 'a, b' }).tags).toEqual(['a', 'b']);
    expect(document({ classification: { tags: ['c'] } }).tags).toEqual(['c']);
    expect(document({ classification: 'c' }).tags).toEqual([]);
  });

  it.each(['version', 'revision', 'versionNumber'])('reads the version from %s, else 1', (name) => {
    expect(document({ [name]: 4 }).version).toBe(4);
    expect(document({}).version).toBe(1);
  });

  it.each(['size', 'characters', 'chars', 'length', 'contentLength'])('reads the size from %s', (name) => {
    expect(document({ [name]: 900 }).size).toBe(900);
  });

  it.each(['contentHash', 'content_hash', 'hash', 'sha256', 'checksum'])('reads the hash from %s; a bare hex digest gets the sha256: prefix, lower case', (name) => {
    expect(document({ [name]: HEX.toUpperCase() }).contentHash).toBe(`sha256:${HEX}`);
    expect(document({ [name]: `sha256:${HEX}` }).contentHash).toBe(`sha256:${HEX}`);
  });

  it('keeps a hash that is no bare 64-digit hex digest as given', () => {
    expect(document({ hash: `${HEX}0` }).contentHash).toBe(`${HEX}0`);
    expect(document({ hash: `x${HEX}` }).contentHash).toBe(`x${HEX}`);
    expect(document({ hash: 'md5:abc' }).contentHash).toBe('md5:abc');
  });

  it.each([
    ['summary', ['summary', 'abstract', 'classification.summary']],
    ['status', ['status', 'state']],
    ['createdAt', ['createdAt', 'created_at', 'created']],
    ['updatedAt', ['updatedAt', 'updated_at', 'modifiedAt', 'updated']],
    ['content', ['content', 'text', 'body']],
  ] as const)('reads the %s from each of its names', (field, names) => {
    for (const name of names) expect(document(at(name, 'x'))[field]).toBe('x');
  });
});

describe('the library listing', () => {
  it('fails on an answer that is no object, or without a list, naming where it looked', () => {
    expect(() => normalizeLibraryListing('x', LIST)).toThrowError('listLibrary: unexpected response: no library listing (looked for an object); got string');
    expect(() => normalizeLibraryListing({ total: 0 }, LIST)).toThrowError('no document list (looked for documents, items, data, results, library, docs); keys seen: total');
  });

  it.each(['documents', 'items', 'data', 'results', 'library', 'docs'])('reads the documents from %s', (name) => {
    expect(normalizeLibraryListing({ [name]: [{ id: 'd1' }], total: 1 }, LIST).documents.map((item) => item.id)).toEqual(['d1']);
  });

  it('reads a bare list, and names which document lacks an id', () => {
    expect(normalizeLibraryListing([{ id: 'd1' }], LIST).documents.map((item) => item.id)).toEqual(['d1']);
    expect(() => normalizeLibraryListing([{ id: 'd1' }, {}], LIST)).toThrowError('no id of the document 2 of the listing');
  });

  it.each(['storage', 'usage', 'counters', 'quota', 'capacity'])('reads the storage counters from %s', (name) => {
    expect(listing({ [name]: { documents: 3, maxDocuments: 25, bytes: 900 } }).storage).toEqual({ documents: 3, maxDocuments: 25, bytes: 900 });
  });

  it('has no storage counters when the answer gives none; counts the documents listed and no bytes when it gives only a capacity', () => {
    expect('storage' in listing({})).toBe(false);
    expect(normalizeLibraryListing({ documents: [{ id: 'd1' }], storage: { max: 25 } }, LIST).storage).toStrictEqual({ max: 25, documents: 1, maxDocuments: 25, bytes: 0 });
  });

  it.each([
    ['documents', ['documents', 'count', 'used', 'documentCount', 'documents.used']],
    ['maxDocuments', ['maxDocuments', 'max_documents', 'limit', 'max', 'capacity', 'documents.limit']],
    ['bytes', ['bytes', 'sizeBytes', 'usedBytes', 'storageBytes', 'size']],
  ] as const)('reads the storage %s from each of its names', (field, names) => {
    for (const name of names) expect(listing({ storage: at(name, 7) }).storage?.[field]).toBe(7);
  });

  it.each(['nextCursor', 'next_cursor', 'next', 'cursor.next', 'pagination.nextCursor', 'pagination.next_cursor', 'pagination.next', 'meta.nextCursor', 'meta.next_cursor', 'links.next', 'nextPageToken'])(
    'reads the next cursor from %s',
    (name) => {
      expect(next(at(name, 'c2'))).toEqual({ nextCursor: 'c2', nextPage: undefined });
    },
  );

  it('reads a next link: its cursor, else its page, else no next page', () => {
    expect(next({ next: 'https://api.example.test/library?cursor=c3' })).toEqual({ nextCursor: 'c3', nextPage: undefined });
    expect(next({ next: 'http://api.example.test/library?page=2' })).toEqual({ nextCursor: null, nextPage: 2 });
    expect(next({ next: '/library?page=0' })).toEqual({ nextCursor: null, nextPage: undefined });
    expect(next({ next: '/library?page=1.5' })).toEqual({ nextCursor: null, nextPage: undefined });
    expect(next({ next: '/library' })).toEqual({ nextCursor: null, nextPage: undefined });
    expect(next({ next: 'cursor/with/slashes' })).toEqual({ nextCursor: 'cursor/with/slashes', nextPage: undefined });
    expect(next({ next: 'ftp://x/?cursor=c4' })).toEqual({ nextCursor: 'ftp://x/?cursor=c4', nextPage: undefined });
  });

  it('takes an empty next cursor as the last page', () => {
    expect(next({ nextCursor: '', page: 1, totalPages: 2 })).toEqual({ nextCursor: null, nextPage: 2 });
    expect(next({ nextCursor: '' })).toEqual({ nextCursor: null, nextPage: undefined });
  });

  it.each(['pagination', 'meta', 'page'])('reads page numbers from %s', (name) => {
    expect(next({ [name]: { page: 1, totalPages: 2 } })).toEqual({ nextCursor: null, nextPage: 2 });
  });

  it.each([
    ['page', ['page', 'currentPage', 'current_page']],
    ['pages', ['totalPages', 'total_pages', 'pages', 'pageCount']],
    ['more', ['hasMore', 'has_more', 'hasNext']],
  ] as const)('reads the %s from each of its names', (what, names) => {
    for (const name of names) {
      const fields = what === 'page' ? { [name]: 2, totalPages: 3 } : what === 'pages' ? { page: 2, [name]: 3 } : { page: 2, [name]: true };
      expect(next(fields).nextPage).toBe(3);
    }
  });

  it('asks for the next page only while there is one', () => {
    expect(next({ page: 3, totalPages: 3 }).nextPage).toBeUndefined();
    expect(next({ page: 2, totalPages: 3, hasMore: false }).nextPage).toBe(3);
    expect(next({ page: 3, totalPages: 3, hasMore: true }).nextPage).toBeUndefined();
    expect(next({ page: 2, hasMore: false }).nextPage).toBeUndefined();
    expect(next({ page: 2 }).nextPage).toBeUndefined();
    expect(next({ totalPages: 3, hasMore: true }).nextPage).toBeUndefined();
    expect(next({ hasMore: true }).nextPage).toBeUndefined();
  });
});

describe('a deleted document', () => {
  const DELETE = { operationId: 'deleteLibraryDocument', input: { id: 'asked' } };

  it('an empty answer means the document asked for is gone', () => {
    for (const empty of [null, undefined, '']) expect(normalizeLibraryDeleted(empty, DELETE)).toEqual({ id: 'asked', deleted: true });
  });

  it.each(ID_NAMES)('reads the id from %s', (name) => {
    expect(normalizeLibraryDeleted({ [name]: 'd7' }, DELETE).id).toBe('d7');
  });

  it.each(['deleted', 'ok', 'success', 'removed'])('reads whether it was deleted from %s', (name) => {
    expect(normalizeLibraryDeleted({ [name]: false }, DELETE).deleted).toBe(false);
  });

  it('fails on an answer that is no object, or without an id anywhere, naming where it looked', () => {
    expect(() => normalizeLibraryDeleted('gone', DELETE)).toThrowError('deleteLibraryDocument: unexpected response: no delete result (looked for an object); got string');
    expect(() => normalizeLibraryDeleted({ ok: true }, { operationId: 'deleteLibraryDocument', input: {} })).toThrowError('no id of the deleted document (looked for id, documentId, document_id, _id, docId); keys seen: ok');
    expect(() => normalizeLibraryDeleted({ ok: true }, { operationId: 'deleteLibraryDocument' })).toThrowError('no id of the deleted document');
  });
});
