/**
 * The library engine: per-key documents in the server's SQLite database, admission rules, the
 * pending → ready life cycle of ingest and refresh jobs, classification, and full-text search.
 *
 * Transactions: the server may call any method inside its own transaction (charge + library change
 * commit together). Methods that write more than one statement use a SAVEPOINT, which nests inside
 * the caller's transaction and stands alone outside one; none begins or commits a transaction.
 */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { characterCount, isBlankText, LIMITS } from '../../api/schemas/common.js';
import type { TermProfile } from './analysis.js';
import { classifyDocument, type ClassifiedNeighbour } from './classify.js';
import { INDEX_MERGE_EVERY_WRITES, LIST_DEFAULT_LIMIT, LIST_MAX_LIMIT, SANDBOX_CLASSIFICATION_WATERMARK, SANDBOX_SUMMARY_PREFIX } from './constants.js';
import { contentHash } from '../../api/contentHash.js';
import { LibraryError } from './errors.js';
import { splitPassages, type Passage } from './passages.js';
import {
  createLibrarySchema, createPassageTable, createRankingTable, DOCUMENTS_TABLE, passageRowid, passageTable, rankingRow, rankingTable,
} from './schema.js';
import { searchPassages } from './search.js';
import type {
  Classification, CompleteOptions, IngestAdmission, IngestInput, InterruptedWork, LibraryDocumentView, LibraryPage,
  ListOptions, PendingWork, SearchInput, SearchOutcome, StorageCounters,
} from './types.js';

interface LibraryOptions {
  /** Source of document ids (default: `doc_` + 16 random hex digits). */
  newDocumentId?: () => string;
}

/** A row of the documents table. */
interface DocumentRow {
  seq: number;
  key_id: string;
  id: string;
  title: string;
  filename: string | null;
  given_category: string | null;
  given_tags: string;
  category: string | null;
  tags: string;
  classification: string | null;
  summary: string | null;
  profile: string | null;
  status: 'pending' | 'ready';
  version: number;
  content: string;
  content_hash: string;
  size: number;
  bytes: number;
  pending_kind: 'ingest' | 'refresh' | null;
  pending_content: string | null;
  pending_hash: string | null;
  created_at: string;
  updated_at: string;
  passages: number;
}

const METADATA_COLUMNS =
  'seq, key_id, id, title, filename, given_category, given_tags, category, tags, classification, summary, profile, status, version, ' +
  "case when :withContent then content else '' end as content, content_hash, size, bytes, pending_kind, " +
  'null as pending_content, pending_hash, created_at, updated_at, passages';

/** The caller's most recent ready documents the classifier compares a new document with. */
const CLASSIFICATION_NEIGHBOURS = 150;
/** Profiles kept parsed in memory (about 3 KB each); the cache starts over beyond this. */
const PROFILE_CACHE_MAX = 5_000;

/** Removes the characters the snippet markers use, so stored text can never forge a <mark>. */
function withoutMarkers(text: string): string {
  return text.replaceAll('\u0002', ' ').replaceAll('\u0003', ' ');
}

/** The passages a content is indexed as, without the snippet marker characters. */
function indexedPassages(content: string): Passage[] {
  return splitPassages(content).map((p) => ({ heading: withoutMarkers(p.heading), body: withoutMarkers(p.body) }));
}

export class Library {
  private readonly statements = new Map<string, StatementSync>();
  private readonly newDocumentId: () => string;
  private savepointDepth = 0;
  /** Parsed term profiles of classified documents, by document seq (see neighbours()). */
  private readonly profiles = new Map<number, { stamp: string; neighbour: ClassifiedNeighbour }>();
  /** Index writes per key since its last merge (see INDEX_MERGE_EVERY_WRITES). */
  private readonly writesSinceMerge = new Map<string, number>();

  /** Creates the library's tables in `db` when they do not exist yet. */
  constructor(
    private readonly db: DatabaseSync,
    options: LibraryOptions = {},
  ) {
    this.newDocumentId = options.newDocumentId ?? (() => `doc_${randomBytes(8).toString('hex')}`);
    createLibrarySchema(db);
    this.buildMissingRankingTables();
  }

