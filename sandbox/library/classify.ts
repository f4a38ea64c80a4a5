/**
 * Classification into the caller's own category structure, derived topic tags and an extractive
 * summary. Deterministic: the same content and the same library give the same result.
 */
import {
  analyseContent, compileVocabulary, vocabularyCounts, type ContentAnalysis, type TermProfile,
} from './analysis.js';
import { parseBlocks } from './blocks.js';
import { contentStems, splitSentences, truncateAtWord } from './text.js';
import { BUILTIN_CATEGORIES, FALLBACK_CATEGORY, TOPIC_TAGS } from './vocabulary.js';

/** Similarity to an existing category's documents at which the document joins that category. */
const EXISTING_CATEGORY_MIN_SIMILARITY = 0.4;
/** Built-in category phrase occurrences per 1,000 content words needed to use a built-in category. */
const BUILTIN_MIN_DENSITY = 4;
/** Occurrences a topic needs to become a derived tag, and how many derived tags at most. */
const TAG_MIN_OCCURRENCES = 2;
const MAX_DERIVED_TAGS = 4;
const SUMMARY_MAX_CHARS = 320;

const builtinCategories = compileVocabulary(BUILTIN_CATEGORIES);
const topicTags = compileVocabulary(TOPIC_TAGS);

/**
 * The key's documents a new one is compared with. Their profiles' terms are numbered (0 to
 * termNumbers.size - 1) so the classifier adds them up in arrays: it runs on every ingest against up
 * to 150 neighbours, and string-keyed maps made it the largest cost of a library's ingest.
 */
export interface Neighbourhood {
  termNumbers: ReadonlyMap<string, number>;
  neighbours: readonly ClassifiedNeighbour[];
}

/** A ready document of the same key, as the classifier sees it. */
export interface ClassifiedNeighbour {
  category: string;
  /** Its profile's term numbers, and their weights divided by the profile's length (a unit vector). */
  terms: Int32Array;
  weights: Float64Array;
}

interface CategoryDecision {
  category: string;
  method: 'given' | 'existing' | 'builtin' | 'fallback';
  confidence: number;
}

interface DocumentClassification extends CategoryDecision {
  tags: string[];
  summary: string;
  profile: TermProfile;
}

interface ClassifyInput {
  title: string;
  content: string;
  givenCategory: string | null;
  givenTags: readonly string[];
  /** The key's other ready documents with a category. */
  neighbourhood: Neighbourhood;
}

export function classifyDocument(input: ClassifyInput): DocumentClassification {
  const analysis = analyseContent(`${input.title}\n${input.content}`);
  const decision = input.givenCategory
    ? { category: input.givenCategory, method: 'given' as const, confidence: 1 }
    : chooseCategory(analysis, input.neighbourhood);
  return {
    ...decision,
    tags: deriveTags(analysis, input.givenTags),
    summary: summarise(input.content, analysis),
    profile: analysis.profile,
  };
}

/**
 * The best-matching category the caller already uses (cosine similarity to the centroid of that
 * category's documents, terms weighted by their rarity in the caller's library); else the built-in
 * category whose vocabulary the document uses most densely (in the caller's spelling when the caller
 * has it); else the fallback.
 */
