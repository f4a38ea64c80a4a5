/**
 * The library engine: per-key documents in the server's SQLite database and the pending → ready
 * life cycle of ingest and refresh jobs. Admission (admission.ts), the classification cache
 * (neighbours.ts), the full-text index and its migration (passageIndex.ts), the document rows
 * (documentRows.ts) and listing cursors (cursor.ts) are their own modules.
 *
 * Transactions: the server may call any method inside its own transaction (charge + library change
 * commit together). Methods that write more than one statement use a savepoint, which nests inside
 * the caller's transaction and stands alone outside one; none begins or commits a transaction.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { contentHash } from '../../api/contentHash.js';
import { characterCount } from '../../api/schemas/common.js';
import { savepoint, Statements } from '../sqlite.js';
import { documentNotFound, ingestAdmission, refreshAdmission } from './admission.js';
import { classifyDocument } from './classify.js';
import { LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, SANDBOX_CLASSIFICATION_WATERMARK, SANDBOX_SUMMARY_PREFIX } from './constants.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { findDocument, metadataColumns, storageOf, toView, type DocumentRow } from './documentRows.js';
import { LibraryError } from './errors.js';
import { ClassificationNeighbours } from './neighbours.js';
import { indexedPassages, PassageIndex } from './passageIndex.js';
import { createLibrarySchema, DOCUMENTS_TABLE } from './schema.js';
import type {
  Classification, CompleteOptions, IngestAdmission, IngestInput, InterruptedWork, LibraryDocumentView, LibraryPage,
  ListOptions, PendingWork, SearchInput, SearchOutcome, StorageCounters,
} from './types.js';

interface LibraryOptions {
  /** Source of document ids (default: `doc_` + 16 random hex digits). */
  newDocumentId?: () => string;
}

export class Library {
  private readonly sql: Statements;
  private readonly index: PassageIndex;
  private readonly neighbours: ClassificationNeighbours;
  private readonly newDocumentId: () => string;

  /** Creates the library's tables in `db` when they do not exist yet. */
  constructor(
    private readonly db: DatabaseSync,
    options: LibraryOptions = {},
  ) {
    this.newDocumentId = options.newDocumentId ?? (() => `doc_${randomBytes(8).toString('hex')}`);
    this.sql = new Statements(db);
    this.index = new PassageIndex(db, this.sql);
    this.neighbours = new ClassificationNeighbours(this.sql);
    createLibrarySchema(db);
    this.index.buildMissingRankingTables();
  }

  /** The rejection an ingest would get (size, duplicate, capacity), without writing anything. */
  checkIngest(keyId: string, content: string, capacity: number): LibraryError | null {
    return ingestAdmission(this.sql, keyId, content, capacity).rejection;
  }

  /** Admits and stores a pending document (throws LibraryError on rejection); the job then calls completeWork or failWork. */
  beginIngest(keyId: string, input: IngestInput, admission: IngestAdmission): PendingWork {
    const { rejection, hash } = ingestAdmission(this.sql, keyId, input.content, admission.capacity);
    if (rejection) throw rejection;
    const id = this.newDocumentId();
    const givenCategory = input.category?.trim() || null;
    const givenTags = JSON.stringify(uniqueTags(input.tags ?? []));
    this.sql.run(
      `insert into ${DOCUMENTS_TABLE} (key_id, id, title, filename, given_category, given_tags, category, tags, status, version,
         content, content_hash, size, bytes, pending_kind, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 1, ?, ?, ?, ?, 'ingest', ?, ?)`,
      keyId, id, input.title.trim(), input.filename?.trim() || null, givenCategory, givenTags, givenCategory, givenTags,
      input.content, hash, characterCount(input.content), Buffer.byteLength(input.content, 'utf8'),
      admission.now, admission.now,
    );
    return { documentId: id, version: 1, kind: 'ingest' };
  }

