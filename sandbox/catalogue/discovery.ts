/**
 * Framework discovery: ranks the catalogue against a plain-language request. Deterministic: the
 * same input always gives the same candidates, confidences, reasoning and warnings.
 *
 * Signals, strongest first: the request names a framework (slug, name or alias); the regulator
 * field names its issuer; query, domain and description terms match its topics, name or sector
 * (weighted by how rare the term is across the catalogue); the jurisdiction fits its regions.
 */
import { SANDBOX_WATERMARK } from '../generation/watermark.js';
import { frameworks } from './catalogue.js';
import {
  REGIONS,
  recogniseJurisdictionField,
  recogniseJurisdictionInText,
  regionFit,
  regionName,
  type RegionFit,
} from './jurisdictions.js';
import { compactKey, containsPhrase, contentTokens, stem, words } from './text.js';
import type { FrameworkEntry } from './types.js';

interface SuggestInput {
  query?: string;
  jurisdiction?: string;
  domain?: string;
  regulator?: string;
  description?: string;
}

interface FrameworkCandidate {
  rank: number;
  slug: string;
  name: string;
  regulator: string;
  jurisdiction: string;
  sector: string;
  sourceUrl: string;
  /** 0..1 */
  confidence: number;
  reasoning: string;
  verified: boolean;
}

interface SuggestResult {
  candidates: FrameworkCandidate[];
  warnings: string[];
}

const MAX_CANDIDATES = 10;
/** Candidates scoring below this share of the best score are left out. */
const RELATIVE_CUTOFF = 0.25;

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

