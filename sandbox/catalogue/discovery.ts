/**
 * Framework discovery: ranks the catalogue against a plain-language request. Deterministic: the
 * same input always gives the same candidates, confidences, reasoning and warnings.
 *
 * Signals, strongest first: the request names a framework (slug, name or alias); the regulator
 * field names its issuer; query, domain and description terms match its topics, name or sector
 * (weighted by how rare the term is across the catalogue); the jurisdiction fits its regions.
 */
import { SANDBOX_WATERMARK } from '../generation/watermark.js';
import { buildProfiles, directMentions, expandTokens, GENERIC_REGULATOR_WORDS, idfOf, type Profile } from './discoveryIndex.js';
import { confidenceOf, reasoningOf, type Scored } from './discoveryReasoning.js';
import { recogniseJurisdictionField, recogniseJurisdictionInText, regionFit, regionName, type RegionFit } from './jurisdictions.js';
import { compactKey, containsPhrase, contentTokens, stem, words } from './text.js';

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

function clean(value: string | undefined): string | undefined {
  const v = value?.trim();
  return v ? v : undefined;
}

/** A discovery request as ranking reads it: the cleaned fields, the free text's terms and the regions it asks for. */
interface Request {
  query?: string;
  domain?: string;
  description?: string;
  jurisdictionInput?: string;
  regulatorInput?: string;
  freeText: string;
  textTokens: string[];
  distinctTokens: string[];
  expanded: Map<string, { weight: number; word: string }>;
  direct: Map<Profile, string>;
  /** Region codes asked for (the jurisdiction field and regions named in the text), and how they were written. */
  wanted: string[];
  wantedPhrases: string[];
  /** A region other than International was asked for: frameworks elsewhere are penalised. */
  restrictive: boolean;
  /** Region words of the text: jurisdiction, not topic. */
  regionWords: Set<string>;
  regulatorTokens: string[];
  regulatorKey: string;
  /** The jurisdiction field was given but not recognised. */
  unrecognisedJurisdiction: boolean;
}

function readRequest(input: SuggestInput): Request {
  const query = clean(input.query);
  const domain = clean(input.domain);
  const description = clean(input.description);
  const jurisdictionInput = clean(input.jurisdiction);
  const regulatorInput = clean(input.regulator);
  const freeText = [query, domain, description].filter(Boolean).join(' \n ');
  const textTokens = contentTokens(freeText);
  const distinctTokens = [...new Set(textTokens)];
  // Jurisdiction: the dedicated field, plus regions named in the free text.
  const fieldRegions = jurisdictionInput ? recogniseJurisdictionField(jurisdictionInput) : { codes: [], phrases: [] };
  const textRegions = recogniseJurisdictionInText(freeText);
  const wanted = [...new Set([...fieldRegions.codes, ...textRegions.codes])];
  return {
    query, domain, description, jurisdictionInput, regulatorInput, freeText, textTokens, distinctTokens,
    expanded: expandTokens(distinctTokens),
    direct: directMentions(freeText),
    wanted,
    wantedPhrases: [...new Set([...(fieldRegions.codes.length > 0 ? [jurisdictionInput!] : []), ...textRegions.codes.map(regionName)])],
    restrictive: wanted.some((c) => c !== 'INTL'),
    regionWords: new Set(textRegions.phrases.flatMap((p) => words(p)).map(stem)),
    regulatorTokens: regulatorInput ? words(regulatorInput).filter((w) => !GENERIC_REGULATOR_WORDS.has(w)).map(stem) : [],
    regulatorKey: regulatorInput ? compactKey(regulatorInput) : '',
    unrecognisedJurisdiction: jurisdictionInput !== undefined && fieldRegions.codes.length === 0,
  };
}

/** How well one framework answers the request: a direct mention, topic terms, the regulator, the jurisdiction. */
function scoreProfile(profile: Profile, request: Request): Scored {
  const s: Scored = { profile, score: 0, topicTerms: [], topicScore: 0, regulatorMatched: false, regulatorFieldMatched: false, fit: 'none', jurisdictionMismatch: false };
  const directName = request.direct.get(profile);
  if (directName) {
    s.direct = directName;
    s.score += 10;
  }
  // Topic, name and sector terms.
  const seenWords = new Set<string>();
  for (const [token, { weight, word }] of request.expanded) {
    if (request.regionWords.has(token)) continue;
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
    if (containsPhrase(request.textTokens, phrase.words)) {
      s.topicScore += 1.5 * (phrase.words.length - 1);
      if (!s.topicTerms.includes(phrase.display)) s.topicTerms.unshift(phrase.display);
    }
  }
  // Show the original words rather than stems where possible.
  s.topicTerms = [...new Set(s.topicTerms.map((t) => originalWord(t, request.freeText)))];
  s.score += s.topicScore;
  // Regulator field.
  if (request.regulatorInput) {
    const tokenHit = request.regulatorTokens.filter((t) => profile.regulatorTokens.has(t));
    const keyHit = request.regulatorKey.length >= 3 && profile.regulatorKey.includes(request.regulatorKey);
    if (tokenHit.length > 0 || keyHit) {
      s.regulatorMatched = true;
      s.regulatorFieldMatched = true;
      s.score += 4 + tokenHit.reduce((sum, t) => sum + 2 * idfOf(t), 0);
    }
  }
  // Jurisdiction.
  if (request.wanted.length > 0) {
    s.fit = regionFit(profile.entry.regions, request.wanted);
    const bonus: Record<RegionFit, number> = { exact: 4, parent: 2.5, child: 1.5, international: 0.8, none: 0 };
    s.score += bonus[s.fit];
    if (s.fit === 'none' && request.restrictive) s.jurisdictionMismatch = true;
  }
  return s;
}

