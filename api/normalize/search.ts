/** Library search: ranked hits with highlighted snippets. */
import type { z } from 'zod/v4/mini';
import type { searchHit, searchResult } from '../schemas/responses.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickNumber,
  pickText,
  toStringList,
  unexpected,
} from './read.js';

type SearchResultModel = z.output<typeof searchResult>;
type SearchHitModel = z.output<typeof searchHit>;

const LIST_NAMES = ['results', 'hits', 'matches', 'documents', 'items', 'data'];
const ID_NAMES = ['documentId', 'document_id', 'id', 'docId', 'document.id'];
const SNIPPET_LIST_NAMES = ['snippets', 'highlights', 'highlight', 'fragments'];
// A snippet given as one text is one snippet: its commas are prose, not separators.
const SNIPPET_TEXT_NAMES = ['snippet', 'excerpt', 'highlight', 'summary', 'snippets', 'highlights', 'fragments'];

function hitOf(raw: unknown, index: number, context: NormalizeContext): SearchHitModel {
  if (!isRecord(raw)) throw unexpected(context, `search hit ${index + 1} as an object`, ['an object'], raw);
  const documentId = pickText(raw, ID_NAMES);
  if (documentId === undefined) throw unexpected(context, `document id of hit ${index + 1}`, ID_NAMES, raw);
  const list = pickArray(raw, SNIPPET_LIST_NAMES);
  const snippets = list
    ? toStringList(list)
    : [pickText(raw, SNIPPET_TEXT_NAMES)].filter((text): text is string => text !== undefined);
  return defined({
    ...raw,
    documentId,
    title: pickText(raw, ['title', 'name', 'document.title', 'filename']) ?? documentId,
    filename: pickText(raw, ['filename', 'fileName', 'document.filename']),
    category: pickText(raw, ['category', 'document.category']),
    tags: toStringList(raw.tags),
    score: pickNumber(raw, ['score', 'relevance', 'rank', '_score']) ?? 0,
    snippets,
  }) as SearchHitModel;
}

export function normalizeSearchResult(raw: unknown, context: NormalizeContext): SearchResultModel {
  const object: JsonObject = Array.isArray(raw) ? { results: raw } : objectOf(raw, context, 'search result');
  const list = pickArray(object, LIST_NAMES);
  if (list === undefined) throw unexpected(context, 'result list', LIST_NAMES, object);
  return defined({
    ...object,
    query: pickText(object, ['query', 'q']),
    results: list.map((item, index) => hitOf(item, index, context)),
    total: pickNumber(object, ['total', 'count', 'totalResults', 'total_results']),
    limit: pickNumber(object, ['limit', 'pageSize']),
  }) as SearchResultModel;
}
