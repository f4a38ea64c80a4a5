/**
 * Ranked search over a key's library.
 *
 * Ranking: documents are ordered by how many of the query's units (terms and phrases) they contain,
 * then by relevance, then oldest first; the reported score folds both into (0, 1]. Relevance is the
 * bm25 of the whole document (title ×4, headings ×2, body ×1) in the key's ranking table, one row
 * per document. A unit is contained where one passage contains it, so a phrase never counts across
 * a paragraph break.
 *
 * Snippets come from the winners' best 1–3 passages by passage bm25 (a further passage only when it
 * scores at least half the best): the place in the document that answers the query. FTS5 snippet()
 * makes them; they are HTML-escaped with matches wrapped in <mark>…</mark>.
 *
 * A unit in half or more of the key's passages carries no bm25 weight (FTS5 floors its idf at 1e-6),
 * so it is not scored: it still counts for coverage.
 *
 * Cost (figures in bench/library.ts): bm25 runs once per matching document, not per matching
 * passage (a common word matches ~9 passages per document of 20,000 characters), and on passages
 * only for the `limit` winners; coverage reads rowids only. Nothing per passage crosses into
 * JavaScript; each snippet is looked up by an integer rowid (see passageRowid).
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from './constants.js';
import { LibraryError } from './errors.js';
import { DOCUMENTS_TABLE, PASSAGES_PER_DOCUMENT, passageRowid } from './schema.js';
import { parseSearchQuery } from './searchQuery.js';
import type { SearchHit, SearchInput, SearchOutcome } from './types.js';

const BM25_WEIGHTS = '4.0, 2.0, 1.0';
/** Relevance at which the squashed relevance is one half. */
const RELEVANCE_HALF_POINT = 5;
const MAX_SNIPPETS = 3;
/** Tokens of context per snippet. */
const SNIPPET_TOKENS = 24;
/** SQL for the document seq of a passage row (see PASSAGES_PER_DOCUMENT). */
const SEQ_OF_PASSAGE = `rowid / ${PASSAGES_PER_DOCUMENT}`;
const OPEN = '\u0002';
const CLOSE = '\u0003';

interface PassageIndex {
  table: string;
  /** The key's ranking table: one row per document (see schema.ts rankingTable). */
  rankingTable: string;
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
}

interface ScoredPassage {
  passage: number;
  score: number;
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

  const t = index.table;
  const units = query.unitExpressions.length;
  // bm25 gives a unit in half or more of the key's passages no weight (FTS5 clamps its idf to 1e-6),
  // so only the informative units are scored: the common ones still count for coverage, but cost no
  // bm25 evaluation.
  const indexed = (index.prepare(`select coalesce(sum(passages), 0) as n from ${DOCUMENTS_TABLE} where key_id = ?`).get(index.keyId) as { n: number }).n;
  const countUnit = index.prepare(`select count(*) as n from ${t} where ${t} match ?`);
  const scoredUnits = query.unitExpressions.filter((unit) => (countUnit.get(unit) as { n: number }).n < indexed / 2);
  const scoredExpression = scoredUnits.join(' OR ');
  const filters: string[] = [];
  const filterParams: SQLInputValue[] = [];
  if (input.category !== undefined && input.category.trim()) {
    filters.push('and lower(d.category) = lower(?)');
    filterParams.push(input.category.trim());
  }
  for (const tag of input.tags ?? []) {
    if (!tag.trim()) continue;
    filters.push('and exists (select 1 from json_each(d.tags) where lower(json_each.value) = lower(?))');
    filterParams.push(tag.trim());
  }
  const r = index.rankingTable;
  const params: SQLInputValue[] = [];
  // Coverage: per unit, the documents with a passage containing it (rowids only: no scoring). From
  // the passages, not the ranking rows, so a phrase never counts across a paragraph break.
  const coverage =
    units === 1
      ? `select distinct ${SEQ_OF_PASSAGE} as seq, 1 as units from ${t} where ${t} match ?`
      : `select seq, count(*) as units from (${query.unitExpressions
          .map(() => `select distinct ${SEQ_OF_PASSAGE} as seq from ${t} where ${t} match ?`)
          .join(' union all ')}) group by seq`;
  params.push(...query.unitExpressions);
  // Every passage of a key's table is one of its ready documents' (a pending ingest has none, a
  // delete removes them in the same transaction), so only the filters need the documents table.
  const candidates = filters.length
    ? `select c.seq, c.units from coverage c join ${DOCUMENTS_TABLE} d on d.seq = c.seq where d.key_id = ? ${filters.join(' ')}`
    : 'select seq, units from coverage';
  if (filters.length) params.push(index.keyId, ...filterParams);
  // bm25() may only be evaluated in the statement that owns the FTS cursor: materialised first.
  const documentScores = scoredExpression
    ? `select rowid as seq, -bm25(${r}, ${BM25_WEIGHTS}) as relevance from ${r} where ${r} match ?`
    : 'select null as seq, null as relevance where 0';
  if (scoredExpression) params.push(scoredExpression);
  params.push(limit);
  // score = (units matched − 1 + r / (r + RELEVANCE_HALF_POINT)) / units, r = the document's bm25.
  const rows = index
    .prepare(
      `with coverage as materialized (${coverage}),
       candidates as materialized (${candidates}),
       document_scores as materialized (${documentScores}),
       matches as materialized (
         select c.seq, (c.units - 1 + coalesce(s.relevance / (s.relevance + ${RELEVANCE_HALF_POINT}), 0)) / ${units}.0 as score
         from candidates c left join document_scores s on s.seq = c.seq
       ),
       winners as materialized (select * from matches order by score desc, seq limit ?)
       select d.seq, d.id, d.title, d.filename, d.category, d.tags, w.score, (select count(*) from candidates) as total
       from winners w join ${DOCUMENTS_TABLE} d on d.seq = w.seq order by w.score desc, w.seq`,
    )
    .all(...params) as unknown as Array<DocumentMatch & { score: number; total: number }>;
  if (!rows.length) return outcome;

