/**
 * The text as the units evidence is quoted from: every sentence of running text, every list item and
 * every table row, with its 1-based line, section heading and source file, and the concept terms of
 * the sentence and of its section heading (a heading such as "Termination" tells what the sentences
 * under it are about).
 */
import { lineOfOffset, parseBlocks } from '../library/blocks.js';
import { splitSentences, truncateAtWord } from '../library/text.js';
import { conceptTerms } from './concepts.js';
import type { EvidenceLocation } from './types.js';

/** Longest quote, in characters. */
export const QUOTE_MAX_CHARS = 300;

export interface EvidenceUnit {
  /** Position in the text, for ordering and tie-breaking. */
  order: number;
  text: string;
  /** Concept terms of the sentence. */
  terms: ReadonlySet<string>;
  /** Concept terms of its section heading that the sentence does not use itself. */
  headingTerms: ReadonlySet<string>;
  location: EvidenceLocation;
}

export function evidenceUnits(text: string): EvidenceUnit[] {
  const units: EvidenceUnit[] = [];
  const headingCache = new Map<string, string[]>();
  for (const block of parseBlocks(text)) {
    if (block.kind === 'heading') continue;
    const flat = block.text.replace(/\n/g, ' ');
    const sentences = block.kind === 'paragraph' ? splitSentences(flat) : [{ text: flat.trim(), start: 0 }];
    let heading: string[] = [];
    if (block.section !== undefined) {
      heading = headingCache.get(block.section) ?? conceptTerms(block.section);
      headingCache.set(block.section, heading);
    }
    for (const sentence of sentences) {
      const terms = new Set(conceptTerms(sentence.text));
      if (!terms.size) continue;
      units.push({
        order: units.length,
        text: truncateAtWord(sentence.text, QUOTE_MAX_CHARS),
        terms,
        headingTerms: new Set(heading.filter((t) => !terms.has(t))),
        location: {
          ...(block.source !== undefined ? { source: block.source } : {}),
          line: lineOfOffset(block, sentence.start) - (block.sourceLine ?? 0),
          ...(block.section !== undefined ? { section: block.section } : {}),
        },
      });
    }
  }
  return units;
}