  /** The rejection a refresh would get (not found, busy, size, unchanged, duplicate of another), without writing anything. */
  checkRefresh(keyId: string, documentId: string, content: string): LibraryError | null {
    return refreshAdmission(this.sql, keyId, documentId, content).rejection;
  }

  /** Stores the new content as the document's pending version; the current version stays live until completeWork. */
  beginRefresh(keyId: string, documentId: string, content: string, now: string): PendingWork {
    const { rejection, hash } = refreshAdmission(this.sql, keyId, documentId, content);
    if (rejection) throw rejection;
    this.sql.run(
      `update ${DOCUMENTS_TABLE} set pending_kind = 'refresh', pending_content = ?, pending_hash = ?, updated_at = ? where key_id = ? and id = ?`,
      content, hash, now, keyId, documentId,
    );
    const row = findDocument(this.sql, keyId, documentId, false);
    return { documentId, version: (row?.version ?? 0) + 1, kind: 'refresh' };
  }

  /**
   * The job's work: classify, tag, summarise, index and make the pending version live. Throws
   * LibraryError document_not_found when the document was deleted meanwhile; a document without
   * pending work is returned as it is.
   */
  completeWork(keyId: string, documentId: string, options: CompleteOptions): LibraryDocumentView {
    const row = findDocument(this.sql, keyId, documentId, true, true);
    if (!row) throw documentNotFound(documentId);
    if (!row.pending_kind) return toView(row, false);
    const content = row.pending_kind === 'refresh' ? (row.pending_content ?? '') : row.content;
    const version = row.pending_kind === 'refresh' ? row.version + 1 : row.version;
    const hash = row.pending_kind === 'refresh' ? (row.pending_hash ?? contentHash(content)) : row.content_hash;
    const result = classifyDocument({
      title: row.title,
      content,
      givenCategory: row.given_category,
      givenTags: JSON.parse(row.given_tags) as string[],
      neighbourhood: this.neighbours.of(keyId, documentId),
    });
    const sandbox = options.mode === 'sandbox';
    const classification: Classification = {
      method: result.method,
      confidence: result.confidence,
      ...(sandbox ? { watermark: SANDBOX_CLASSIFICATION_WATERMARK } : {}),
    };
    const passages = indexedPassages(content);
    savepoint(this.db, () => {
      // A first ingest has nothing indexed yet; a refresh replaces the previous version's passages.
      if (row.passages > 0) this.index.remove(keyId, row.seq);
      this.index.insert(keyId, row.seq, row.title, passages);
      this.sql.run(
        `update ${DOCUMENTS_TABLE} set status = 'ready', version = ?, content = ?, content_hash = ?, size = ?, bytes = ?,
           category = ?, tags = ?, summary = ?, classification = ?, profile = ?,
           pending_kind = null, pending_content = null, pending_hash = null, updated_at = ?, passages = ?
         where seq = ?`,
        version, content, hash, characterCount(content), Buffer.byteLength(content, 'utf8'),
        result.category, JSON.stringify(result.tags), (sandbox ? SANDBOX_SUMMARY_PREFIX : '') + result.summary,
        JSON.stringify(classification), JSON.stringify(result.profile), options.now, passages.length, row.seq,
      );
    });
    this.indexWritten(keyId);
    const view = this.get(keyId, documentId);
    if (!view) throw documentNotFound(documentId);
    return view;
  }

  /** A failed job: a pending ingest is removed, a pending refresh discarded (the previous version stays live). */
  failWork(keyId: string, documentId: string): void {
    this.sql.run(`delete from ${DOCUMENTS_TABLE} where key_id = ? and id = ? and pending_kind = 'ingest'`, keyId, documentId);
    this.sql.run(
      `update ${DOCUMENTS_TABLE} set pending_kind = null, pending_content = null, pending_hash = null
       where key_id = ? and id = ? and pending_kind = 'refresh'`,
      keyId, documentId,
    );
  }

