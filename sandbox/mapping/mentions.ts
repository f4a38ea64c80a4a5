/**
 * A gap's key terms checked against the text, so its explanation never contradicts what the text
 * says: a term the text names is reported as named but not enough, at the place it stands, with the
 * reason (a heading, a statement of scope, negated, out of scope, delegated, or a statement that
 * does not meet the control); only a term named nowhere is reported as absent. Named means word for
 * word, as a reader would check it ("log-in" and "login", "reminder" and "reminders" alike), or
 * through a synonym group (concepts.ts: "one-time code" for "MFA"); never through a stem alone,
 * which would take "governed" for "government".
 */
import { words } from '../library/text.js';
import { conceptTerms, isLiteral } from './concepts.js';
import type { MentionKind, TextMention } from './evidenceUnits.js';
import type { EvidenceLocation } from './types.js';

/** A key term the text names, where, and why that does not evidence the control. */
interface NamedTerm {
  keyword: string;
  kind: MentionKind;
  location: EvidenceLocation;
}

/** Which mention to cite when a term stands in several: a plain statement first, a heading last. */
const PREFERENCE: readonly MentionKind[] = ['statement', 'delegated', 'negated', 'out-of-scope', 'scope', 'heading'];

/** Inflections a word of the text may add to the catalogue's spelling ("reminder" → "reminders"). */
const SUFFIXES = ['', 's', 'es'];

/** Letters a word start is indexed by. */
const PREFIX = 3;

/** Between two mentions in the joined text: no letter or digit, so no term spans two of them. */
const BETWEEN = '\u0001';

/**
 * The text's mentions read once for every gap of a mapping: their words joined without separators
 * into one string (so "log-in" meets "login"), where each word starts and ends, and which mentions
 * name each synonym concept.
 */
export class MentionIndex {
  readonly #mentions: readonly TextMention[];
  #joined = '';
  /** Offset in #joined where each mention starts. */
  readonly #offsets: number[] = [];
  readonly #starts = new Set<number>();
  readonly #ends = new Set<number>();
  #byConcept: Map<string, number[]> | undefined;
  #byPrefix: Map<string, number[]> | undefined;

  constructor(mentions: readonly TextMention[]) {
    this.#mentions = mentions;
    const parts: string[] = [];
    let length = 0;
    for (const mention of mentions) {
      this.#offsets.push(length);
      for (const token of mention.tokens) {
        this.#starts.add(length);
        parts.push(token);
        length += token.length;
        this.#ends.add(length);
      }
      parts.push(BETWEEN);
      length += BETWEEN.length;
    }
    this.#joined = parts.join('');
  }

  /** Where the text names `keyword`, preferring the mention closest to evidence (PREFERENCE), then the first. */
  find(keyword: string): NamedTerm | undefined {
    let best: number | undefined;
    const rank = (at: number) => PREFERENCE.indexOf(this.#mentions[at]!.kind);
    const better = (index: number) => best === undefined || rank(index) < rank(best) || (rank(index) === rank(best) && index < best);
    for (const index of this.#byConcepts(keyword)) if (better(index)) best = index;
    // In text order: past a plain statement already found, nothing can be better.
    this.#wordForWord(keyword, (index) => {
      if (better(index)) best = index;
      return best !== undefined && rank(best) === 0 && best <= index;
    });
    const mention = best === undefined ? undefined : this.#mentions[best];
    return mention ? { keyword, kind: mention.kind, location: mention.location } : undefined;
  }

  /** Each mention holding the keyword's letters word-aligned (a plural allowed), in text order, until `visit` says done. */
  #wordForWord(keyword: string, visit: (index: number) => boolean): void {
    const sought = words(keyword).join('');
    if (!sought) return;
    const candidates = sought.length >= PREFIX ? ((this.#byPrefix ??= this.#prefixIndex()).get(sought.slice(0, PREFIX)) ?? []) : this.#starts;
    for (const at of candidates) {
      if (!this.#joined.startsWith(sought, at)) continue;
      const end = at + sought.length;
      if (SUFFIXES.some((suffix) => this.#ends.has(end + suffix.length) && this.#joined.startsWith(suffix, end)) && visit(this.#mentionAt(at))) return;
    }
  }

  /** Word starts by their first PREFIX letters, in text order. */
  #prefixIndex(): Map<string, number[]> {
    const index = new Map<string, number[]>();
    for (const at of this.#starts) {
      const key = this.#joined.slice(at, at + PREFIX);
      const list = index.get(key);
      if (list) list.push(at);
      else index.set(key, [at]);
    }
    return index;
  }

  /** Mentions naming every idea of the keyword, when each is a synonym group's concept (`#mfa`). */
  #byConcepts(keyword: string): number[] {
    const ideas = conceptTerms(keyword).filter((term) => !isLiteral(term));
    if (ideas.length === 0 || !ideas.every((term) => term.startsWith('#'))) return [];
    const byConcept = (this.#byConcept ??= this.#conceptIndex());
    const [first, ...rest] = ideas.map((term) => byConcept.get(term) ?? []);
    return (first ?? []).filter((index) => rest.every((list) => list.includes(index)));
  }

  #conceptIndex(): Map<string, number[]> {
    const index = new Map<string, number[]>();
    this.#mentions.forEach((mention, at) => {
      for (const term of mention.terms ?? new Set(conceptTerms(mention.text))) {
        if (!term.startsWith('#')) continue;
        const list = index.get(term);
        if (list) list.push(at);
        else index.set(term, [at]);
      }
    });
    return index;
  }

  /** The mention a position of the joined text falls in. */
  #mentionAt(position: number): number {
    let low = 0;
    let high = this.#offsets.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((this.#offsets[middle] ?? 0) <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

const WHY: Record<MentionKind, string> = {
  statement: 'not stated as a requirement that meets this control',
  delegated: 'delegated to a provider',
  negated: 'negated: stated as not done',
  'out-of-scope': 'out of scope: stated as not applicable',
  scope: 'in a statement of what a document covers, not a requirement',
  heading: 'only as a heading or label, not a requirement',
};

/** `"password management" (policies/a.md, line 12: negated: stated as not done)` */
export function describeNamed(named: NamedTerm): string {
  const where = `${named.location.source ? `${named.location.source}, ` : ''}line ${named.location.line}`;
  return `"${named.keyword}" (${where}: ${WHY[named.kind]})`;
}
