/**
 * "From List" of the resource locators: verified frameworks (from the capabilities, which come
 * whole) and library documents (the listing's own pages, passed on as the pagination token).
 */
import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';
import { createClient } from '../../../shared/client.js';
import { toNodeError } from '../../../shared/errors.js';
import { verifiedFrameworkOptions } from '../../../shared/frameworks.js';

function matches(filter: string | undefined, ...fields: Array<string | null | undefined>): boolean {
  const needle = filter?.trim().toLowerCase();
  return !needle || fields.some((field) => field?.toLowerCase().includes(needle));
}

export async function searchFrameworks(this: ILoadOptionsFunctions, filter?: string): Promise<INodeListSearchResult> {
  const options = await verifiedFrameworkOptions(this, filter);
  return { results: options.map((option) => ({ name: option.name, value: option.value })) };
}

// One screenful of the picker; n8n asks for the next page as the user scrolls.
const PAGE_SIZE = 20;

export async function searchLibraryDocuments(
  this: ILoadOptionsFunctions,
  filter?: string,
  paginationToken?: string,
): Promise<INodeListSearchResult> {
  try {
    const position = paginationToken ? (JSON.parse(paginationToken) as { cursor?: string; page?: number }) : {};
    const listing = await (await createClient(this)).listLibrary({ limit: PAGE_SIZE, ...position });
    const results: INodeListSearchItems[] = listing.documents
      .filter((document) => matches(filter, document.title, document.filename, document.id, document.category))
      .map((document) => ({ name: document.filename ? `${document.title} (${document.filename})` : document.title, value: document.id }));
    const next = listing.nextCursor ? { cursor: listing.nextCursor } : listing.nextPage ? { page: listing.nextPage } : undefined;
    return { results, ...(next && listing.documents.length ? { paginationToken: JSON.stringify(next) } : {}) };
  } catch (error) {
    throw toNodeError(this.getNode(), error);
  }
}
