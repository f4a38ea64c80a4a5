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
 *
 * A unit in half or more of the key's passages carries no bm25 weight (FTS5 floors its idf at 1e-6),
 * so it is not scored: it still counts for coverage and for the number of matching passages.
 *
 * Cost (figures in bench/library.ts): one statement does the work inside SQLite, no per-passage row
 * crosses into JavaScript: bm25 once per passage matching an informative unit (a materialised CTE),
 * folded per document before the join to the documents table, per-unit coverage from rowid-only
 * matches, the ranking itself, and, for the `limit` winners only, their best 1–3 passages. Only
 * those passages get a snippet, each looked up by an integer rowid (see passageRowid). With several
 * units, all scored, bm25 runs only on documents whose coverage can still reach the page.
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT } from './constants.js';
import { LibraryError } from './errors.js';
import { DOCUMENTS_TABLE, PASSAGES_PER_DOCUMENT, passageRowid } from './schema.js';
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

type BestPassages = Array<[passage: number, score: number]>;

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
  /** JSON [[passage rowid, score], …] of the best scored passages, best first; '[]' when only common units matched. */
  top: string | null;
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
  // so only the informative units are scored: the common ones still count for coverage and for the
  // number of matching passages, but no longer cost a bm25 evaluation on nearly every passage.
  const indexed = (index.prepare(`select coalesce(sum(passages), 0) as n from ${DOCUMENTS_TABLE} where key_id = ?`).get(index.keyId) as { n: number }).n;
  const countUnit = index.prepare(`select count(*) as n from ${t} where ${t} match ?`);
  const scoredUnits = query.unitExpressions.filter((unit) => (countUnit.get(unit) as { n: number }).n < indexed / 2);
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
  // Coverage: per unit, the documents with a passage containing it (rowids only: no ranking work).
  const coverage =
    units === 1
      ? 'select null as seq, null as units where 0'
      : `select seq, count(*) as units from (${query.unitExpressions
          .map(() => `select distinct rowid / ${PASSAGES_PER_DOCUMENT} as seq from ${t} where ${t} match ?`)
          .join(' union all ')}) group by seq`;
  const scoreOf = `-bm25(${t}, ${BM25_WEIGHTS})`;
  // bm25() may only be evaluated in the statement that owns the FTS cursor, so everything happens
  // in one statement: a materialised CTE scores each passage matching an informative unit once; it
  // is folded per document before the join to the documents table; documents are ranked in SQL,
  // and only the `limit` winners go back to the scored passages for their best 1–3 (snippets).
  const params: SQLInputValue[] = [];
  let matches: string;
  if (units > 1 && scoredUnits.length === units) {
    // A document with more of the query's units always ranks first, so only documents at or above
    // the coverage of the `limit`-th can win, and bm25 runs on their passages only (coverage needs
    // rowids alone): a query with a rare unit no longer scores most of the library. Documents below
    // that coverage are counted in `total` with relevance 0; they cannot reach the page.
    matches = `coverage as materialized (${coverage}),
       candidates as materialized (
         select c.seq, c.units from coverage c join ${DOCUMENTS_TABLE} d on d.seq = c.seq
         where d.key_id = ? and d.status = 'ready' ${filters.join(' ')}
       ),
       contenders as materialized (
         select seq from candidates
         where units >= coalesce((select units from candidates order by units desc limit 1 offset ? - 1), 0)
       ),
       scored as materialized (
         select rowid as passage, rowid / ${PASSAGES_PER_DOCUMENT} as seq, ${scoreOf} as score from ${t}
         where ${t} match ? and rowid / ${PASSAGES_PER_DOCUMENT} in (select seq from contenders)
       ),
       per_document as (select seq, max(score) as best, count(*) as passages from scored group by seq),
       -- Folded with union all, not a join: SQLite scanned one side once per row of the other.
       folded as (
         select seq, max(best) as best, max(passages) as passages, max(units) as units from (
           select seq, best, passages, 0 as units from per_document
           union all select seq, 0, 1, units from candidates
         ) group by seq
       ),
       matches as materialized (
         select d.seq, d.id, d.title, d.filename, d.category, d.tags,
           (f.units - 1 + f.relevance / (f.relevance + ${RELEVANCE_HALF_POINT})) / ${units}.0 as score
         from (select seq, units, best + ${EXTRA_PASSAGE_BONUS} * ln(passages) as relevance from folded) f
         join ${DOCUMENTS_TABLE} d on d.seq = f.seq
       )`;
    params.push(...query.unitExpressions, index.keyId, ...filterParams, limit, scoredUnits.join(' OR '));
  } else {
    let perDocument: string;
    const scored = scoredUnits.length
      ? `scored as materialized (
           select rowid as passage, rowid / ${PASSAGES_PER_DOCUMENT} as seq, ${scoreOf} as score from ${t} where ${t} match ?
         )`
      : 'scored as (select null as passage, null as seq, null as score where 0)';
    if (scoredUnits.length) params.push(scoredUnits.join(' OR '));
    if (scoredUnits.length === units) {
      perDocument = `${scored}, per_document as (select seq, max(score) as best, count(*) as passages from scored group by seq)`;
    } else {
      perDocument = `${scored},
         best as (select seq, max(score) as best from scored group by seq),
         counts as (select rowid / ${PASSAGES_PER_DOCUMENT} as seq, count(*) as passages from ${t} where ${t} match ? group by 1),
         per_document as (select c.seq, coalesce(b.best, 0) as best, c.passages from counts c left join best b on b.seq = c.seq)`;
      params.push(query.anyUnit);
    }
    matches = `${perDocument},
       coverage as (${coverage}),
       matches as materialized (
         select d.seq, d.id, d.title, d.filename, d.category, d.tags,
           (coalesce(c.units, 1) - 1 + r.relevance / (r.relevance + ${RELEVANCE_HALF_POINT})) / ${units}.0 as score
         from (select seq, best + ${EXTRA_PASSAGE_BONUS} * ln(passages) as relevance from per_document) r
         join ${DOCUMENTS_TABLE} d on d.seq = r.seq
         left join coverage c on c.seq = r.seq
         where d.key_id = ? and d.status = 'ready' ${filters.join(' ')}
       )`;
    if (units > 1) params.push(...query.unitExpressions);
    params.push(index.keyId, ...filterParams);
  }
  params.push(limit);
  // score = (units matched − 1 + r / (r + RELEVANCE_HALF_POINT)) / units, r = best + bonus · ln(passages).
  const rows = index
    .prepare(
      `with ${matches},
       winners as materialized (select * from matches order by score desc, seq limit ?),
       places as materialized (
         select s.seq, s.passage, s.score, row_number() over (partition by s.seq order by s.score desc, s.passage) as place
         from scored s where s.seq in (select seq from winners)
       )
       select w.*, (select count(*) from matches) as total,
         (select json_group_array(json_array(p.passage, p.score)) from places p where p.seq = w.seq and p.place <= ${MAX_SNIPPETS}) as top
       from winners w order by w.score desc, w.seq`,
    )
    .all(...params) as unknown as Array<DocumentMatch & { score: number; total: number }>;
  if (!rows.length) return outcome;

  outcome.total = rows[0]!.total;
  outcome.results = rows.map((match): SearchHit => ({
    documentId: match.id,
    title: match.title,
    filename: match.filename,
    category: match.category,
    tags: JSON.parse(match.tags) as string[],
    score: Math.round(match.score * 10_000) / 10_000,
    snippets: snippetsOf(index, query.anyUnit, match),
  }));
  return outcome;
}

/**
 * Highlighted snippets of the document's best 1–3 passages (ranked in the main statement; in
 * document order when the document matches only common units); every unit is highlighted.
 */
function snippetsOf(index: PassageIndex, expression: string, match: DocumentMatch): string[] {
  const t = index.table;
  let best = match.top ? (JSON.parse(match.top) as BestPassages).map(([passage, score]) => ({ passage, score })) : [];
  if (!best.length) {
    best = index
      .prepare(`select rowid as passage, 0 as score from ${t} where ${t} match ? and rowid >= ? and rowid < ? order by rowid limit 1`)
      .all(expression, passageRowid(match.seq), passageRowid(match.seq + 1)) as Array<{ passage: number; score: number }>;
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
