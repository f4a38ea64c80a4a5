/**
 * Text to concept terms: every word is Porter-stemmed (stop words kept while phrases are matched, so
 * "log in" and "log" differ), the longest phrase of a synonym group at each position becomes that
 * group's concept (`#mfa`) followed by its exact wording (`=one_time_code`), and any other non-stop
 * word stands for its own stem. The same function
 * reads a control's catalogue entry and a policy sentence, so both meet on the same terms.
 */
import { SYNONYM_GROUPS } from '../catalogue/synonyms.js';
import { STOP_WORDS, stem, words } from '../library/text.js';

interface TrieNode {
  next: Map<string, TrieNode>;
  concept?: string;
}

const root: TrieNode = { next: new Map() };
for (const [concept, phrases] of SYNONYM_GROUPS) {
  for (const phrase of phrases) {
    let node = root;
    const literal = phrase.startsWith('=');
    for (const word of words(phrase)) {
      const key = literal ? `=${word}` : stem(word);
      let child = node.next.get(key);
      if (!child) node.next.set(key, (child = { next: new Map() }));
      node = child;
    }
    // The first group listing a phrase keeps it: a phrase means one thing.
    if (node !== root && node.concept === undefined) node.concept = `#${concept}`;
  }
}

/** The longest phrase starting at `start`; a literal spelling beats a stem of the same length. */
function longestPhrase(tokens: readonly string[], stems: readonly string[], start: number): { concept?: string; end: number } {
  let best: { concept?: string; end: number } = { end: start };
  const walk = (node: TrieNode, j: number): void => {
    if (node.concept !== undefined && j > best.end) best = { concept: node.concept, end: j };
    if (j >= tokens.length) return;
    const literal = node.next.get(`=${tokens[j]}`);
    if (literal) walk(literal, j + 1);
    const stemmed = node.next.get(stems[j]!);
    if (stemmed) walk(stemmed, j + 1);
  };
  walk(root, start);
  return best;
}

/** Prefix of the exact-wording term added beside a concept; it adds weight but is not a further idea. */
const LITERAL = '=';

/** Whether a term is the exact wording beside a concept. */
export function isLiteral(term: string): boolean {
  return term.startsWith(LITERAL);
}

/**
 * Words that say little on their own: "conduct" is a verb far more often than a code of conduct,
 * "critical systems" are not a criticality analysis, a whistleblower's "identity" is not an account,
 * everything is "reviewed", a ticket is an "Issue" (not credentials issued), "key metrics" are no
 * keys, audit "findings" are not vulnerability findings and "creating" a ticket provisions nothing. Standing alone (not inside a longer
 * phrase such as "code of conduct", "access review" or "identity verification") they add weight but
 * are never one of the ideas that make a sentence evidence (mapText.ts).
 */
const AMBIGUOUS_WORDS: ReadonlySet<string> = new Set(
  'conduct conducts conducted conducting critical identity identities review reviews reviewed reviewing issue issues key keys findings create creates created creating creation'.split(' '),
);

/** A text's terms, and those of them only an ambiguous word standing alone produced. */
interface ReadTerms {
  terms: string[];
  ambiguous: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();

/** The text's terms in order: concepts for synonym phrases, stems for other content words. */
export function conceptTerms(text: string): string[] {
  return readTerms(text).terms;
}

/** conceptTerms, also telling which terms rest only on an ambiguous word standing alone; `tokens`: its words, when already read. */
export function readTerms(text: string, tokens: readonly string[] = words(text)): ReadTerms {
  const stems = tokens.map(stem);
  const terms: string[] = [];
  // Most sentences have no ambiguous word: nothing more is allocated for them.
  const alone: string[] = [];
  let i = 0;
  while (i < tokens.length) {
    const { concept, end } = longestPhrase(tokens, stems, i);
    const ambiguousWord = AMBIGUOUS_WORDS.has(tokens[i]!) && end <= i + 1;
    if (concept !== undefined) {
      // The exact wording rides along: "subcontractor" is a supplier, and also more than that.
      const literal = `${LITERAL}${stems.slice(i, end).join('_')}`;
      terms.push(concept, literal);
      if (ambiguousWord) alone.push(concept, literal);
      i = end;
      continue;
    }
    if (!STOP_WORDS.has(tokens[i]!)) {
      terms.push(stems[i]!);
      if (ambiguousWord) alone.push(stems[i]!);
    }
    i++;
  }
  if (!alone.length) return { terms, ambiguous: NONE };
  // A term the text also states another way ("review" beside "access review") is not ambiguous.
  const count = (list: readonly string[], term: string): number => list.reduce((n, t) => (t === term ? n + 1 : n), 0);
  return { terms, ambiguous: new Set(alone.filter((term) => count(terms, term) === count(alone, term))) };
}
