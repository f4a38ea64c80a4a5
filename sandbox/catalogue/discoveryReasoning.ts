/** How a ranked framework is presented: its confidence and the sentence saying why it was suggested. */
import { REGIONS, regionName, type RegionFit } from './jurisdictions.js';
import type { Profile } from './discoveryIndex.js';

export interface Scored {
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

function quoteList(items: string[]): string {
  const quoted = items.map((i) => `"${i}"`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} and ${quoted[quoted.length - 1]}`;
}

export function confidenceOf(s: Scored): number {
  let c: number;
  if (s.direct) {
    c = 0.88 + 0.1 * Math.min(1, (s.topicScore + (s.regulatorFieldMatched ? 4 : 0)) / 8);
    if (s.jurisdictionMismatch) c -= 0.25;
  } else {
    c = 0.08 + 0.77 * (1 - Math.exp(-s.score / 7));
  }
  return Math.round(Math.min(0.98, Math.max(0.05, c)) * 100) / 100;
}

export function reasoningOf(s: Scored, wanted: string[], wantedPhrases: string[], regulatorInput?: string): string {
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
