/** The library: one document's metadata, the listing with storage counters and pagination, a delete. */
import type { z } from 'zod/v4/mini';
import type { libraryDeleted, libraryDocument, libraryListing } from '../schemas/responses.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickBoolean,
  pickNumber,
  pickRecord,
  pickText,
  toStringList,
  toText,
  unexpected,
} from './read.js';

export type LibraryDocumentModel = z.output<typeof libraryDocument>;
/** `nextPage` is set when the service paginates by page number rather than by cursor. */
export type LibraryListingModel = z.output<typeof libraryListing> & { nextPage?: number };
type LibraryDeletedModel = z.output<typeof libraryDeleted>;

const ID_NAMES = ['id', 'documentId', 'document_id', '_id', 'docId'];
const LIST_NAMES = ['documents', 'items', 'data', 'results', 'library', 'docs'];

function nullableText(object: JsonObject, names: readonly string[]): string | null | undefined {
  const text = pickText(object, names);
  if (text !== undefined) return text;
  return names.some((name) => object[name] === null) ? null : undefined;
}

export function libraryDocumentOf(raw: unknown, context: NormalizeContext, what = 'library document'): LibraryDocumentModel {
  const outer = objectOf(raw, context, what);
  const object = isRecord(outer.document) ? { ...outer, ...outer.document } : outer;
  const id = pickText(object, ID_NAMES) ?? (what === 'library document' ? toText(context.input?.id) : undefined);
  if (id === undefined) throw unexpected(context, `id of the ${what}`, ID_NAMES, object);
  const hash = pickText(object, ['contentHash', 'content_hash', 'hash', 'sha256', 'checksum']);
  return defined({
    ...object,
    document: undefined,
    id,
    title: pickText(object, ['title', 'name']) ?? pickText(object, ['filename']) ?? id,
    filename: nullableText(object, ['filename', 'fileName', 'file_name', 'path']),
    category: nullableText(object, ['category', 'folder', 'classification.category']),
    tags: toStringList(object.tags ?? object.labels ?? valueOfClassificationTags(object)) ?? [],
    version: pickNumber(object, ['version', 'revision', 'versionNumber']) ?? 1,
    size: pickNumber(object, ['size', 'characters', 'chars', 'length', 'contentLength']),
    // A bare hex digest gets the documented `sha256:` prefix so comparisons work either way.
    contentHash: hash !== undefined && /^[0-9a-f]{64}$/i.test(hash) ? `sha256:${hash.toLowerCase()}` : hash,
    summary: pickText(object, ['summary', 'abstract', 'classification.summary']),
    status: pickText(object, ['status', 'state']),
    createdAt: pickText(object, ['createdAt', 'created_at', 'created']),
    updatedAt: pickText(object, ['updatedAt', 'updated_at', 'modifiedAt', 'updated']),
    content: pickText(object, ['content', 'text', 'body']),
  }) as LibraryDocumentModel;
}

function valueOfClassificationTags(object: JsonObject): unknown {
  return isRecord(object.classification) ? object.classification.tags : undefined;
}

/** A cursor from `nextCursor`, `next` (a token or a URL with `?cursor=`), `pagination.next`… */
function nextCursorOf(object: JsonObject): { cursor?: string; page?: number } {
  const value = pickText(object, [
    'nextCursor', 'next_cursor', 'next', 'cursor.next', 'pagination.nextCursor', 'pagination.next_cursor', 'pagination.next', 'meta.nextCursor', 'meta.next_cursor', 'links.next', 'nextPageToken',
  ]);
  if (value !== undefined && value !== '') {
    if (/^(https?:\/\/|\/)/.test(value)) {
      const url = new URL(value, 'http://relative.invalid');
      const cursor = url.searchParams.get('cursor');
      const page = Number(url.searchParams.get('page'));
      if (cursor) return { cursor };
      if (Number.isInteger(page) && page > 0) return { page };
      return {};
    }
    return { cursor: value };
  }
  const pagination = pickRecord(object, ['pagination', 'meta', 'page']) ?? object;
  const page = pickNumber(pagination, ['page', 'currentPage', 'current_page']);
  const pages = pickNumber(pagination, ['totalPages', 'total_pages', 'pages', 'pageCount']);
  const hasMore = pickBoolean(pagination, ['hasMore', 'has_more', 'hasNext']);
  if (page !== undefined && ((pages !== undefined && page < pages) || (pages === undefined && hasMore === true))) {
    return { page: page + 1 };
  }
  return {};
}

export function normalizeLibraryListing(raw: unknown, context: NormalizeContext): LibraryListingModel {
  const object: JsonObject = Array.isArray(raw) ? { documents: raw } : objectOf(raw, context, 'library listing');
  const list = pickArray(object, LIST_NAMES);
  if (list === undefined) throw unexpected(context, 'document list', LIST_NAMES, object);
  const documents = list.map((item, index) => libraryDocumentOf(item, context, `document ${index + 1} of the listing`));
  const storageObject = pickRecord(object, ['storage', 'usage', 'counters', 'quota', 'capacity']);
  const storage = storageObject
    ? defined({
        ...storageObject,
        documents: pickNumber(storageObject, ['documents', 'count', 'used', 'documentCount', 'documents.used']) ?? documents.length,
        // Absent when the service does not say: the spec's capacity depends on the key's mode.
        maxDocuments: pickNumber(storageObject, ['maxDocuments', 'max_documents', 'limit', 'max', 'capacity', 'documents.limit']),
        bytes: pickNumber(storageObject, ['bytes', 'sizeBytes', 'usedBytes', 'storageBytes', 'size']) ?? 0,
      })
    : undefined;
  const next = nextCursorOf(object);
  return defined({
    ...object,
    documents,
    storage,
    nextCursor: next.cursor ?? null,
    nextPage: next.page,
  }) as LibraryListingModel;
}

export function normalizeLibraryDeleted(raw: unknown, context: NormalizeContext): LibraryDeletedModel {
  // A 200 with an empty or minimal body still means the document is gone.
  const object = raw === null || raw === undefined || raw === '' ? {} : objectOf(raw, context, 'delete result');
  const id = pickText(object, ID_NAMES) ?? toText(context.input?.id);
  if (id === undefined) throw unexpected(context, 'id of the deleted document', ID_NAMES, object);
  return { ...object, id, deleted: pickBoolean(object, ['deleted', 'ok', 'success', 'removed']) ?? true };
}