  outcome.total = rows[0]!.total;
  const best = scoredExpression ? bestPassages(index, scoredExpression, rows.map((row) => row.seq)) : new Map<number, ScoredPassage[]>();
  outcome.results = rows.map((match): SearchHit => ({
    documentId: match.id,
    title: match.title,
    filename: match.filename,
    category: match.category,
    tags: JSON.parse(match.tags) as string[],
    score: Math.round(match.score * 10_000) / 10_000,
    snippets: snippetsOf(index, query.anyUnit, match.seq, best.get(match.seq) ?? []),
  }));
  return outcome;
}

/**
 * The best 1–3 passages of each winner by passage bm25 (the place in the document that answers the
 * query), in one statement: FTS5 walks the doclist once and scores only the winners' passages.
 */
function bestPassages(index: PassageIndex, expression: string, seqs: readonly number[]): Map<number, ScoredPassage[]> {
  const t = index.table;
  const rows = index
    .prepare(
      `with scored as materialized (
         select rowid as passage, ${SEQ_OF_PASSAGE} as seq, -bm25(${t}, ${BM25_WEIGHTS}) as score from ${t}
         where ${t} match ? and ${SEQ_OF_PASSAGE} in (select value from json_each(?))
       ),
       places as (select *, row_number() over (partition by seq order by score desc, passage) as place from scored)
       select seq, passage, score from places where place <= ${MAX_SNIPPETS} order by seq, place`,
    )
    .all(expression, JSON.stringify(seqs)) as unknown as Array<ScoredPassage & { seq: number }>;
  const best = new Map<number, ScoredPassage[]>();
  for (const { seq, passage, score } of rows) best.set(seq, [...(best.get(seq) ?? []), { passage, score }]);
  return best;
}

/**
 * Highlighted snippets of the document's best 1–3 passages (in document order when the document
 * matches only common units); every unit is highlighted.
 */
function snippetsOf(index: PassageIndex, expression: string, seq: number, scored: ScoredPassage[]): string[] {
  const t = index.table;
  let best = scored;
  if (!best.length) {
    best = index
      .prepare(`select rowid as passage, 0 as score from ${t} where ${t} match ? and rowid >= ? and rowid < ? order by rowid limit 1`)
      .all(expression, passageRowid(seq), passageRowid(seq + 1)) as unknown as ScoredPassage[];
  }
  const top = best[0]?.score ?? 0;
  const snippet = (column: number): string => `snippet(${t}, ${column}, '${OPEN}', '${CLOSE}', '…', ${SNIPPET_TOKENS})`;
  // Rowids are bound as integers (see passageRowid): bound as REAL, FTS5 ignores the constraint and
  // would snippet every matching passage of the library instead of one. The body is snippeted
  // first; the heading and title only for a passage whose body does not contain a match.
  const body = index.prepare(`select ${snippet(2)} as text from ${t} where ${t} match ? and rowid = ?`);
  const others = index.prepare(`select ${snippet(1)} as heading, ${snippet(0)} as title from ${t} where ${t} match ? and rowid = ?`);
  const snippets: string[] = [];
  for (const { passage, score } of best) {
    if (score < top / 2) break;
    const rowid = BigInt(passage);
    let marked = (body.get(expression, rowid) as { text: string } | undefined)?.text ?? '';
    if (!marked.includes(OPEN)) {
      const row = others.get(expression, rowid) as { heading: string; title: string } | undefined;
      marked = [row?.heading ?? '', row?.title ?? ''].find((text) => text.includes(OPEN)) ?? marked;
    }
    const html = toHtml(marked);
    if (html && !snippets.includes(html)) snippets.push(html);
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