  /** The rejection an ingest would get (size, duplicate, capacity), without writing anything. */
  checkIngest(keyId: string, content: string, capacity: number): LibraryError | null {
    return this.ingestAdmission(keyId, content, capacity).rejection;
  }

  private ingestAdmission(keyId: string, content: string, capacity: number): { rejection: LibraryError | null; hash: string } {
    const size = sizeRejection(content);
    if (size) return { rejection: size, hash: '' };
    const hash = contentHash(content);
    const holder = this.row<{ id: string }>(
      `select id from ${DOCUMENTS_TABLE} where key_id = ? and (content_hash = ? or pending_hash = ?) order by seq limit 1`,
      keyId, hash, hash,
    );
    if (holder) return { rejection: duplicate(holder.id), hash };
    const { documents } = this.storage(keyId);
    if (documents >= capacity) {
      const rejection = new LibraryError(
        'library_full',
        `The library holds ${documents} documents, its capacity is ${capacity}.`,
        'Delete documents you no longer need (DELETE /library/documents/{id}), then ingest again.',
        { documents, capacity },
      );
      return { rejection, hash };
    }
    return { rejection: null, hash };
  }

  /** Admits and stores a pending document (throws LibraryError on rejection); the job then calls completeWork or failWork. */
  beginIngest(keyId: string, input: IngestInput, admission: IngestAdmission): PendingWork {
    const { rejection, hash } = this.ingestAdmission(keyId, input.content, admission.capacity);
    if (rejection) throw rejection;
    const id = this.newDocumentId();
    const givenCategory = input.category?.trim() || null;
    const givenTags = JSON.stringify(uniqueTags(input.tags ?? []));
    this.run(
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
    return this.refreshAdmission(keyId, documentId, content).rejection;
  }

  private refreshAdmission(keyId: string, documentId: string, content: string): { rejection: LibraryError | null; hash: string } {
    const rejected = (rejection: LibraryError) => ({ rejection, hash: '' });
    const row = this.findRow(keyId, documentId, false);
    if (!row) return rejected(notFound(documentId));
    if (row.pending_kind) {
      return rejected(new LibraryError(
        'document_busy',
        `Document ${documentId} has an ${row.pending_kind} in progress.`,
        'Wait for the running job to finish (GET /jobs/{jobId}), then refresh again.',
        { documentId },
      ));
    }
    const size = sizeRejection(content);
    if (size) return rejected(size);
    const hash = contentHash(content);
    if (hash === row.content_hash) {
      return rejected(new LibraryError(
        'document_unchanged',
        `The content is identical to version ${row.version} of document ${documentId}; nothing was charged.`,
        'Refresh only documents whose content changed; compare with the contentHash the library reports.',
        { documentId, version: row.version },
      ));
    }
    const holder = this.row<{ id: string }>(
      `select id from ${DOCUMENTS_TABLE} where key_id = ? and id <> ? and (content_hash = ? or pending_hash = ?) order by seq limit 1`,
      keyId, documentId, hash, hash,
    );
    return { rejection: holder ? duplicate(holder.id) : null, hash };
  }

  /** Stores the new content as the document's pending version; the current version stays live until completeWork. */
  beginRefresh(keyId: string, documentId: string, content: string, now: string): PendingWork {
    const { rejection, hash } = this.refreshAdmission(keyId, documentId, content);
    if (rejection) throw rejection;
    this.run(
      `update ${DOCUMENTS_TABLE} set pending_kind = 'refresh', pending_content = ?, pending_hash = ?, updated_at = ? where key_id = ? and id = ?`,
      content, hash, now, keyId, documentId,
    );
    const row = this.findRow(keyId, documentId, false);
    return { documentId, version: (row?.version ?? 0) + 1, kind: 'refresh' };
  }

  /**
   * The job's work: classify, tag, summarise, index and make the pending version live. Throws
   * LibraryError document_not_found when the document was deleted meanwhile; a document without
   * pending work is returned as it is.
   */
  completeWork(keyId: string, documentId: string, options: CompleteOptions): LibraryDocumentView {
    const row = this.findRow(keyId, documentId, true, true);
    if (!row) throw notFound(documentId);
    if (!row.pending_kind) return toView(row, false);
    const content = row.pending_kind === 'refresh' ? (row.pending_content ?? '') : row.content;
    const version = row.pending_kind === 'refresh' ? row.version + 1 : row.version;
    const hash = row.pending_kind === 'refresh' ? (row.pending_hash ?? contentHash(content)) : row.content_hash;
    const neighbours = this.neighbours(keyId, documentId);
    const result = classifyDocument({
      title: row.title,
      content,
      givenCategory: row.given_category,
      givenTags: JSON.parse(row.given_tags) as string[],
      neighbours,
    });
    const sandbox = options.mode === 'sandbox';
    const classification: Classification = {
      method: result.method,
      confidence: result.confidence,
      ...(sandbox ? { watermark: SANDBOX_CLASSIFICATION_WATERMARK } : {}),
    };
    const table = passageTable(keyId);
    const passages = indexedPassages(content);
    this.atomically(() => {
      createPassageTable(this.db, table);
      // A first ingest has nothing indexed yet; a refresh replaces the previous version's passages.
      if (row.passages > 0) this.deletePassages(keyId, row.seq);
      const insert = this.prepare(`insert into ${table} (rowid, title, heading, body) values (?, ?, ?, ?)`);
      passages.forEach((passage, ordinal) => insert.run(passageRowid(row.seq, ordinal), row.title, passage.heading, passage.body));
      this.insertRankingRow(keyId, row.seq, row.title, passages);
      this.run(
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
    if (!view) throw notFound(documentId);
    return view;
  }

  /** A failed job: a pending ingest is removed, a pending refresh discarded (the previous version stays live). */
  failWork(keyId: string, documentId: string): void {
    this.run(`delete from ${DOCUMENTS_TABLE} where key_id = ? and id = ? and pending_kind = 'ingest'`, keyId, documentId);
    this.run(
      `update ${DOCUMENTS_TABLE} set pending_kind = null, pending_content = null, pending_hash = null
       where key_id = ? and id = ? and pending_kind = 'refresh'`,
      keyId, documentId,
    );
  }

  /** Every pending ingest or refresh of every key (for failing interrupted jobs after a restart). */
  interruptedWork(): InterruptedWork[] {
    return this.rows<{ key_id: string; id: string; version: number; pending_kind: 'ingest' | 'refresh' }>(
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
    const row = this.findRow(keyId, documentId, options.includeContent === true);
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
    const rows = this.rows<DocumentRow>(
      `select ${METADATA_COLUMNS.replace(':withContent', '0')} from ${DOCUMENTS_TABLE}
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
    const row = this.findRow(keyId, documentId, false);
    if (!row) return false;
    this.atomically(() => {
      if (row.passages > 0) this.deletePassages(keyId, row.seq);
      this.run(`delete from ${DOCUMENTS_TABLE} where seq = ?`, row.seq);
    });
    if (row.passages > 0) this.indexWritten(keyId);
    return true;
  }

  /** Documents held (pending ingests included) and UTF-8 bytes of their current content. */
  storage(keyId: string): StorageCounters {
    const counts = this.row<{ documents: number; bytes: number }>(
      `select count(*) as documents, coalesce(sum(bytes), 0) as bytes from ${DOCUMENTS_TABLE} where key_id = ?`,
      keyId,
    );
    return { documents: counts?.documents ?? 0, bytes: counts?.bytes ?? 0 };
  }

  /**
   * Merges the key's index into one segment. Every ingest adds a segment that each query must
   * visit; on a merged index of 500 × 20k characters search p95 halves (bench/library.ts). Meant for
   * idle time after a burst of writes (the server schedules it) and run every INDEX_MERGE_EVERY_WRITES
   * writes during one: it rewrites the whole index.
   */
  mergeIndex(keyId: string): void {
    this.writesSinceMerge.delete(keyId);
    for (const table of [passageTable(keyId), rankingTable(keyId)]) {
      if (this.tableExists(table)) this.db.exec(`insert into ${table}(${table}) values('optimize')`);
    }
  }

  /** Counts an index write; every INDEX_MERGE_EVERY_WRITES of them the key's index is merged at once. */
  private indexWritten(keyId: string): void {
    const writes = (this.writesSinceMerge.get(keyId) ?? 0) + 1;
    if (writes < INDEX_MERGE_EVERY_WRITES) this.writesSinceMerge.set(keyId, writes);
    else this.mergeIndex(keyId);
  }

  /** Ranked full-text search over the key's ready documents (throws LibraryError invalid_query or invalid_limit). */
  search(keyId: string, input: SearchInput): SearchOutcome {
    const table = passageTable(keyId);
    return searchPassages(
      { table, rankingTable: rankingTable(keyId), exists: this.tableExists(table), keyId, prepare: (sql) => this.prepare(sql) },
      input,
    );
  }

  private findRow(keyId: string, documentId: string, withContent: boolean, withPending = false): DocumentRow | undefined {
    const columns = withPending ? '*' : METADATA_COLUMNS.replace(':withContent', withContent ? '1' : '0');
    return this.row<DocumentRow>(`select ${columns} from ${DOCUMENTS_TABLE} where key_id = ? and id = ?`, keyId, documentId);
  }

  /**
   * The key's most recent ready, classified documents, with their term profiles. Profiles are
   * cached by document and stamp (version, update time, category): a stamp that no longer matches
   * the row (a refresh, a rolled-back transaction) reads the row again, so the cache never answers
   * with a state the database does not hold.
   */
  private neighbours(keyId: string, documentId: string): ClassifiedNeighbour[] {
    const rows = this.rows<{ seq: number; category: string; version: number; updated_at: string }>(
      `select seq, category, version, updated_at from ${DOCUMENTS_TABLE}
       where key_id = ? and id <> ? and status = 'ready' and category is not null and profile is not null
       order by seq desc limit ${CLASSIFICATION_NEIGHBOURS}`,
      keyId, documentId,
    );
    if (this.profiles.size > PROFILE_CACHE_MAX) this.profiles.clear();
    return rows.map((r) => {
      const stamp = `${r.version}|${r.updated_at}|${r.category}`;
      let cached = this.profiles.get(r.seq);
      if (cached?.stamp !== stamp) {
        const profile = this.row<{ profile: string }>(`select profile from ${DOCUMENTS_TABLE} where seq = ?`, r.seq)?.profile ?? '{}';
        cached = { stamp, neighbour: { category: r.category, profile: JSON.parse(profile) as TermProfile } };
        this.profiles.set(r.seq, cached);
      }
      return cached.neighbour;
    });
  }

  /** Removes a document's passages (one rowid range, bound as integers) and its ranking row. */
  private deletePassages(keyId: string, seq: number): void {
    const table = passageTable(keyId);
    if (this.tableExists(table)) this.run(`delete from ${table} where rowid >= ? and rowid < ?`, passageRowid(seq), passageRowid(seq + 1));
    const ranking = rankingTable(keyId);
    if (this.tableExists(ranking)) this.run(`delete from ${ranking} where rowid = ?`, BigInt(seq));
  }

  private insertRankingRow(keyId: string, seq: number, title: string, passages: readonly Passage[]): void {
    const table = rankingTable(keyId);
    createRankingTable(this.db, table);
    const { heading, body } = rankingRow(passages);
    this.prepare(`insert into ${table} (rowid, title, heading, body) values (?, ?, ?, ?)`).run(BigInt(seq), title, heading, body);
  }

  /**
   * A database written before the ranking tables: each key with indexed passages gets its ranking
   * table, built from the documents' indexed content (the content column: a pending refresh keeps
   * the indexed version there).
   */
  private buildMissingRankingTables(): void {
    const keys = this.rows<{ key_id: string }>(`select distinct key_id from ${DOCUMENTS_TABLE} where passages > 0`);
    for (const { key_id: keyId } of keys) {
      if (this.tableExists(rankingTable(keyId)) || !this.tableExists(passageTable(keyId))) continue;
      this.atomically(() => {
        const documents = this.rows<{ seq: number; title: string; content: string }>(
          `select seq, title, content from ${DOCUMENTS_TABLE} where key_id = ? and passages > 0`,
          keyId,
        );
        createRankingTable(this.db, rankingTable(keyId));
        for (const doc of documents) {
          this.insertRankingRow(keyId, doc.seq, doc.title, indexedPassages(doc.content));
        }
      });
    }
  }

  private tableExists(table: string): boolean {
    return this.row(`select 1 as found from sqlite_master where type = 'table' and name = ?`, table) !== undefined;
  }

  private atomically(work: () => void): void {
    const name = `library_${++this.savepointDepth}`;
    this.db.exec(`savepoint ${name}`);
    try {
      work();
      this.db.exec(`release ${name}`);
    } catch (error) {
      this.db.exec(`rollback to ${name}`);
      this.db.exec(`release ${name}`);
      throw error;
    } finally {
      this.savepointDepth--;
    }
  }

  private prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private run(sql: string, ...params: SQLInputValue[]): void {
    this.prepare(sql).run(...params);
  }

  private row<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  private rows<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }
}

function toView(row: DocumentRow, withContent: boolean): LibraryDocumentView {
  return {
    id: row.id,
    title: row.title,
    filename: row.filename,
    category: row.category,
    tags: JSON.parse(row.tags) as string[],
    version: row.version,
    size: row.size,
    bytes: row.bytes,
    contentHash: row.content_hash,
    summary: row.summary,
    status: row.status,
    classification: row.classification ? (JSON.parse(row.classification) as Classification) : null,
    ...(row.pending_kind === 'refresh' ? { pendingVersion: row.version + 1 } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    ...(withContent ? { content: row.content } : {}),
  };
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

/** The service's rule, in code points (characterCount): not blank, and within the library's limits. */
function sizeRejection(content: string): LibraryError | null {
  if (isBlankText(content)) {
    return new LibraryError(
      'empty_document',
      'The content has no text to read: only white space or invisible characters (such as zero-width spaces).',
      "Send the document's text.",
    );
  }
  const size = characterCount(content);
  if (size < LIMITS.libraryMinChars) {
    return new LibraryError(
      'content_too_short',
      `The content has ${size} characters (Unicode code points); the minimum is ${LIMITS.libraryMinChars}.`,
      'Library documents are whole policies or procedures; send the full text.',
      { size, minimum: LIMITS.libraryMinChars },
    );
  }
  if (size > LIMITS.libraryMaxChars) {
    return new LibraryError(
      'content_too_long',
      `The content has ${size.toLocaleString('en-US')} characters (Unicode code points); the maximum is ${LIMITS.libraryMaxChars.toLocaleString('en-US')}.`,
      'Split the document into parts of at most 300,000 characters and ingest each.',
      { size, maximum: LIMITS.libraryMaxChars },
    );
  }
  return null;
}

function duplicate(holderId: string): LibraryError {
  return new LibraryError(
    'duplicate_document',
    `The same content is already in the library as document ${holderId}.`,
    `Refresh ${holderId} instead (POST /library/documents/${holderId}/refresh) or delete it first.`,
    { documentId: holderId },
  );
}

function notFound(documentId: string): LibraryError {
  return new LibraryError('document_not_found', `No library document ${documentId}.`, 'List documents with GET /library.', { documentId });
}

function encodeCursor(seq: number): string {
  return Buffer.from(`after:${seq}`).toString('base64url');
}

function decodeCursor(cursor: string): number {
  const match = /^after:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match?.[1]) {
    throw new LibraryError('invalid_cursor', 'The cursor is not one this library issued.', 'Pass the nextCursor of the previous page unchanged, or omit it for the first page.');
  }
  return Number(match[1]);
}
