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

/** Flags of a position of the joined text. */
const WORD_START = 1;
const WORD_END = 2;

/**
 * The text's mentions, read once for every gap of a mapping: their words joined without separators
 * into one string (so "log-in" meets "login") with where each word starts and ends, and which
 * mentions name each synonym concept. readText adds the mentions as it reads the text; the joined
 * string is made at the first lookup.
 */
export class MentionIndex {
  readonly #mentions: TextMention[] = [];
  /** Offset in the joined text where each mention starts. */
  readonly #offsets: number[] = [];
  #parts: string[] = [];
  #starts: number[] = [];
  #ends: number[] = [];
  #length = 0;
  #joined: { text: string; flags: Uint8Array } | undefined;
  readonly #byConcept = new Map<string, Set<number>>();
  readonly #read = new Map<number, ReadonlySet<string>>();
  #byPrefix: Map<string, number[]> | undefined;

  /** A mention and its words (words()), in text order. */
  add(mention: TextMention, tokens: readonly string[]): void {
    this.#mentions.push(mention);
    this.#offsets.push(this.#length);
    for (const token of tokens) {
      this.#starts.push(this.#length);
      this.#parts.push(token);
      this.#length += token.length;
      this.#ends.push(this.#length);
    }
    this.#parts.push(BETWEEN);
    this.#length += BETWEEN.length;
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

  /** The joined text and its word flags, made once (the parts it is made of are dropped). */
  #text(): { text: string; flags: Uint8Array } {
    if (!this.#joined) {
      const flags = new Uint8Array(this.#length + 1);
      for (const at of this.#starts) flags[at]! |= WORD_START;
      for (const at of this.#ends) flags[at]! |= WORD_END;
      this.#joined = { text: this.#parts.join(''), flags };
      this.#parts = [];
      this.#starts = [];
      this.#ends = [];
    }
    return this.#joined;
  }

  /** Each mention holding the keyword's letters word-aligned (a plural allowed), in text order, until `visit` says done. */
  #wordForWord(keyword: string, visit: (index: number) => boolean): void {
    const sought = words(keyword).join('');
    if (!sought) return;
    const { text, flags } = this.#text();
    const candidates = sought.length >= PREFIX ? ((this.#byPrefix ??= this.#prefixIndex()).get(sought.slice(0, PREFIX)) ?? []) : this.#wordStarts();
    for (const at of candidates) {
      if (!text.startsWith(sought, at)) continue;
      const end = at + sought.length;
      if (SUFFIXES.some((suffix) => (flags[end + suffix.length] ?? 0) & WORD_END && text.startsWith(suffix, end)) && visit(this.#mentionAt(at))) return;
    }
  }

  *#wordStarts(): Generator<number> {
    const { flags } = this.#text();
    for (let at = 0; at < flags.length; at += 1) if (flags[at]! & WORD_START) yield at;
  }

  /** Word starts by their first PREFIX letters, in text order. */
  #prefixIndex(): Map<string, number[]> {
    const { text } = this.#text();
    const index = new Map<string, number[]>();
    for (const at of this.#wordStarts()) {
      const key = text.slice(at, at + PREFIX);
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
    const [first, ...rest] = ideas.map((term) => this.#naming(term));
    return [...(first ?? [])].filter((index) => rest.every((mentions) => mentions.has(index)));
  }

  /** The mentions whose concept terms hold `concept`, found once per concept a gap asks about. */
  #naming(concept: string): ReadonlySet<number> {
    let found = this.#byConcept.get(concept);
    if (!found) {
      found = new Set<number>();
      this.#mentions.forEach((mention, at) => {
        if (this.#termsOf(mention, at).has(concept)) found!.add(at);
      });
      this.#byConcept.set(concept, found);
    }
    return found;
  }

  /** A mention's concept terms: an evidence unit's own, else read once. */
  #termsOf(mention: TextMention, at: number): ReadonlySet<string> {
    if (mention.terms) return mention.terms;
    let terms = this.#read.get(at);
    if (!terms) this.#read.set(at, (terms = new Set(conceptTerms(mention.text))));
    return terms;
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
