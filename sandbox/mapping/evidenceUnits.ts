/**
 * The text as the units evidence is quoted from: every sentence of running text, list items and
 * table rows (of a row's statement cell), with its 1-based line, section heading and source file, and the concept terms of
 * the sentence and of its section heading (a heading such as "Termination" tells what the sentences
 * under it are about).
 */
import { lineOfOffset, parseBlocks } from '../library/blocks.js';
import { splitSentences, truncateAtWord } from '../library/text.js';
import { conceptTerms } from './concepts.js';
import type { EvidenceLocation } from './types.js';

/** Longest quote, in characters. */
const QUOTE_MAX_CHARS = 300;

/**
 * Heading words that name the kind of document or its container, not the topic of the sentences
 * under it ("Access Control Policy", "Sheet: Policy statements", "Slide 4").
 */
const CONTAINER_TERMS: ReadonlySet<string> = new Set(conceptTerms('policy statement statements sheet slide section part chapter appendix annex'));

/**
 * A sentence saying a requirement does not apply ("we do not operate a clearinghouse", "group health
 * plans are out of scope") names the control's words but is the opposite of evidence.
 */
const NOT_APPLICABLE = /\b(?:not applicable|n\/a|out of scope|outside (?:the |our )?scope|(?:does|do|did) not (?:operate|apply|have|run|offer|sponsor|act as)|(?:is|are) not (?:a|an|in scope|applicable|covered))\b/i;

/**
 * A sentence stating what the document covers ("This policy applies to all staff", "Applies to: …",
 * "The purpose of this standard is …") names systems and people but requires nothing of them.
 */
const SCOPE_STATEMENT = /^\W*(?:\d+(?:\.\d+)*\W+)?(?:(?:this|these|the)\s+(?:[a-z-]+\s+){0,3}?(?:policy|policies|standard|guide|document|procedure|handbook|manual|rules|charter|plan)\s+(?:[a-z-]+\s+){0,2}?(?:appl(?:y|ies)|covers?|governs?|binds?|is for|are for)\b|applies to\b|(?:scope|applicability|applies to)\s*:|the purpose of this\b)/i;

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
    let heading: string[] = [];
    if (block.section !== undefined) {
      heading = headingCache.get(block.section) ?? conceptTerms(block.section).filter((t) => !CONTAINER_TERMS.has(t));
      headingCache.set(block.section, heading);
    }
    // In a table row the longest cell is the statement; the other cells (a section, an id, an owner)
    // label it the way a heading does.
    let body = flat;
    let offset = 0;
    if (block.kind === 'table-row') {
      const cells = flat.split('|').map((cell) => cell.trim()).filter(Boolean);
      const statement = cells.reduce((a, b) => (b.length > a.length ? b : a), '');
      offset = Math.max(flat.indexOf(statement), 0);
      body = statement;
      heading = [...heading, ...cells.filter((cell) => cell !== statement).flatMap((cell) => conceptTerms(cell))];
    }
    // List items and rows are split too: a sheet row holding a whole paragraph is several statements,
    // and scoring them as one would let its sentences add up to controls none of them speaks to.
    for (const sentence of splitSentences(body)) {
      if (NOT_APPLICABLE.test(sentence.text) || SCOPE_STATEMENT.test(sentence.text)) continue;
      const terms = new Set(conceptTerms(sentence.text));
      if (!terms.size) continue;
      units.push({
        order: units.length,
        text: truncateAtWord(sentence.text, QUOTE_MAX_CHARS),
        terms,
        headingTerms: new Set(heading.filter((t) => !terms.has(t))),
        location: {
          ...(block.source !== undefined ? { source: block.source } : {}),
          line: lineOfOffset(block, offset + sentence.start) - (block.sourceLine ?? 0),
          ...(block.section !== undefined ? { section: block.section } : {}),
        },
      });
    }
  }
  return units;
}
