/**
 * Admission: whether an ingest or a refresh may start (size, duplicate content, capacity, a job
 * already running on the document), decided before anything is charged or written.
 */
import { contentHash } from '../../api/contentHash.js';
import { BLANK_TEXT, characterCount, isBlankText, LIMITS } from '../../api/schemas/common.js';
import type { Statements } from '../sqlite.js';
import { findDocument, storageOf } from './documentRows.js';
import { LibraryError } from './errors.js';
import { DOCUMENTS_TABLE } from './schema.js';

/** The rejection, or null, and the content's hash (empty when the size alone refused it). */
interface Admission {
  rejection: LibraryError | null;
  hash: string;
}

export function ingestAdmission(sql: Statements, keyId: string, content: string, capacity: number): Admission {
  const size = sizeRejection(content);
  if (size) return { rejection: size, hash: '' };
  const hash = contentHash(content);
  const holder = sql.row<{ id: string }>(
    `select id from ${DOCUMENTS_TABLE} where key_id = ? and (content_hash = ? or pending_hash = ?) order by seq limit 1`,
    keyId, hash, hash,
  );
  if (holder) return { rejection: duplicate(holder.id), hash };
  const { documents } = storageOf(sql, keyId);
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

export function refreshAdmission(sql: Statements, keyId: string, documentId: string, content: string): Admission {
  const rejected = (rejection: LibraryError) => ({ rejection, hash: '' });
  const row = findDocument(sql, keyId, documentId, false);
  if (!row) return rejected(documentNotFound(documentId));
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
  const holder = sql.row<{ id: string }>(
    `select id from ${DOCUMENTS_TABLE} where key_id = ? and id <> ? and (content_hash = ? or pending_hash = ?) order by seq limit 1`,
    keyId, documentId, hash, hash,
  );
  return { rejection: holder ? duplicate(holder.id) : null, hash };
}

/** The service's rule, in code points (characterCount): not blank, and within the library's limits. */
function sizeRejection(content: string): LibraryError | null {
  if (isBlankText(content)) {
    return new LibraryError('empty_document', `The content ${BLANK_TEXT}.`, "Send the document's text.");
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

export function documentNotFound(documentId: string): LibraryError {
  return new LibraryError('document_not_found', `No library document ${documentId}.`, 'List documents with GET /library.', { documentId });
}