  /** Every pending ingest or refresh of every key (for failing interrupted jobs after a restart). */
  interruptedWork(): InterruptedWork[] {
    return this.sql.rows<{ key_id: string; id: string; version: number; pending_kind: 'ingest' | 'refresh' }>(
      `select key_id, id, version, pending_kind from ${DOCUMENTS_TABLE} where pending_kind is not null order by seq`,
    ).map((r) => ({
      keyId: r.key_id,
      documentId: r.id,
      kind: r.pending_kind,
      version: r.pending_kind === 'refresh' ? r.version + 1 : r.version,
    }));
  }

  /** One document's metadata (with its text when includeContent), or undefined. */
  get(keyId: string, documentId: string, options: { includeContent?: boolean } = {}): LibraryDocumentView | undefined {
    const row = findDocument(this.sql, keyId, documentId, options.includeContent === true);
    return row ? toView(row, options.includeContent === true) : undefined;
  }

  /** A page of documents, oldest first, filtered by category and/or tag (case-insensitive). */
  list(keyId: string, options: ListOptions = {}): LibraryPage {
    const limit = options.limit ?? LIST_DEFAULT_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > LIST_MAX_LIMIT) {
      throw new LibraryError('invalid_limit', `limit must be an integer from 1 to ${LIST_MAX_LIMIT} (got ${limit}).`, `Omit limit for ${LIST_DEFAULT_LIMIT} per page.`);
    }
    const after = options.cursor === undefined ? 0 : decodeCursor(options.cursor);
    const filters: string[] = [];
    const params: SQLInputValue[] = [keyId, after];
    if (options.category !== undefined) {
      filters.push('and lower(category) = lower(?)');
      params.push(options.category.trim());
    }
    if (options.tag !== undefined) {
      filters.push('and exists (select 1 from json_each(tags) where lower(json_each.value) = lower(?))');
      params.push(options.tag.trim());
    }
    const rows = this.sql.rows<DocumentRow>(
      `select ${metadataColumns(false)} from ${DOCUMENTS_TABLE}
       where key_id = ? and seq > ? ${filters.join(' ')} order by seq limit ${limit + 1}`,
      ...params,
    );
    const page = rows.slice(0, limit);
    const last = page[page.length - 1];
    return {
      documents: page.map((r) => toView(r, false)),
      nextCursor: rows.length > limit && last ? encodeCursor(last.seq) : null,
    };
  }

  /** Removes a document and its index entries; false when there was none. */
  delete(keyId: string, documentId: string): boolean {
    const row = findDocument(this.sql, keyId, documentId, false);
    if (!row) return false;
    savepoint(this.db, () => {
      if (row.passages > 0) this.index.remove(keyId, row.seq);
      this.sql.run(`delete from ${DOCUMENTS_TABLE} where seq = ?`, row.seq);
    });
    if (row.passages > 0) this.indexWritten(keyId);
    return true;
  }

  /** Documents held (pending ingests included) and UTF-8 bytes of their current content. */
  storage(keyId: string): StorageCounters {
    return storageOf(this.sql, keyId);
  }

  /** Merges the key's index into one segment (see PassageIndex.merge); the server schedules it for idle time. */
  mergeIndex(keyId: string): void {
    this.index.merge(keyId);
  }

  /** Counts an index write; every INDEX_MERGE_EVERY_WRITES of them the key's index is merged at once. */
  private indexWritten(keyId: string): void {
    if (this.index.written(keyId)) this.mergeIndex(keyId);
  }

  /** Ranked full-text search over the key's ready documents (throws LibraryError invalid_query or invalid_limit). */
  search(keyId: string, input: SearchInput): SearchOutcome {
    return this.index.search(keyId, input);
  }
}

function uniqueTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  return tags.map((t) => t.trim()).filter((t) => {
    const key = t.toLowerCase();
    if (!t || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
