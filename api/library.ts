/** Following the library listing across pages, whether the service paginates by cursor or by page. */
import type { CallOptions, ComplianceApi } from './clientTypes.js';
import { ComplianceApiError } from './errors.js';
import type { LibraryDocumentModel, LibraryListingModel } from './normalize/library.js';

export interface LibraryFilter {
  category?: string;
  tag?: string;
  /** Page size to ask for. */
  limit?: number;
}

/** Upper bound on pages, so a service that repeats itself cannot loop forever. */
const MAX_PAGES = 10_000;

/** Yields every library document matching `filter`, requesting further pages as needed. */
export async function* iterateLibrary(
  api: Pick<ComplianceApi, 'listLibrary'>,
  filter: LibraryFilter = {},
  options: CallOptions = {},
): AsyncGenerator<LibraryDocumentModel, void, undefined> {
  const seen = new Set<string>();
  let position: { cursor?: string; page?: number } = {};
  for (let pages = 0; pages < MAX_PAGES; pages++) {
    const listing = (await api.listLibrary({ ...filter, ...position }, options)) as LibraryListingModel;
    yield* listing.documents;
    const next = listing.nextCursor ? { cursor: listing.nextCursor } : listing.nextPage ? { page: listing.nextPage } : undefined;
    if (!next || listing.documents.length === 0) return;
    const key = JSON.stringify(next);
    if (seen.has(key)) {
      throw new ComplianceApiError({
        code: 'unexpected_response',
        operationId: 'listLibrary',
        message: `listLibrary: the service returned the same next page twice (${key})`,
        hint: 'Report it with the request id; list with a category or tag filter meanwhile.',
      });
    }
    seen.add(key);
    position = next;
  }
}

export async function listAllLibraryDocuments(
  api: Pick<ComplianceApi, 'listLibrary'>,
  filter: LibraryFilter = {},
  options: CallOptions = {},
): Promise<LibraryDocumentModel[]> {
  const documents: LibraryDocumentModel[] = [];
  for await (const document of iterateLibrary(api, filter, options)) documents.push(document);
  return documents;
}
