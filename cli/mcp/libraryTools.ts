/**
 * The library's reading tools, each paging what it reads: getLibraryDocument a document's stored
 * text (offset, in characters), listLibrary the listing (one cursor of this server's, wherever a
 * service page ends or an answer had to stop), searchLibrary its hits (offset; the next part of a
 * search comes from the answer kept, not a second charged search).
 */
import { ComplianceValidationError } from '../../api/errors.js';
import type { LibraryListingModel } from '../../api/normalize/library.js';
import { answer, type NextCall } from './answer.js';
import { offsetOf, offsetProperty, operationTool, type ToolDefinition } from './tools.js';

function getDocumentTool(): ToolDefinition {
  const definition = operationTool('getLibraryDocument', { add: { offset: offsetProperty('stored text (characters; implies include=content)') } });
  definition.tool.description = 'Get one library document\'s metadata; with include=content, also its stored text, in parts of up to 8 KB (offset; each answer says how much remains). To map or search a document, give its id to mapDocument, or use searchLibrary: no need to read it through. Free.';
  definition.run = async (args, context, { signal }) => {
    const offset = offsetOf(args);
    const withContent = args.include === 'content' || args.offset !== undefined;
    const { offset: _offset, ...input } = args;
    const doc = await context.client.getLibraryDocument({ ...(input as { id: string }), ...(withContent ? { include: 'content' as const } : {}) }, { signal });
    if (doc.content === undefined) return answer(context, { charged: false, result: doc });
    const id = doc.id;
    return answer(context, {
      charged: false,
      result: doc,
      part: { key: 'content', noun: 'characters', offset, next: (end) => ({ tool: 'getLibraryDocument', arguments: { id, include: 'content', offset: end } }) },
    });
  };
  return definition;
}

/** Where a listing resumes: the service's own page (cursor or number) and how many of its documents were shown. */
interface Position {
  cursor?: string;
  page?: number;
  skip: number;
}

const encodeCursor = (position: Position) => Buffer.from(JSON.stringify(position)).toString('base64url');

function decodeCursor(cursor: unknown): Position {
  if (cursor === undefined) return { skip: 0 };
  try {
    const position = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8')) as Position;
    if (Number.isSafeInteger(position.skip) && position.skip >= 0 && (position.cursor === undefined || typeof position.cursor === 'string') && (position.page === undefined || Number.isSafeInteger(position.page))) return position;
  } catch {
    // not one of ours: said below
  }
  throw new ComplianceValidationError({ code: 'invalid_input', field: 'cursor', message: 'cursor: not a cursor this server gave', hint: 'Use next.arguments.cursor of the previous listLibrary answer, or leave cursor out for the first page.' });
}

function listTool(): ToolDefinition {
  const definition = operationTool('listLibrary', {
    // One way to page: this server's cursor (it covers the service's cursors and page numbers alike).
    drop: ['page'],
    describe: { cursor: 'Where the next part of the listing starts: next.arguments.cursor of the previous listLibrary answer. Leave it out for the first part.' },
  });
  definition.run = async (args, context, { signal }) => {
    const { cursor, limit, ...filter } = args;
    const position = decodeCursor(cursor);
    const listing = (await context.client.listLibrary({
      ...filter, limit: limit ?? 20, ...(position.cursor ? { cursor: position.cursor } : {}), ...(position.page ? { page: position.page } : {}),
    } as never, { signal })) as LibraryListingModel;
    const resume = (at: Omit<Position, 'skip'>, skip: number): NextCall => ({ tool: 'listLibrary', arguments: { ...filter, ...(limit !== undefined ? { limit } : {}), cursor: encodeCursor({ ...at, skip }) } });
    const nextPage = listing.nextCursor ? { cursor: listing.nextCursor } : listing.nextPage ? { page: listing.nextPage } : undefined;
    const here = { ...(position.cursor ? { cursor: position.cursor } : {}), ...(position.page ? { page: position.page } : {}) };
    const { nextCursor: _cursor, nextPage: _page, ...result } = listing as LibraryListingModel & { nextPage?: unknown };
    return answer(context, {
      charged: false,
      result,
      part: { key: 'documents', noun: 'documents of this page', offset: position.skip, next: (end) => resume(here, end), ...(nextPage && listing.documents.length > 0 ? { after: resume(nextPage, 0) } : {}) },
    });
  };
  return definition;
}

function searchTool(): ToolDefinition {
  const definition = operationTool('searchLibrary', { add: { offset: offsetProperty('hits (the next part of a search already made is free)') } });
  definition.tool.description = `${definition.tool.description} Each hit links its library:// document; mapDocument maps it by its documentId.`;
  const run = definition.run;
  definition.run = async (args, context, call) => {
    const answered = await run(args, context, call);
    const hits = ((answered.structuredContent as { result?: { results?: Array<{ documentId: string; title: string }> } } | undefined)?.result?.results ?? []);
    answered.content.push(...hits.map((hit) => ({ type: 'resource_link' as const, uri: `library://${hit.documentId}`, name: hit.title, mimeType: 'text/plain' })));
    return answered;
  };
  return definition;
}

export const LIBRARY_TOOLS = { getLibraryDocument: getDocumentTool, listLibrary: listTool, searchLibrary: searchTool } as const;
