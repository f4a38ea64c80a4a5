/**
 * The library operations over the Library engine. Ingest and refresh check admission (size,
 * duplicate, capacity) before charging, then charge, begin the work and record the job in one
 * transaction; the job completes or fails (and refunds) the work.
 */
import { randomUUID } from 'node:crypto';
import { LibraryError } from '../../library/index.js';
import { HttpError } from '../httpError.js';
import type { Services } from '../services.js';
import type { LibraryJobInput } from '../workers.js';
import { accepted } from './documents.js';
import { ok, type HandlerTable } from './types.js';

/** The engine's rejection as the envelope; a duplicate also names the holder's last job. */
function rejection(services: Services, keyHash: string, error: LibraryError): HttpError {
  const details: Record<string, unknown> = { ...error.details };
  if (error.code === 'duplicate_document' && typeof error.details.documentId === 'string') {
    const last = services.db
      .prepare('SELECT id FROM sbx_jobs WHERE key_hash = ? AND document_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1')
      .get(keyHash, error.details.documentId) as { id: string } | undefined;
    if (last) details.jobId = last.id;
  }
  return new HttpError(error.status, error.code, error.message, error.hint, { details });
}

/** Runs `work`, turning the engine's rejections into envelopes. */
function engine<T>(services: Services, keyHash: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof LibraryError) throw rejection(services, keyHash, error);
    throw error;
  }
}

function documentNotFound(): HttpError {
  return new HttpError(404, 'document_not_found', 'No library document with this id exists for this key.', 'GET /library lists your documents.');
}

export const libraryHandlers: Pick<
  HandlerTable,
  'ingestLibraryDocument' | 'refreshLibraryDocument' | 'listLibrary' | 'getLibraryDocument' | 'deleteLibraryDocument' | 'searchLibrary'
> = {
  ingestLibraryDocument: ({ services, account, input, now, fault }) => {
    const { library, options } = services;
    const capacity = options.limits[account.mode].libraryDocuments;
    const job = services.tx(() =>
      engine(services, account.keyHash, () => {
        const refused = library.checkIngest(account.keyHash, input.content, capacity);
        if (refused) throw refused;
        const id = randomUUID();
        const chargedTokens = services.billing.charge(account, 'ingestLibraryDocument', id, now);
        const work = library.beginIngest(account.keyHash, input, { capacity, now: new Date(now).toISOString() });
        const jobInput: LibraryJobInput = { mode: account.mode, documentId: work.documentId };
        return services.jobs.create({
          id, keyHash: account.keyHash, kind: 'library_ingest', input: jobInput, documentId: work.documentId,
          documentVersion: work.version, chargedTokens, failOnRun: fault?.kind === 'job-fail', now,
        });
      }),
    );
    return accepted(services, services.jobs.get(account.keyHash, job.id)!, { documentId: job.documentId, version: job.documentVersion });
  },

  refreshLibraryDocument: ({ services, account, input, now, fault }) => {
    const { library } = services;
    const job = services.tx(() =>
      engine(services, account.keyHash, () => {
        const refused = library.checkRefresh(account.keyHash, input.id, input.content);
        if (refused) throw refused;
        const id = randomUUID();
        const chargedTokens = services.billing.charge(account, 'refreshLibraryDocument', id, now);
        const work = library.beginRefresh(account.keyHash, input.id, input.content, new Date(now).toISOString());
        const jobInput: LibraryJobInput = { mode: account.mode, documentId: work.documentId };
        return services.jobs.create({
          id, keyHash: account.keyHash, kind: 'library_refresh', input: jobInput, documentId: work.documentId,
          documentVersion: work.version, chargedTokens, failOnRun: fault?.kind === 'job-fail', now,
        });
      }),
    );
    return accepted(services, services.jobs.get(account.keyHash, job.id)!, { documentId: job.documentId, version: job.documentVersion });
  },

  listLibrary: ({ services, account, input }) => {
    if (input.page !== undefined && input.page !== 1) {
      throw new HttpError(400, 'invalid_request', 'The library listing pages by cursor, not page number.', 'Pass the nextCursor of the previous page as cursor.');
    }
    const page = engine(services, account.keyHash, () =>
      services.library.list(account.keyHash, {
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
        ...(input.cursor !== undefined ? { cursor: input.cursor } : {}),
        ...(input.category !== undefined ? { category: input.category } : {}),
        ...(input.tag !== undefined ? { tag: input.tag } : {}),
      }),
    );
    const storage = services.library.storage(account.keyHash);
    return ok({
      documents: page.documents,
      nextCursor: page.nextCursor,
      storage: { documents: storage.documents, maxDocuments: services.options.limits[account.mode].libraryDocuments, bytes: storage.bytes },
    });
  },

  getLibraryDocument: ({ services, account, input }) => {
    const document = services.library.get(account.keyHash, input.id, { includeContent: input.include === 'content' });
    if (!document) throw documentNotFound();
    return ok(document);
  },

  deleteLibraryDocument: ({ services, account, input, now }) => {
    const deleted = services.tx(() =>
      engine(services, account.keyHash, () => {
        const removed = services.library.delete(account.keyHash, input.id);
        // A pending ingest or refresh of the document fails now, saying why, and is refunded.
        if (removed) services.jobs.failForDeletedDocument(account.keyHash, input.id, now);
        return removed;
      }),
    );
    if (!deleted) throw documentNotFound();
    services.indexMaintenance.written(account.keyHash);
    return ok({ id: input.id, deleted: true });
  },

  searchLibrary: ({ services, account, input, now, requestId }) =>
    ok(
      services.tx(() =>
        engine(services, account.keyHash, () => {
          // Searching first: a rejected query (bad limit) rolls back and is not charged.
          const outcome = services.library.search(account.keyHash, input);
          services.billing.charge(account, 'searchLibrary', requestId, now);
          return { ...outcome, mode: account.mode };
        }),
      ),
    ),
};