function chooseCategory(analysis: ContentAnalysis, { termNumbers, neighbours }: Neighbourhood): CategoryDecision {
  // The arrays span every term the cache has numbered (all keys'); the sums visit only the terms this
  // key's neighbours hold, listed as they are first met, so an ingest costs what its neighbours hold.
  const size = termNumbers.size;
  const documentFrequency = new Float64Array(size);
  const neighbourTerms: number[] = [];
  const centroids = new Map<string, { weights: Float64Array; terms: number[] }>();
  for (const n of neighbours) {
    let centroid = centroids.get(n.category);
    if (!centroid) centroids.set(n.category, (centroid = { weights: new Float64Array(size), terms: [] }));
    n.terms.forEach((term, i) => {
      if (documentFrequency[term] === 0) neighbourTerms.push(term);
      documentFrequency[term]! += 1;
      // Profile weights are positive (analysis.ts), so a zero weight is a term not met yet.
      if (centroid.weights[term] === 0) centroid.terms.push(term);
      centroid.weights[term]! += n.weights[i]!;
    });
  }
  const unseenIdf = Math.log(1 + (neighbours.length + 1));
  const idf = new Float64Array(size).fill(unseenIdf);
  for (const term of neighbourTerms) idf[term] = Math.log(1 + (neighbours.length + 1) / (documentFrequency[term]! + 1));
  const documentTerms = Object.entries(analysis.profile).map(([term, weight]) => {
    const number = termNumbers.get(term);
    return { number, weight, idfSquared: (number === undefined ? unseenIdf : idf[number]!) ** 2 };
  });
  let documentNorm = 0;
  for (const { weight, idfSquared } of documentTerms) documentNorm += weight ** 2 * idfSquared;
  let best: CategoryDecision | undefined;
  for (const [category, centroid] of [...centroids.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // Cosine similarity of the document and the centroid, both weighted by idf.
    let dot = 0;
    for (const { number, weight, idfSquared } of documentTerms) if (number !== undefined) dot += weight * centroid.weights[number]! * idfSquared;
    let centroidNorm = 0;
    // In term order, as a pass over the whole array would add them.
    for (const term of Int32Array.from(centroid.terms).sort()) centroidNorm += (centroid.weights[term]! * idf[term]!) ** 2;
    const similarity = documentNorm && centroidNorm ? dot / Math.sqrt(documentNorm * centroidNorm) : 0;
    if (!best || similarity > best.confidence) best = { category, method: 'existing', confidence: similarity };
  }
  if (best && best.confidence >= EXISTING_CATEGORY_MIN_SIMILARITY) return { ...best, confidence: round(best.confidence) };

  const counts = vocabularyCounts(analysis, builtinCategories);
  const total = counts.reduce((s, c) => s + c, 0);
  let bestIndex = 0;
  counts.forEach((count, index) => {
    if (count > (counts[bestIndex] ?? 0)) bestIndex = index;
  });
  const bestCount = counts[bestIndex] ?? 0;
  const density = (bestCount * 1000) / Math.max(analysis.stems.length, 1);
  if (bestCount === 0 || density < BUILTIN_MIN_DENSITY) return { category: FALLBACK_CATEGORY, method: 'fallback', confidence: 0 };
  const name = builtinCategories[bestIndex]?.name ?? FALLBACK_CATEGORY;
  const callerSpelling = [...centroids.keys()].find((c) => c.toLowerCase() === name.toLowerCase());
  return callerSpelling
    ? { category: callerSpelling, method: 'existing', confidence: round(bestCount / total) }
    : { category: name, method: 'builtin', confidence: round(bestCount / total) };
}

/** Given tags first (trimmed, case-insensitively unique), then up to MAX_DERIVED_TAGS topics the content discusses most. */
function deriveTags(analysis: ContentAnalysis, givenTags: readonly string[]): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  const add = (tag: string): void => {
    const key = tag.toLowerCase();
    if (tag && !seen.has(key)) {
      seen.add(key);
      tags.push(tag);
    }
  };
  for (const tag of givenTags) add(tag.trim());
  const counts = vocabularyCounts(analysis, topicTags);
  topicTags
    .map((entry, index) => ({ name: entry.name, count: counts[index] ?? 0, index }))
    .filter((t) => t.count >= TAG_MIN_OCCURRENCES)
    .sort((a, b) => b.count - a.count || a.index - b.index)
    .slice(0, MAX_DERIVED_TAGS)
    .forEach((t) => add(t.name));
  return tags;
}

/**
 * The one or two sentences that best represent the document: sentences of running text scored by
 * how much of the document's vocabulary they carry (length-normalised), with a small lead bonus;
 * returned in document order, at most SUMMARY_MAX_CHARS.
 */
function summarise(content: string, analysis: ContentAnalysis): string {
  const candidates: Array<{ text: string; order: number; score: number }> = [];
  let order = 0;
  for (const block of parseBlocks(content)) {
    if (block.kind !== 'paragraph' && block.kind !== 'list-item') continue;
    for (const sentence of splitSentences(block.text.replace(/\n/g, ' '))) {
      const text = sentence.text;
      order++;
      if (text.length < 40 || text.length > 400 || !/[.!?]$/.test(text)) continue;
      const stems = contentStems(text);
      const weight = stems.reduce((sum, s) => sum + (analysis.profile[s] ?? 0), 0) / Math.sqrt(Math.max(stems.length, 1));
      const lead = block.kind === 'paragraph' ? 1 + 0.5 / order : 0.8;
      candidates.push({ text, order, score: weight * lead });
      if (order > 400) break;
    }
    if (order > 400) break;
  }
  if (!candidates.length) return truncateAtWord(content.replace(/\s+/g, ' ').trim(), SUMMARY_MAX_CHARS);
  const ranked = [...candidates].sort((a, b) => b.score - a.score || a.order - b.order);
  const first = ranked[0]!;
  const second = ranked.slice(1).find((c) => first.text.length + 1 + c.text.length <= SUMMARY_MAX_CHARS);
  const chosen = second ? [first, second].sort((a, b) => a.order - b.order) : [first];
  return truncateAtWord(chosen.map((c) => c.text).join(' '), SUMMARY_MAX_CHARS);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
