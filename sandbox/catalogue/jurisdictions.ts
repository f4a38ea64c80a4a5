/**
 * Jurisdiction recognition for discovery: free text ("EU", "European Union", "Germany", "US",
 * "California", "NY") to the region codes catalogue entries carry.
 */
import { foldAccents } from './text.js';

interface Region {
  code: string;
  name: string;
  /** The region that contains this one (US-CA is inside US; EU member states map straight to EU). */
  parent?: string;
}

export const REGIONS: Record<string, Region> = {
  EU: { code: 'EU', name: 'European Union' },
  UK: { code: 'UK', name: 'United Kingdom' },
  US: { code: 'US', name: 'United States' },
  'US-CA': { code: 'US-CA', name: 'California', parent: 'US' },
  'US-NY': { code: 'US-NY', name: 'New York', parent: 'US' },
  CA: { code: 'CA', name: 'Canada' },
  BR: { code: 'BR', name: 'Brazil' },
  AU: { code: 'AU', name: 'Australia' },
  SG: { code: 'SG', name: 'Singapore' },
  JP: { code: 'JP', name: 'Japan' },
  INTL: { code: 'INTL', name: 'International' },
};

const EU_MEMBER_STATES = [
  'austria', 'belgium', 'bulgaria', 'croatia', 'cyprus', 'czechia', 'czech republic', 'denmark', 'estonia', 'finland',
  'france', 'germany', 'greece', 'hungary', 'ireland', 'italy', 'latvia', 'lithuania', 'luxembourg', 'malta',
  'netherlands', 'poland', 'portugal', 'romania', 'slovakia', 'slovenia', 'spain', 'sweden',
  // EEA states outside the EU apply the GDPR and most EU digital law.
  'norway', 'iceland', 'liechtenstein',
];

/** Phrases (lower case, single spaces) that name a region. Longest phrases are tried first. */
const REGION_PHRASES: Array<[phrase: string, code: string]> = [
  ['european union', 'EU'], ['europe', 'EU'], ['european', 'EU'], ['eu', 'EU'], ['eea', 'EU'],
  ['european economic area', 'EU'],
  ...EU_MEMBER_STATES.map((s): [string, string] => [s, 'EU']),
  ['united kingdom', 'UK'], ['uk', 'UK'], ['great britain', 'UK'], ['britain', 'UK'], ['british', 'UK'],
  ['england', 'UK'], ['scotland', 'UK'], ['wales', 'UK'], ['northern ireland', 'UK'],
  ['united states of america', 'US'], ['united states', 'US'], ['usa', 'US'], ['u s a', 'US'], ['u s', 'US'],
  ['america', 'US'], ['american', 'US'], ['federal', 'US'],
  ['california', 'US-CA'], ['californian', 'US-CA'],
  ['new york', 'US-NY'], ['new york state', 'US-NY'], ['nyc', 'US-NY'],
  ['canada', 'CA'], ['canadian', 'CA'],
  ['brazil', 'BR'], ['brasil', 'BR'], ['brazilian', 'BR'],
  ['australia', 'AU'], ['australian', 'AU'],
  ['singapore', 'SG'], ['singaporean', 'SG'],
  ['japan', 'JP'], ['japanese', 'JP'],
  ['international', 'INTL'], ['global', 'INTL'], ['worldwide', 'INTL'], ['multinational', 'INTL'],
];

/** Two-letter forms that are only read as regions in a dedicated jurisdiction field. */
const FIELD_ONLY_CODES: Record<string, string> = { us: 'US', ca: 'US-CA', ny: 'US-NY', au: 'AU', br: 'BR', sg: 'SG', jp: 'JP', gb: 'UK' };

function phraseWords(text: string): string[] {
  return foldAccents(text).toLowerCase().replace(/\./g, ' ').split(/[^a-z0-9]+/).filter(Boolean);
}

function scan(tokens: string[], found: Set<string>, matched: string[]): void {
  const sorted = [...REGION_PHRASES].sort((a, b) => b[0].split(' ').length - a[0].split(' ').length);
  const used = new Array<boolean>(tokens.length).fill(false);
  for (const [phrase, code] of sorted) {
    const p = phrase.split(' ');
    for (let i = 0; i + p.length <= tokens.length; i++) {
      if (used.slice(i, i + p.length).some(Boolean)) continue;
      if (p.every((w, j) => tokens[i + j] === w)) {
        for (let j = 0; j < p.length; j++) used[i + j] = true;
        if (!found.has(code)) {
          found.add(code);
          matched.push(tokens.slice(i, i + p.length).join(' '));
        }
      }
    }
  }
}

interface RecognisedJurisdiction {
  /** Region codes found, in order of first appearance by phrase length. */
  codes: string[];
  /** The phrases that named them, for reasoning sentences. */
  phrases: string[];
}

/** Regions named in a jurisdiction field (where "US", "CA", "NY" are read as codes). */
export function recogniseJurisdictionField(text: string): RecognisedJurisdiction {
  const found = new Set<string>();
  const phrases: string[] = [];
  const tokens = phraseWords(text);
  scan(tokens, found, phrases);
  if (found.size === 0) {
    for (const t of tokens) {
      const code = FIELD_ONLY_CODES[t];
      if (code && !found.has(code)) {
        found.add(code);
        phrases.push(t.toUpperCase());
      }
    }
  }
  return { codes: [...found], phrases };
}

/**
 * Regions named inside free text (query, description). "US" counts only when written in capitals
 * ("health data in the US"), never the pronoun ("help us comply").
 */
export function recogniseJurisdictionInText(text: string): RecognisedJurisdiction {
  const found = new Set<string>();
  const phrases: string[] = [];
  const tokens = phraseWords(text).filter((t) => t !== 'us' && t !== 'u');
  scan(tokens, found, phrases);
  if (/\b(US|USA|U\.S\.(A\.)?)(?![A-Za-z])/.test(text) && !found.has('US')) {
    found.add('US');
    phrases.push('US');
  }
  return { codes: [...found], phrases };
}

export function regionName(code: string): string {
  return REGIONS[code]?.name ?? code;
}

/**
 * How well a framework's regions fit the regions the caller asked for:
 * `exact` (same region), `parent` (a federal/national framework for a state asked for),
 * `child` (a state framework when the country was asked for), `international`, or `none`.
 */
export type RegionFit = 'exact' | 'parent' | 'child' | 'international' | 'none';

export function regionFit(frameworkRegions: readonly string[], wanted: readonly string[]): RegionFit {
  let best: RegionFit = 'none';
  const rank: Record<RegionFit, number> = { exact: 4, parent: 3, child: 2, international: 1, none: 0 };
  const consider = (fit: RegionFit): void => {
    if (rank[fit] > rank[best]) best = fit;
  };
  for (const w of wanted) {
    for (const f of frameworkRegions) {
      if (f === w) consider('exact');
      else if (REGIONS[w]?.parent === f) consider('parent');
      else if (REGIONS[f]?.parent === w) consider('child');
      else if (f === 'INTL') consider('international');
    }
  }
  return best;
}
