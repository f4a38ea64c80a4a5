/**
 * The library's tables, created idempotently in the server's database. Documents of every key share
 * one table (queries always filter by key); each key's passages live in their own FTS5 table, so
 * bm25 statistics and index entries never mix between keys.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { Passage } from './passages.js';

export const DOCUMENTS_TABLE = 'library_documents';

/**
 * Passage rowids are `documentSeq * PASSAGES_PER_DOCUMENT + ordinal`, so a document's passages are
 * one rowid range (deleted in one statement) and a passage names its document without a join table.
 */
export const PASSAGES_PER_DOCUMENT = 1 << 20;

/**
 * The rowid of a document's passage, as a BigInt. Rowids are always bound as integers: JavaScript
 * numbers bind as REAL, and FTS5 does not use a rowid constraint bound to a REAL (it scans the whole
 * table and lets SQLite filter), which turned every index update and snippet lookup into a scan of
 * the key's entire index.
 */
export function passageRowid(documentSeq: number, ordinal = 0): bigint {
  return BigInt(documentSeq) * BigInt(PASSAGES_PER_DOCUMENT) + BigInt(ordinal);
}

export function createLibrarySchema(db: DatabaseSync): void {
  // A database from before the passages column: add it; 1 marks "may have indexed passages", so the
  // next refresh or delete clears the document's rowid range before anything is inserted again.
  const columns = db.prepare(`select name from pragma_table_info('${DOCUMENTS_TABLE}')`).all() as Array<{ name: string }>;
  if (columns.length > 0 && !columns.some((c) => c.name === 'passages')) {
    db.exec(`alter table ${DOCUMENTS_TABLE} add column passages integer not null default 0;
      update ${DOCUMENTS_TABLE} set passages = 1 where status = 'ready' or pending_kind = 'refresh';`);
  }
  db.exec(`
    create table if not exists ${DOCUMENTS_TABLE} (
      -- Column order matters: a row longer than a page keeps only its first few hundred bytes in
      -- the table b-tree, the rest in overflow pages. The fixed-size columns every search, listing
      -- and admission check reads come first, the texts last, so those reads never follow overflow.
      seq integer primary key autoincrement,
      key_id text not null,
      id text not null unique,
      status text not null check (status in ('pending', 'ready')),
      version integer not null,
      pending_kind text check (pending_kind in ('ingest', 'refresh')),
      size integer not null,
      bytes integer not null,
      passages integer not null default 0,
      content_hash text not null,
      pending_hash text,
      created_at text not null,
      updated_at text not null,
      title text not null,
      filename text,
      category text,
      tags text not null default '[]',
      given_category text,
      given_tags text not null default '[]',
      classification text,
      summary text,
      profile text,
      content text not null,
      pending_content text
    );
    create index if not exists ${DOCUMENTS_TABLE}_by_key on ${DOCUMENTS_TABLE} (key_id, seq);
    -- Covers the storage counters (count and bytes per key) without reading the rows.
    create index if not exists ${DOCUMENTS_TABLE}_storage on ${DOCUMENTS_TABLE} (key_id, bytes, passages);
    create index if not exists ${DOCUMENTS_TABLE}_by_hash on ${DOCUMENTS_TABLE} (key_id, content_hash);
    create index if not exists ${DOCUMENTS_TABLE}_by_pending_hash on ${DOCUMENTS_TABLE} (key_id, pending_hash) where pending_hash is not null;
  `);
}

/** The name of a key's passage table (derived from a hash: key ids never appear in SQL). */
export function passageTable(keyId: string): string {
  return `library_passages_${createHash('sha256').update(keyId).digest('hex').slice(0, 20)}`;
}

export function createPassageTable(db: DatabaseSync, table: string): void {
  db.exec(`create virtual table if not exists ${table} using fts5(title, heading, body, tokenize = 'porter unicode61')`);
}

/**
 * The name of a key's ranking table: one row per indexed document (rowid = the document's seq), its
 * title, headings and passage bodies. Search shortlists documents with its bm25, which costs one
 * row per document instead of one per passage (see search.ts).
 */
export function rankingTable(keyId: string): string {
  return passageTable(keyId).replace('library_passages_', 'library_ranking_');
}

/** Contentless (the text already lives in the documents and passages), with deletes allowed. */
export function createRankingTable(db: DatabaseSync, table: string): void {
  db.exec(
    `create virtual table if not exists ${table} using fts5(title, heading, body, tokenize = 'porter unicode61', content = '', contentless_delete = 1)`,
  );
}

/** A document's ranking row: its title, its distinct headings and its passage bodies. */
export function rankingRow(passages: readonly Passage[]): Passage {
  return {
    heading: [...new Set(passages.map((p) => p.heading).filter(Boolean))].join('\n'),
    body: passages.map((p) => p.body).join('\n\n'),
  };
}
