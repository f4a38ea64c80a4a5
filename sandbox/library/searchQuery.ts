/**
 * Turns what a user typed into safe FTS5 expressions. User input is never handed to FTS5 as syntax:
 * every unit becomes a double-quoted string of plain word tokens, so AND, OR, NOT, NEAR, `*`, `^`,
 * `:` and stray quotes are just words or separators.
 *
 * Units: a "quoted phrase"; a hyphenated or dotted word (multi-factor, ISO/IEC) as a phrase of its
 * parts; any other word as a term. Stop words are dropped unless the query has nothing else.
 * An unbalanced quote is ignored.
 */
import { LibraryError } from './errors.js';
import { STOP_WORDS, words } from './text.js';

/** Longest accepted query, in characters. */
const QUERY_MAX_CHARS = 500;
/** Most units (terms and phrases) a query may have after stop words are dropped. */
const QUERY_MAX_UNITS = 16;

interface QueryUnit {
  /** Word tokens, in order. */
  tokens: string[];
  /** A quoted phrase or a hyphenated word. */
  phrase: boolean;
}

interface ParsedQuery {
  units: QueryUnit[];
  /** FTS5 expression matching a passage that contains any unit. */
  anyUnit: string;
  /** One FTS5 expression per unit. */
  unitExpressions: string[];
}

/** Parses a search query; throws LibraryError invalid_query when it has no searchable word or is too long. */
export function parseSearchQuery(query: string): ParsedQuery {
  if (query.length > QUERY_MAX_CHARS) {
    throw new LibraryError('invalid_query', `The query is ${query.length} characters long; the maximum is ${QUERY_MAX_CHARS}.`, 'Search with a few key words or a "quoted phrase".');
  }
  const normalised = query.replace(/[“”„‟″]/g, '"');
  const segments = normalised.split('"');
  // With an odd number of quotes the last one is unbalanced: its segment is read as plain words.
  const balanced = segments.length % 2 === 1;
  const units: QueryUnit[] = [];
  segments.forEach((segment, index) => {
    const quoted = index % 2 === 1 && (balanced || index < segments.length - 1);
    if (quoted) {
      const tokens = words(segment);
      if (tokens.length) units.push({ tokens, phrase: tokens.length > 1 });
      return;
    }
    for (const word of segment.split(/\s+/)) {
      const tokens = words(word);
      if (tokens.length) units.push({ tokens, phrase: tokens.length > 1 });
    }
  });

  const meaningful = units.filter((unit) => unit.phrase || !STOP_WORDS.has(unit.tokens[0] ?? ''));
  const chosen = dedupe(meaningful.length ? meaningful : units);
  if (!chosen.length) {
    throw new LibraryError('invalid_query', 'The query has no searchable words.', 'Send at least one word, for example {"query": "access review"}.');
  }
  if (chosen.length > QUERY_MAX_UNITS) {
    throw new LibraryError('invalid_query', `The query has ${chosen.length} terms; the maximum is ${QUERY_MAX_UNITS}.`, 'Search with fewer, more specific words or a "quoted phrase".');
  }
  const unitExpressions = chosen.map((unit) => `"${unit.tokens.join(' ')}"`);
  return { units: chosen, anyUnit: unitExpressions.join(' OR '), unitExpressions };
}

function dedupe(units: QueryUnit[]): QueryUnit[] {
  const seen = new Set<string>();
  return units.filter((unit) => {
    const key = unit.tokens.join(' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
