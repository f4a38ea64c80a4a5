import { DatabaseSync } from 'node:sqlite';
import { Library, type IngestInput, type LibraryDocumentView } from '../../sandbox/library/index.js';

export const NOW = '2025-03-01T09:00:00.000Z';
export const LATER = '2025-03-01T09:00:05.000Z';
export const SANDBOX_CAPACITY = 25;

export function newLibrary(): { db: DatabaseSync; library: Library } {
  const db = new DatabaseSync(':memory:');
  let counter = 0;
  const library = new Library(db, { newDocumentId: () => `doc_${(++counter).toString(16).padStart(16, '0')}` });
  return { db, library };
}

/** Ingests and completes a document (the server's job run immediately). */
export function ingestReady(library: Library, keyId: string, input: IngestInput, mode: 'sandbox' | 'live' = 'live'): LibraryDocumentView {
  const work = library.beginIngest(keyId, input, { capacity: 500, now: NOW });
  return library.completeWork(keyId, work.documentId, { mode, now: LATER });
}

/** Realistic filler content of at least `length` characters, distinct per seed. */
export function policyText(seed: string, length = 400): string {
  let text = `# ${seed} procedure\n\n`;
  for (let i = 0; text.length < length; i++) {
    text += `Step ${i + 1} of the ${seed} procedure is recorded by the owner and reviewed by the security team every quarter.\n\n`;
  }
  return text;
}
