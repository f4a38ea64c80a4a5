/**
 * One pass over a document's content that the classifier, the tagger and the summariser share:
 * its content stems with their positions, and a term profile for similarity between documents.
 */
import { contentStems } from './text.js';
import type { VocabularyEntry } from './vocabulary.js';

/** Terms kept in a document profile. */
const PROFILE_TERMS = 80;

/** Stem → weight (1 + ln tf) of a document's most frequent content stems. */
export type TermProfile = Record<string, number>;

export interface ContentAnalysis {
  stems: string[];
  /** Positions of each stem in `stems`. */
  positions: Map<string, number[]>;
  profile: TermProfile;
}

export function analyseContent(text: string): ContentAnalysis {
  const stems = contentStems(text);
  const positions = new Map<string, number[]>();
  stems.forEach((s, index) => {
    const list = positions.get(s);
    if (list) list.push(index);
    else positions.set(s, [index]);
  });
  const ranked = [...positions.entries()]
    .filter(([s]) => s.length > 1 && !/^\d+$/.test(s))
    .sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1))
    .slice(0, PROFILE_TERMS);
  const profile: TermProfile = {};
  for (const [s, list] of ranked) profile[s] = 1 + Math.log(list.length);
  return { stems, positions, profile };
}

/** Stems of a vocabulary phrase, compiled once. */
function phraseStems(phrase: string): string[] {
  return contentStems(phrase);
}

/** How often the stem sequence occurs contiguously in the analysed content. */
function countPhrase(analysis: ContentAnalysis, stems: readonly string[]): number {
  const first = stems[0];
  if (first === undefined) return 0;
  const starts = analysis.positions.get(first) ?? [];
  if (stems.length === 1) return starts.length;
  let count = 0;
  for (const start of starts) {
    if (stems.every((s, offset) => analysis.stems[start + offset] === s)) count++;
  }
  return count;
}

/** Occurrences of each vocabulary entry's phrases in the content, in vocabulary order. */
export function vocabularyCounts(analysis: ContentAnalysis, entries: readonly CompiledEntry[]): number[] {
  return entries.map((entry) => entry.phrases.reduce((sum, stems) => sum + countPhrase(analysis, stems), 0));
}

interface CompiledEntry {
  name: string;
  phrases: string[][];
}

export function compileVocabulary(entries: readonly VocabularyEntry[]): CompiledEntry[] {
  return entries.map((entry) => ({ name: entry.name, phrases: entry.phrases.map(phraseStems).filter((p) => p.length > 0) }));
}