/** Whether any framework matched the request by name, topic or regulator (else only the jurisdiction can rank). */
function anyTopical(scored: readonly Scored[]): boolean {
  return scored.some((s) => s.direct || s.topicScore > 0 || s.regulatorMatched);
}

/** The frameworks worth listing, best first, at most MAX_CANDIDATES. */
function ranked(scored: readonly Scored[], request: Request): Scored[] {
  const topical = anyTopical(scored);
  const eligible = scored.filter((s) => {
    if (s.direct || s.topicScore > 0 || s.regulatorMatched) return true;
    // Nothing topical matched anywhere: fall back to the frameworks of the requested jurisdiction.
    return !topical && request.restrictive && (s.fit === 'exact' || s.fit === 'parent' || s.fit === 'child');
  });
  for (const s of eligible) if (s.jurisdictionMismatch) s.score *= s.direct ? 0.8 : 0.35;
  // Drop stragglers that matched only a generic word next to much stronger candidates.
  const topScore = Math.max(0, ...eligible.map((s) => s.score));
  const kept = eligible.filter((s) => s.direct || s.score >= RELATIVE_CUTOFF * topScore);
  kept.sort(
    (a, b) =>
      b.score - a.score ||
      Number(b.profile.entry.verified) - Number(a.profile.entry.verified) ||
      a.profile.order - b.profile.order,
  );
  return kept.slice(0, MAX_CANDIDATES);
}

function toCandidates(top: readonly Scored[], request: Request): FrameworkCandidate[] {
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
      reasoning: reasoningOf(s, request.wanted, request.wantedPhrases, request.regulatorInput),
      verified: e.verified,
    };
  });
  // Confidence never increases down the ranking.
  for (let i = 1; i < candidates.length; i++) {
    const prev = candidates[i - 1]!;
    const cur = candidates[i]!;
    if (cur.confidence > prev.confidence) cur.confidence = prev.confidence;
  }
  return candidates;
}

/** Warnings about thin, unmatched or unrecognised input, and the sandbox's notice. */
function warningsFor(request: Request, scored: readonly Scored[], candidates: readonly FrameworkCandidate[], mode: 'sandbox' | 'live'): string[] {
  const { regulatorInput, wanted, direct } = request;
  const warnings: string[] = [];
  if (request.unrecognisedJurisdiction) {
    warnings.push(
      `Jurisdiction "${request.jurisdictionInput}" was not recognised, so it was not used in ranking. Recognised: EU/EEA and its member states, United Kingdom, United States, California, New York, Canada, Brazil, Australia, Singapore, Japan, International.`,
    );
  }
  const asked = [request.query, request.domain, request.description].filter(Boolean).join(' / ');
  if (regulatorInput && !scored.some((s) => s.regulatorFieldMatched)) {
    warnings.push(`No framework in the catalogue is issued or enforced by "${regulatorInput}"; the regulator was not used in ranking.`);
  }
  if (candidates.length === 0) {
    warnings.push(
      `No framework in the catalogue matched ${asked ? `"${asked}"` : 'the request'}. Describe the kind of data you handle (for example "patient records", "card payments", "personal data of EU customers"), your sector (for example "banking", "SaaS", "defence contractor") or a jurisdiction (for example "EU", "United States", "California").`,
    );
  } else if (!anyTopical(scored)) {
    warnings.push(
      request.textTokens.length > 0
        ? `No framework matched the terms of the request; the candidates are the frameworks of ${wanted.map(regionName).join(', ')}, listed by jurisdiction only. Describe your data, activities or sector to rank them by relevance.`
        : `Only a jurisdiction was given, so the candidates are the frameworks that apply in ${wanted.map(regionName).join(', ')}, not ranked by relevance. Add a query describing your data, activities or sector.`,
    );
  }
  if (candidates.length > 0 && direct.size === 0 && request.distinctTokens.length <= 1 && !regulatorInput && wanted.length === 0) {
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
  return warnings;
}

/** Ranks the catalogue for a discovery request: at most 10 candidates, best first, with warnings. */
export function suggestFrameworks(input: SuggestInput, mode: 'sandbox' | 'live'): SuggestResult {
  const request = readRequest(input);
  const scored = buildProfiles().map((profile) => scoreProfile(profile, request));
  const candidates = toCandidates(ranked(scored, request), request);
  return { candidates, warnings: warningsFor(request, scored, candidates, mode) };
}

/** The word of the original text whose stem is `token`, for readable reasoning. */
function originalWord(token: string, text: string): string {
  if (token.includes(' ')) return token;
  for (const w of words(text)) if (stem(w) === token || w === token) return w;
  return token;
}
