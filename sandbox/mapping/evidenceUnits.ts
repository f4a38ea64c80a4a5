/**
 * The text as the units evidence is quoted from: every sentence of running text, every list item and
 * every table row, with its 1-based line, section heading and source file.
 */
import { lineOfOffset, parseBlocks } from '../library/blocks.js';
import { contentStems, splitSentences, truncateAtWord } from '../library/text.js';
import type { EvidenceLocation } from './types.js';

/** Longest quote, in characters. */
export const QUOTE_MAX_CHARS = 300;

export interface EvidenceUnit {
  /** Position in the text, for ordering and tie-breaking. */
  order: number;
  text: string;
  /** Positions of each content stem in the sentence (stop words removed). */
  stems: ReadonlyMap<string, readonly number[]>;
  location: EvidenceLocation;
}

export function evidenceUnits(text: string): EvidenceUnit[] {
  const units: EvidenceUnit[] = [];
  for (const block of parseBlocks(text)) {
    if (block.kind === 'heading') continue;
    const flat = block.text.replace(/\n/g, ' ');
    const sentences = block.kind === 'paragraph' ? splitSentences(flat) : [{ text: flat.trim(), start: 0 }];
    for (const sentence of sentences) {
      const stems = positionsOf(contentStems(sentence.text));
      if (!stems.size) continue;
      units.push({
        order: units.length,
        text: truncateAtWord(sentence.text, QUOTE_MAX_CHARS),
        stems,
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

function positionsOf(stems: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  stems.forEach((s, index) => {
    const list = positions.get(s);
    if (list) list.push(index);
    else positions.set(s, [index]);
  });
  return positions;
}
