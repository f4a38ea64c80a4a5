/**
 * Ranked search over a key's passage index.
 *
 * Ranking: every passage matching any query unit is scored with bm25 (title ×4, section heading ×2,
 * body ×1). A document's relevance is its best passage plus a small bonus for further matching
 * passages. Documents are ordered by how many of the query's units (terms and phrases) they contain,
 * then by relevance, then oldest first; the reported score folds both into (0, 1].
 *
 * Snippets come from the document's best 1–3 passages (a further passage only when it scores at least
 * half the best), made by FTS5 snippet(), HTML-escaped, with matches wrapped in <mark>…</mark>.
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from './constants.js';
import { LibraryError } from './errors.js';
import { DOCUMENTS_TABLE, PASSAGES_PER_DOCUMENT } from './schema.js';
import { parseSearchQuery } from './searchQuery.js';
import type { SearchHit, SearchInput, SearchOutcome } from './types.js';

const BM25_WEIGHTS = '4.0, 2.0, 1.0';
/** Weight of the log of additional matching passages in a document's relevance. */
const EXTRA_PASSAGE_BONUS = 0.25;
/** Relevance at which the squashed relevance is one half. */
const RELEVANCE_HALF_POINT = 5;
const MAX_SNIPPETS = 3;
/** Tokens of context per snippet. */
const SNIPPET_TOKENS = 24;
const OPEN = '\u0002';
const CLOSE = '\u0003';

export interface PassageIndex {
  table: string;
  exists: boolean;
  keyId: string;
  prepare(sql: string): StatementSync;
}

interface DocumentMatch {
  seq: number;
  id: string;
  title: string;
  filename: string | null;
  category: string | null;
  tags: string;
  best: number;
  passages: number;
}

export function searchPassages(index: PassageIndex, input: SearchInput): SearchOutcome {
  const limit = input.limit ?? SEARCH_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
    throw new LibraryError(
      'invalid_limit',
      `limit must be an integer from 1 to ${SEARCH_MAX_LIMIT} (got ${String(limit)}).`,
      `Omit limit for the default of ${SEARCH_DEFAULT_LIMIT}; page through more results by narrowing the query or filters.`,
    );
  }
  const query = parseSearchQuery(input.query);
  const outcome: SearchOutcome = { query: input.query, results: [], total: 0, limit };
  if (!index.exists) return outcome;

  const filters: string[] = [];
  const params: SQLInputValue[] = [query.anyUnit, index.keyId];
  if (input.category !== undefined && input.category.trim()) {
    filters.push('and lower(d.category) = lower(?)');
    params.push(input.category.trim());
  }
  for (const tag of input.tags ?? []) {
    if (!tag.trim()) continue;
    filters.push('and exists (select 1 from json_each(d.tags) where lower(json_each.value) = lower(?))');
    params.push(tag.trim());
  }
  const matches = index
    .prepare(
      `with hits as materialized (
         select rowid / ${PASSAGES_PER_DOCUMENT} as seq, -bm25(${index.table}, ${BM25_WEIGHTS}) as score
         from ${index.table} where ${index.table} match ?
       )
       select d.seq, d.id, d.title, d.filename, d.category, d.tags, max(h.score) as best, count(*) as passages
       from hits h join ${DOCUMENTS_TABLE} d on d.seq = h.seq
       where d.key_id = ? and d.status = 'ready' ${filters.join(' ')}
       group by d.seq`,
    )
    .all(...params) as unknown as DocumentMatch[];
  if (!matches.length) return outcome;

  const unitsMatched = countUnitsPerDocument(index, query.unitExpressions, matches);
  const units = query.unitExpressions.length;
  const ranked = matches
    .map((m) => {
      const relevance = m.best + EXTRA_PASSAGE_BONUS * Math.log(m.passages);
      const matched = unitsMatched.get(m.seq) ?? 1;
      const score = (matched - 1 + relevance / (relevance + RELEVANCE_HALF_POINT)) / units;
      return { match: m, score };
    })
    .sort((a, b) => b.score - a.score || a.match.seq - b.match.seq);

  outcome.total = ranked.length;
  outcome.results = ranked.slice(0, limit).map(({ match, score }): SearchHit => ({
    documentId: match.id,
    title: match.title,
    filename: match.filename,
    category: match.category,
    tags: JSON.parse(match.tags) as string[],
    score: Math.round(score * 10_000) / 10_000,
    snippets: snippetsOf(index, query.anyUnit, match.seq),
  }));
  return outcome;
}

/** For each matching document, how many of the query's units it contains (in any passage). */
function countUnitsPerDocument(index: PassageIndex, unitExpressions: readonly string[], matches: readonly DocumentMatch[]): Map<number, number> {
  const counts = new Map<number, number>();
  if (unitExpressions.length === 1) {
    for (const m of matches) counts.set(m.seq, 1);
    return counts;
  }
  const statement = index.prepare(`select distinct rowid / ${PASSAGES_PER_DOCUMENT} as seq from ${index.table} where ${index.table} match ?`);
  for (const expression of unitExpressions) {
    for (const row of statement.all(expression) as Array<{ seq: number }>) counts.set(row.seq, (counts.get(row.seq) ?? 0) + 1);
  }
  return counts;
}

/** Highlighted snippets of the document's best 1–3 passages. */
function snippetsOf(index: PassageIndex, expression: string, seq: number): string[] {
  const t = index.table;
  const snippet = (column: number): string => `snippet(${t}, ${column}, '${OPEN}', '${CLOSE}', '…', ${SNIPPET_TOKENS})`;
  const passages = index
    .prepare(
      `select -bm25(${t}, ${BM25_WEIGHTS}) as score, ${snippet(2)} as body, ${snippet(1)} as heading, ${snippet(0)} as title
       from ${t} where ${t} match ? and rowid >= ? and rowid < ?
       order by bm25(${t}, ${BM25_WEIGHTS}), rowid limit ${MAX_SNIPPETS}`,
    )
    .all(expression, seq * PASSAGES_PER_DOCUMENT, (seq + 1) * PASSAGES_PER_DOCUMENT) as Array<{ score: number; body: string; heading: string; title: string }>;
  const best = passages[0]?.score ?? 0;
  const snippets: string[] = [];
  for (const passage of passages) {
    if (passage.score < best / 2) break;
    const marked = [passage.body, passage.heading, passage.title].find((text) => text.includes(OPEN)) ?? passage.body;
    const html = toHtml(marked);
    if (!snippets.includes(html)) snippets.push(html);
  }
  return snippets;
}

/** Escapes &, < and > and turns the snippet markers into <mark> elements. */
function toHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replaceAll(OPEN, '<mark>')
    .replaceAll(CLOSE, '</mark>');
}
