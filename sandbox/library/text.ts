/**
 * Text analysis shared by the library (classification, tags, summaries) and the mapping engine:
 * word tokens folded like SQLite's unicode61 tokenizer, Porter stems, English stop words and
 * sentence splitting with offsets.
 */
import { porterStem } from './porterStemmer.js';

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-case word tokens with diacritics removed ("Café" → "cafe"), in order. */
export function words(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
  return folded.match(WORD) ?? [];
}

export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all also am an and any are as at be because been before being below ' +
    'between both but by can could did do does doing down during each either etc few for from further had has ' +
    'have having he her here hers herself him himself his how i if in into is it its itself just may me might ' +
    'more most must my myself no nor not now of off on once only or other our ours ourselves out over own per ' +
    'same shall she should so some such than that the their theirs them themselves then there these they this ' +
    'those through to too under until up upon us very via was we were what when where which while who whom why ' +
    'will with within without would yes you your yours yourself yourselves'
  ).split(' '),
);

/**
 * Stems already computed: documents repeat a few thousand distinct words many times over, so a
 * lookup replaces most Porter runs. Bounded: cleared when full, so memory stays flat on any input.
 */
const stemCache = new Map<string, string>();
const STEM_CACHE_MAX = 50_000;

/** The Porter stem of one lower-case word. */
export function stem(word: string): string {
  let result = stemCache.get(word);
  if (result === undefined) {
    result = porterStem(word);
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    stemCache.set(word, result);
  }
  return result;
}

/** Stems of the text's words, stop words removed. */
export function contentStems(text: string): string[] {
  const result: string[] = [];
  for (const word of words(text)) if (!STOP_WORDS.has(word)) result.push(stem(word));
  return result;
}

/** A sentence and where it starts in the text it was split from. */
interface SentenceSpan {
  text: string;
  /** Offset of the first character in the source string. */
  start: number;
}

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set(['e.g', 'i.e', 'etc', 'vs', 'no', 'nr', 'fig', 'sec', 'art', 'para', 'approx', 'inc', 'ltd', 'co', 'mr', 'mrs', 'ms', 'dr', 'st', 'cf', 'al']);

/**
 * Splits running text into sentences at `.`, `!` or `?` followed by whitespace and a capital,
 * digit, quote or bracket; abbreviations (e.g., etc.) and single initials do not end sentences.
 */
export function splitSentences(text: string): SentenceSpan[] {
  const spans: SentenceSpan[] = [];
  const boundary = /[.!?]+["'”’)\]]*\s+(?=["'“‘([]?[\p{Lu}\p{N}])/gu;
  let start = 0;
  for (let match = boundary.exec(text); match; match = boundary.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    const before = text.slice(start, match.index);
    const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
    if (text[match.index] === '.' && (ABBREVIATIONS.has(lastWord) || /^\p{L}$/u.test(lastWord))) continue;
    pushSpan(spans, text, start, end);
    start = match.index + match[0].length;
  }
  pushSpan(spans, text, start, text.length);
  return spans;
}

function pushSpan(spans: SentenceSpan[], text: string, start: number, end: number): void {
  const raw = text.slice(start, end);
  const lead = raw.length - raw.trimStart().length;
  const sentence = raw.trim();
  if (sentence) spans.push({ text: sentence, start: start + lead });
}

/** Shortens text to at most `max` characters at a word boundary, marking the cut with "…". */
export function truncateAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
