/**
 * The library's tables, created idempotently in the server's database. Documents of every key share
 * one table (queries always filter by key); each key's passages live in their own FTS5 table, so
 * bm25 statistics and index entries never mix between keys.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';

export const DOCUMENTS_TABLE = 'library_documents';

/**
 * Passage rowids are `documentSeq * PASSAGES_PER_DOCUMENT + ordinal`, so a document's passages are
 * one rowid range (deleted in one statement) and a passage names its document without a join table.
 */
export const PASSAGES_PER_DOCUMENT = 1 << 20;

export function createLibrarySchema(db: DatabaseSync): void {
  db.exec(`
    create table if not exists ${DOCUMENTS_TABLE} (
      seq integer primary key autoincrement,
      key_id text not null,
      id text not null unique,
      title text not null,
      filename text,
      given_category text,
      given_tags text not null default '[]',
      category text,
      tags text not null default '[]',
      classification text,
      summary text,
      profile text,
      status text not null check (status in ('pending', 'ready')),
      version integer not null,
      content text not null,
      content_hash text not null,
      size integer not null,
      bytes integer not null,
      pending_kind text check (pending_kind in ('ingest', 'refresh')),
      pending_content text,
      pending_hash text,
      created_at text not null,
      updated_at text not null
    );
    create index if not exists ${DOCUMENTS_TABLE}_by_key on ${DOCUMENTS_TABLE} (key_id, seq);
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
