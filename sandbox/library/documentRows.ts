/** The documents table as the engine reads it: the row, the columns a read selects, and the view it answers with. */
import type { Statements } from '../sqlite.js';
import { DOCUMENTS_TABLE } from './schema.js';
import type { Classification, LibraryDocumentView, StorageCounters } from './types.js';

/** A row of the documents table. */
export interface DocumentRow {
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

/** The columns of a metadata read: the text only when asked for, never the pending text. */
export function metadataColumns(withContent: boolean): string {
  return (
    'seq, key_id, id, title, filename, given_category, given_tags, category, tags, classification, summary, profile, status, version, ' +
    `${withContent ? 'content' : "'' as content"}, content_hash, size, bytes, pending_kind, ` +
    'null as pending_content, pending_hash, created_at, updated_at, passages'
  );
}

/** One document of the key; `withPending` reads every column (the pending text too). */
export function findDocument(sql: Statements, keyId: string, documentId: string, withContent: boolean, withPending = false): DocumentRow | undefined {
  const columns = withPending ? '*' : metadataColumns(withContent);
  return sql.row<DocumentRow>(`select ${columns} from ${DOCUMENTS_TABLE} where key_id = ? and id = ?`, keyId, documentId);
}

/** Documents held (pending ingests included) and UTF-8 bytes of their current content. */
export function storageOf(sql: Statements, keyId: string): StorageCounters {
  const counts = sql.row<{ documents: number; bytes: number }>(
    `select count(*) as documents, coalesce(sum(bytes), 0) as bytes from ${DOCUMENTS_TABLE} where key_id = ?`,
    keyId,
  );
  return { documents: counts?.documents ?? 0, bytes: counts?.bytes ?? 0 };
}

export function toView(row: DocumentRow, withContent: boolean): LibraryDocumentView {
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
