/**
 * What each control looks for, as concept terms weighted by the control set alone. A control's terms
 * come from its keywords and title (full weight), its paraphrases (full weight) and its description
 * (DESCRIPTION_FACTOR), read through the synonym groups (concepts.ts); a title of TITLE_INTENT_IDEAS
 * specific ideas also counts as one of its paraphrases. A term's weight is that factor
 * times its inverse control frequency, ln(1 + N / df), where df is how many of the N controls use the
 * term: a term specific to one control ("sanction") weighs more than one most controls share
 * ("ePHI"). Nothing depends on the document, so a control's score depends only on the sentences that
 * evidence it.
 */
import { conceptTerms, isLiteral } from './concepts.js';
import type { MappingControl } from './types.js';

/** Weight of a term found only in a control's description, relative to its keywords and title. */
const DESCRIPTION_FACTOR = 0.6;
/** Weight of a control's exact wording beside its concept: a bonus for saying it the catalogue's way. */
const LITERAL_FACTOR = 0.3;
/** How many of a control's heaviest keyword and title terms count as its main ideas. */
const MAIN_IDEAS = 5;
/** Terms whose weights sum to a control's reference: what one well-aimed sentence would name. */
const REFERENCE_TERMS = 3;

/** Words every control description uses that say nothing about what a control is about. */
const BOILERPLATE = new Set(
  conceptTerms(
    'ensure ensured organisation organization organisational organizational appropriate appropriately defined define ' +
      'establish established implement implemented implementation relevant include includes including required ' +
      'requirement requirements use used set known understood based whether where e g such other others expectations ' +
      'specific specified reasonable reasonably adequate consistent consistently needed necessary identified identify ' +
      'outcomes outcome activities activity process processes measures measure take taken making make made considered ' +
      'consider determine determined addressed address applicable apply applied ' +
      // Counts and word fragments ("one", "30 days", the "pre" of "pre-acquisition") are not ideas.
      'one two three four five six seven eight nine ten plus day days new non pre',
  ),
);

/** Words too broad to make a title an intent, or a delegation evidence, on their own (nearly every control is about them). */
export const GENERIC_TERMS: ReadonlySet<string> = new Set(conceptTerms('security information control controls management managed data system systems cybersecurity'));
/** Ideas a title needs before a sentence stating all of them counts as stating the control's intent. */
const TITLE_INTENT_IDEAS = 3;

interface WeightedKeyword {
  /** As the control set spells it (named in gaps). */
  keyword: string;
  terms: string[];
  weight: number;
}

export interface WeightedControl {
  control: MappingControl;
  /** Term → weight. */
  terms: ReadonlyMap<string, number>;
  /** Its MAIN_IDEAS heaviest keyword, title and paraphrase terms: a sentence must name one of them. */
  main: ReadonlySet<string>;
  /** Sum of the REFERENCE_TERMS heaviest term weights. */
  reference: number;
  keywords: WeightedKeyword[];
  /** Each paraphrase as its set of terms: a sentence naming all of one is strong evidence. */
  intents: ReadonlyArray<readonly string[]>;
}

export function weightControls(controls: readonly MappingControl[]): WeightedControl[] {
  const compiled = controls.map((control) => {
    const factors = new Map<string, number>();
    const add = (text: string, factor: number): string[] => {
      // One- and two-letter stems ("c" of "C-SCRM", "id") are fragments, not ideas.
      const terms = [...new Set(conceptTerms(text))].filter((t) => !BOILERPLATE.has(t) && !/^\d+$/.test(t) && t.length > 2);
      for (const t of terms) factors.set(t, Math.max(factors.get(t) ?? 0, factor));
      return terms;
    };
    const keywords = control.keywords.map((keyword) => ({ keyword, terms: add(keyword, 1) })).filter((k) => k.terms.length);
    const title = add(control.title.replace(/\((?:Standard|Required|Addressable)[^)]*\)/g, ''), 1).filter((t) => !isLiteral(t) && !GENERIC_TERMS.has(t));
    // A paraphrase whose specific words the reading drops ("application security requirements" keeps only
    // "security": application and requirements are boilerplate stems) is no statement of intent.
    const intents = (control.paraphrases ?? []).map((paraphrase) => add(paraphrase, 1).filter((t) => !isLiteral(t))).filter((terms) => terms.some((t) => !GENERIC_TERMS.has(t)));
    // A title of three specific ideas ("Equipment siting and protection") is itself a statement of intent.
    if (title.length >= TITLE_INTENT_IDEAS) intents.push(title);
    add(control.description, DESCRIPTION_FACTOR);
    return { control, factors, keywords, intents };
  });
  const frequency = new Map<string, number>();
  for (const c of compiled) for (const t of c.factors.keys()) frequency.set(t, (frequency.get(t) ?? 0) + 1);
  const n = Math.max(controls.length, 1);
  return compiled.map(({ control, factors, keywords, intents }) => {
    const terms = new Map<string, number>();
    for (const [t, factor] of factors) terms.set(t, (isLiteral(t) ? LITERAL_FACTOR : 1) * factor * Math.log(1 + n / (frequency.get(t) ?? 1)));
    // The reference is what a sentence naming the control's main ideas would carry: its heaviest
    // keyword and title terms (description-only terms add credit but set no expectation).
    // Exact wordings only add to a synonym's concept, so they set no expectation either.
    const ideas = [...terms].filter(([t]) => !isLiteral(t));
    const core = ideas.filter(([t]) => (factors.get(t) ?? 0) >= 1).map(([, w]) => w);
    const heaviest = (core.length ? core : ideas.map(([, w]) => w)).sort((a, b) => b - a).slice(0, REFERENCE_TERMS);
    return {
      control,
      terms,
      main: new Set(
        ideas
          .filter(([t]) => (factors.get(t) ?? 0) >= 1)
          .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
          .slice(0, MAIN_IDEAS)
          .map(([t]) => t),
      ),
      reference: heaviest.reduce((s, w) => s + w, 0),
      keywords: keywords.map((k) => ({ ...k, weight: k.terms.reduce((s, t) => s + (terms.get(t) ?? 0), 0) })),
      intents,
    };
  });
}