interface Profile {
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

function buildProfiles(): Profile[] {
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

const GENERIC_REGULATOR_WORDS = new Set([
  'and', 'of', 'the', 'for', 'u', 's', 'us', 'department', 'office', 'national', 'commission', 'authority',
  'authorities', 'international', 'organization', 'organisation', 'state', 'institute', 'with', 'by', 'on', 'its',
  'a', 'standards', 'standard', 'body', 'private', 'required', 'through', 'enforced', 'delivered',
]);

function idfOf(token: string): number {
  return idf?.get(token) ?? 0;
}

interface Scored {
  profile: Profile;
  score: number;
  direct?: string;
  topicTerms: string[];
  topicScore: number;
  regulatorMatched: boolean;
  /** The regulator field (not just a word of the query) named this framework's issuer. */
  regulatorFieldMatched: boolean;
  fit: RegionFit;
  jurisdictionMismatch: boolean;
}

function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** Direct mentions of framework names in the text; a longer name wins over a shorter one inside it. */
function directMentions(text: string): Map<Profile, string> {
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

function expandTokens(tokens: string[]): Map<string, { weight: number; word: string }> {
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

function quoteList(items: string[]): string {
  const quoted = items.map((i) => `"${i}"`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

function confidenceOf(s: Scored): number {
  let c: number;
  if (s.direct) {
    c = 0.88 + 0.1 * Math.min(1, (s.topicScore + (s.regulatorFieldMatched ? 4 : 0)) / 8);
    if (s.jurisdictionMismatch) c -= 0.25;
  } else {
    c = 0.08 + 0.77 * (1 - Math.exp(-s.score / 7));
  }
  return Math.round(Math.min(0.98, Math.max(0.05, c)) * 100) / 100;
}

function reasoningOf(s: Scored, wanted: string[], wantedPhrases: string[], regulatorInput?: string): string {
  const e = s.profile.entry;
  const parts: string[] = [];
  if (s.direct) parts.push(`The request names it directly ("${s.direct}")`);
  if (s.regulatorFieldMatched && regulatorInput) parts.push(`it is issued or enforced by ${e.regulator}, matching the regulator "${regulatorInput}"`);
  else if (s.regulatorMatched) parts.push(`the request mentions its regulator (${e.regulator})`);
  if (s.topicTerms.length > 0) parts.push(`its scope covers ${quoteList(s.topicTerms.slice(0, 5))}`);
  const asked = wantedPhrases.join(', ');
  const across = (code: string): string => regionName(REGIONS[code]?.parent ?? code);
  switch (s.fit) {
    case 'exact':
      parts.push(`it applies in ${e.jurisdiction}${asked && !e.jurisdiction.includes(asked) ? ` (requested: ${asked})` : ''}`);
      break;
    case 'parent':
      parts.push(`it applies across ${wanted.map(across).filter((n, i, a) => a.indexOf(n) === i).join(', ')}, which includes ${asked}`);
      break;
    case 'child':
      parts.push(`it applies in ${e.jurisdiction}, a part of ${asked}`);
      break;
    case 'international':
      parts.push(`it is an international standard usable in ${asked}`);
      break;
    case 'none':
      if (s.jurisdictionMismatch) parts.push(`but it applies in ${e.jurisdiction}, not ${asked}`);
      break;
  }
  if (parts.length === 0) parts.push('It is a general match for the request');
  let sentence = parts.join('; ');
  sentence = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  if (!s.direct && s.topicTerms.length === 0 && !s.regulatorMatched) sentence += '; listed by jurisdiction only';
  sentence += '.';
  if (e.verified) sentence += ' Its control set is verified and available for evidence mapping.';
  return sentence;
}

/** Ranks the catalogue for a discovery request: at most 10 candidates, best first, with warnings. */
export function suggestFrameworks(input: SuggestInput, mode: 'sandbox' | 'live'): SuggestResult {
  const all = buildProfiles();
  const query = clean(input.query);
  const domain = clean(input.domain);
  const description = clean(input.description);
  const jurisdictionInput = clean(input.jurisdiction);
  const regulatorInput = clean(input.regulator);
  const warnings: string[] = [];

  const freeText = [query, domain, description].filter(Boolean).join(' \n ');
  const textTokens = contentTokens(freeText);
  const distinctTokens = [...new Set(textTokens)];
  const expanded = expandTokens(distinctTokens);
  const direct = directMentions(freeText);

  // Jurisdiction: the dedicated field, plus regions named in the free text.
  const fieldRegions = jurisdictionInput ? recogniseJurisdictionField(jurisdictionInput) : { codes: [], phrases: [] };
  const textRegions = recogniseJurisdictionInText(freeText);
  const wanted = [...new Set([...fieldRegions.codes, ...textRegions.codes])];
  const wantedPhrases = [
    ...new Set([...(fieldRegions.codes.length > 0 ? [jurisdictionInput!] : []), ...textRegions.codes.map(regionName)]),
  ];
  const restrictive = wanted.some((c) => c !== 'INTL');
  if (jurisdictionInput && fieldRegions.codes.length === 0) {
    warnings.push(
      `Jurisdiction "${jurisdictionInput}" was not recognised, so it was not used in ranking. Recognised: EU/EEA and its member states, United Kingdom, United States, California, New York, Canada, Brazil, Australia, Singapore, Japan, International.`,
    );
  }

  // Region words in the text are jurisdiction, not topic.
  const regionWords = new Set(textRegions.phrases.flatMap((p) => words(p)).map(stem));

  const regulatorTokens = regulatorInput ? words(regulatorInput).filter((w) => !GENERIC_REGULATOR_WORDS.has(w)).map(stem) : [];
  const regulatorKey = regulatorInput ? compactKey(regulatorInput) : '';

  const scored: Scored[] = all.map((profile) => {
    const s: Scored = { profile, score: 0, topicTerms: [], topicScore: 0, regulatorMatched: false, regulatorFieldMatched: false, fit: 'none', jurisdictionMismatch: false };
    const directName = direct.get(profile);
    if (directName) {
      s.direct = directName;
      s.score += 10;
    }
    // Topic, name and sector terms.
    const seenWords = new Set<string>();
    for (const [token, { weight, word }] of expanded) {
      if (regionWords.has(token)) continue;
      let w = 0;
      if (profile.topicTokens.has(token) || profile.nameTokens.has(token)) w = 1;
      else if (profile.sectorTokens.has(token)) w = 0.8;
      else if (profile.regulatorTokens.has(token)) {
        w = 0.8;
        s.regulatorMatched = true;
      }
      if (w > 0) {
        s.topicScore += w * weight * idfOf(token);
        if (!seenWords.has(word) && !(profile.regulatorTokens.has(token) && w === 0.8)) {
          seenWords.add(word);
          s.topicTerms.push(word);
        }
      }
    }
    for (const phrase of profile.topicPhrases) {
      if (containsPhrase(textTokens, phrase.words)) {
        s.topicScore += 1.5 * (phrase.words.length - 1);
        if (!s.topicTerms.includes(phrase.display)) s.topicTerms.unshift(phrase.display);
      }
    }
    // Show the original words rather than stems where possible.
    s.topicTerms = s.topicTerms.map((t) => originalWord(t, freeText));
    s.topicTerms = [...new Set(s.topicTerms)];
    s.score += s.topicScore;
    // Regulator field.
    if (regulatorInput) {
      const tokenHit = regulatorTokens.filter((t) => profile.regulatorTokens.has(t));
      const keyHit = regulatorKey.length >= 3 && profile.regulatorKey.includes(regulatorKey);
      if (tokenHit.length > 0 || keyHit) {
        s.regulatorMatched = true;
        s.regulatorFieldMatched = true;
        s.score += 4 + tokenHit.reduce((sum, t) => sum + 2 * idfOf(t), 0);
      }
    }
    // Jurisdiction.
    if (wanted.length > 0) {
      s.fit = regionFit(profile.entry.regions, wanted);
      const bonus: Record<RegionFit, number> = { exact: 4, parent: 2.5, child: 1.5, international: 0.8, none: 0 };
      s.score += bonus[s.fit];
      if (s.fit === 'none' && restrictive) s.jurisdictionMismatch = true;
    }
    return s;
  });

  const anyTopical = scored.some((s) => s.direct || s.topicScore > 0 || s.regulatorMatched);
  const eligible = scored.filter((s) => {
    if (s.direct || s.topicScore > 0 || s.regulatorMatched) return true;
    // Nothing topical matched anywhere: fall back to the frameworks of the requested jurisdiction.
    return !anyTopical && restrictive && (s.fit === 'exact' || s.fit === 'parent' || s.fit === 'child');
  });
  for (const s of eligible) if (s.jurisdictionMismatch) s.score *= s.direct ? 0.8 : 0.35;
  // Drop stragglers that matched only a generic word next to much stronger candidates.
  const topScore = Math.max(0, ...eligible.map((s) => s.score));
  const kept = eligible.filter((s) => s.direct || s.score >= RELATIVE_CUTOFF * topScore);
  eligible.length = 0;
  eligible.push(...kept);

  eligible.sort(
    (a, b) =>
      b.score - a.score ||
      Number(b.profile.entry.verified) - Number(a.profile.entry.verified) ||
      a.profile.order - b.profile.order,
  );
  const top = eligible.slice(0, MAX_CANDIDATES);
  const candidates: FrameworkCandidate[] = top.map((s, i) => {
    const e = s.profile.entry;
    return {
      rank: i + 1,
      slug: e.slug,
      name: e.name,
      regulator: e.regulator,
      jurisdiction: e.jurisdiction,
      sector: e.sector,
      sourceUrl: e.sourceUrl,
      confidence: confidenceOf(s),
      reasoning: reasoningOf(s, wanted, wantedPhrases, regulatorInput),
      verified: e.verified,
    };
  });
  // Confidence never increases down the ranking.
  for (let i = 1; i < candidates.length; i++) {
    const prev = candidates[i - 1]!;
    const cur = candidates[i]!;
    if (cur.confidence > prev.confidence) cur.confidence = prev.confidence;
  }

  // Warnings about thin or unmatched input.
  const asked = [query, domain, description].filter(Boolean).join(' / ');
  if (regulatorInput && !scored.some((s) => s.regulatorFieldMatched)) {
    warnings.push(`No framework in the catalogue is issued or enforced by "${regulatorInput}"; the regulator was not used in ranking.`);
  }
  if (candidates.length === 0) {
    warnings.push(
      `No framework in the catalogue matched ${asked ? `"${asked}"` : 'the request'}. Describe the kind of data you handle (for example "patient records", "card payments", "personal data of EU customers"), your sector (for example "banking", "SaaS", "defence contractor") or a jurisdiction (for example "EU", "United States", "California").`,
    );
  } else if (!anyTopical) {
    warnings.push(
      textTokens.length > 0
        ? `No framework matched the terms of the request; the candidates are the frameworks of ${wanted.map(regionName).join(', ')}, listed by jurisdiction only. Describe your data, activities or sector to rank them by relevance.`
        : `Only a jurisdiction was given, so the candidates are the frameworks that apply in ${wanted.map(regionName).join(', ')}, not ranked by relevance. Add a query describing your data, activities or sector.`,
    );
  }
  if (candidates.length > 0 && direct.size === 0 && distinctTokens.length <= 1 && !regulatorInput && wanted.length === 0) {
    warnings.push(
      `The request${asked ? ` "${asked}"` : ''} is a single broad term, so the ranking is rough. Add the kind of data you handle (for example "patient records" or "card payments"), your sector or a jurisdiction.`,
    );
  }
  if (wanted.length === 0 && direct.size === 0 && candidates.length > 0) {
    warnings.push(
      'No jurisdiction was given or recognised, so frameworks from all jurisdictions are ranked together. Add one (for example "EU", "United States", "California", "UK") to put the laws that bind you first.',
    );
  }
  if (mode === 'sandbox') {
    warnings.push(
      `Sandbox mode: sample output from the built-in catalogue (${SANDBOX_WATERMARK}). Confirm applicability against each framework's official source before relying on it.`,
    );
  }
  return { candidates, warnings };
}

/** The word of the original text whose stem is `token`, for readable reasoning. */
function originalWord(token: string, text: string): string {
  if (token.includes(' ')) return token;
  for (const w of words(text)) if (stem(w) === token || w === token) return w;
  return token;
}
