/**
 * The catalogue as discovery reads it: each framework's names, topics, sector and regulator as
 * stemmed terms (built once), how rare each term is across the catalogue, the everyday words that
 * stand for the catalogue's own, and the frameworks a text names directly.
 */
import { frameworks } from './catalogue.js';
import { compactKey, contentTokens, stem, words } from './text.js';
import type { FrameworkEntry } from './types.js';

/** Aliases that are also everyday words: they count as a direct mention only when written as given. */
const CASE_SENSITIVE_ALIASES = new Set(['APPs', 'APP', 'AIMS', 'CRA']);

/** Everyday words mapped to the catalogue's vocabulary (applied after stemming, weight 0.7). */
const SYNONYMS: Record<string, string[]> = {
  healthcare: ['health'], medical: ['health'], patient: ['health'], hospital: ['health'], clinic: ['health'],
  clinical: ['health'], pharmacy: ['health'], physician: ['health'], doctor: ['health'], dental: ['health'],
  ehr: ['health'], phi: ['health'], hipaa: ['health'],
  bank: ['banking', 'financial'], banking: ['financial'], fintech: ['financial'], lender: ['lending'],
  loan: ['lending'], insurer: ['insurance'], broker: ['financial'], investment: ['financial'],
  school: ['education', 'student'], student: ['education'], university: ['education', 'student'],
  college: ['education', 'student'], pupil: ['student'],
  kid: ['children', 'child'], child: ['children'], minor: ['children'], teen: ['children'],
  ml: ['machine', 'ai'], llm: ['ai', 'generative'], genai: ['generative', 'ai'], model: ['ai'],
  chatbot: ['ai'], algorithm: ['ai'],
  ecommerce: ['commerce', 'payment'], shop: ['merchant', 'payment'], retail: ['merchant'], store: ['merchant'],
  credit: ['card'], debit: ['card'], stripe: ['payment'], checkout: ['payment'],
  defense: ['defence'], defence: ['defense'], dod: ['defense'], military: ['defense'], pentagon: ['defense'],
  cyber: ['cybersecurity'], infosec: ['security'], cybersecurity: ['security'],
  saa: ['saas'], software: ['saas'], startup: ['saas'], cloud: ['saas'],
  gdpr: ['personal'], privacy: ['personal'], personal: ['privacy'], customer: ['consumer'], consumer: ['customer'],
  continuity: ['resilience'], disaster: ['continuity'], outage: ['resilience'],
  iot: ['product'], device: ['product'], firmware: ['product'], manufacturer: ['product'],
  government: ['federal'], agency: ['federal'], contractor: ['contract'],
};

export interface Profile {
  entry: FrameworkEntry;
  order: number;
  /** Stemmed word sequences of the slug, names and aliases, with the alias as written. */
  names: Array<{ words: string[]; display: string; caseSensitive: boolean }>;
  nameTokens: Set<string>;
  topicTokens: Set<string>;
  topicPhrases: Array<{ words: string[]; display: string }>;
  sectorTokens: Set<string>;
  regulatorTokens: Set<string>;
  regulatorKey: string;
}

let profiles: Profile[] | undefined;
let idf: Map<string, number> | undefined;

function stemmedWords(text: string): string[] {
  return words(text).map(stem);
}

export function buildProfiles(): Profile[] {
  if (profiles) return profiles;
  profiles = frameworks.map((entry, order) => {
    const names = [entry.name, entry.shortName, ...entry.aliases]
      .filter((n) => compactKey(n).length >= 3)
      .map((n) => ({ words: stemmedWords(n), display: n, caseSensitive: CASE_SENSITIVE_ALIASES.has(n) }));
    const regulatorWords = words(entry.regulator);
    return {
      entry,
      order,
      names,
      nameTokens: new Set(
        [entry.name, entry.shortName, ...entry.aliases.filter((a) => !CASE_SENSITIVE_ALIASES.has(a))].flatMap(contentTokens),
      ),
      topicTokens: new Set(entry.topics.flatMap(contentTokens)),
      topicPhrases: entry.topics
        .map((t) => ({ words: contentTokens(t), display: t }))
        .filter((p) => p.words.length >= 2),
      sectorTokens: new Set(contentTokens(entry.sector)),
      regulatorTokens: new Set(regulatorWords.filter((w) => !GENERIC_REGULATOR_WORDS.has(w)).map(stem)),
      regulatorKey: compactKey(entry.regulator),
    };
  });
  // Inverse document frequency over each framework's combined vocabulary.
  const df = new Map<string, number>();
  for (const p of profiles) {
    const vocab = new Set([...p.nameTokens, ...p.topicTokens, ...p.sectorTokens, ...p.regulatorTokens]);
    for (const t of vocab) df.set(t, (df.get(t) ?? 0) + 1);
  }
  idf = new Map([...df].map(([t, n]) => [t, Math.log(1 + profiles!.length / n)]));
  return profiles;
}

export const GENERIC_REGULATOR_WORDS = new Set([
  'and', 'of', 'the', 'for', 'u', 's', 'us', 'department', 'office', 'national', 'commission', 'authority',
  'authorities', 'international', 'organization', 'organisation', 'state', 'institute', 'with', 'by', 'on', 'its',
  'a', 'standards', 'standard', 'body', 'private', 'required', 'through', 'enforced', 'delivered',
]);

export function idfOf(token: string): number {
  return idf?.get(token) ?? 0;
}

/** Direct mentions of framework names in the text; a longer name wins over a shorter one inside it. */
export function directMentions(text: string): Map<Profile, string> {
  const all = buildProfiles();
  const tokens = stemmedWords(text);
  const hits: Array<{ profile: Profile; start: number; length: number; display: string }> = [];
  for (const profile of all) {
    for (const name of profile.names) {
      const n = name.words.length;
      for (let i = 0; i + n <= tokens.length; i++) {
        if (name.words.every((w, j) => tokens[i + j] === w)) {
          if (name.caseSensitive && !new RegExp(`\\b${name.display.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`).test(text)) continue;
          hits.push({ profile, start: i, length: n, display: name.display });
        }
      }
    }
  }
  hits.sort((a, b) => b.length - a.length || a.profile.order - b.profile.order);
  const covered: Array<{ start: number; end: number; profile: Profile }> = [];
  const found = new Map<Profile, string>();
  for (const hit of hits) {
    const end = hit.start + hit.length;
    const inside = covered.some((c) => c.profile !== hit.profile && c.start <= hit.start && end <= c.end);
    if (inside) continue;
    covered.push({ start: hit.start, end, profile: hit.profile });
    if (!found.has(hit.profile)) found.set(hit.profile, hit.display);
  }
  return found;
}

/** The text's terms, and the catalogue terms its everyday words stand for (weight 0.7), each with the word as written. */
export function expandTokens(tokens: string[]): Map<string, { weight: number; word: string }> {
  const out = new Map<string, { weight: number; word: string }>();
  for (const t of tokens) {
    const current = out.get(t);
    if (!current || current.weight < 1) out.set(t, { weight: 1, word: t });
  }
  for (const t of tokens) {
    for (const syn of SYNONYMS[t] ?? []) {
      const s = stem(syn);
      if (!out.has(s)) out.set(s, { weight: 0.7, word: t });
    }
  }
  return out;
}
