/**
 * The text as the units evidence is quoted from: every sentence of running text, list items and
 * table rows (of a row's statement cell), with its 1-based line, section heading and source file, and the concept terms of
 * the sentence and of its section heading (a heading such as "Termination" tells what the sentences
 * under it are about).
 */
import { lineOfOffset, parseBlocks } from '../library/blocks.js';
import { splitSentences, truncateAtWord, words } from '../library/text.js';
import { conceptTerms, readTerms } from './concepts.js';
import { MentionIndex } from './mentions.js';
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
 * plans are out of scope") or is not done ("backups are not encrypted", "Acme has no on-premise
 * server") names the control's words but is the opposite of evidence. A prohibition or restriction
 * ("users must not share passwords", "we do not allow shared accounts", "developers do not have
 * access to production", "staff do not store ePHI on USB drives") is a control, so only a protective
 * measure stated as not taken counts here. OUT_OF_SCOPE and NEGATED tell the two apart, so a gap
 * can say which it was.
 */
const OUT_OF_SCOPE = /\b(?:not applicable|n\/a|out of scope|outside (?:the |our )?scope|not in scope|excluded from (?:the )?scope)\b/i;
const NEGATED = new RegExp(
  // "we do not encrypt", not the imperative "Do not log ePHI"; "does not have access" restricts access.
  String.raw`\b(?:(?<=\w\s)(?:does|do|did) not (?:currently |yet )?(?:have(?! (?:\w+ )?(?:access|permissions?|rights|privileges)\b)|operate|apply|run|offer|sponsor|act as|encrypt|perform|conduct|maintain|test|monitor|log|back up|retain|review)` +
    String.raw`|(?:is|are|was|were) not (?:currently |yet |being )?(?:a|an|in scope|applicable|covered|encrypted|performed|conducted|maintained|tested|monitored|logged|reviewed|backed up|implemented|required|in place|enforced|enabled)` +
    String.raw`|(?:has|have) no(?! (?:\w+ )?(?:access|permissions?|rights|privileges)\b))\b`,
  'i',
);

/**
 * A sentence handing a control to someone else ("Physical security of data centers is ensured by the
 * cloud infrastructure service provider", "inherited from AWS") is evidence that the control is
 * delegated, not that the organisation operates it: mapText.ts reports such a control partial at
 * most, quoting the delegation.
 */
const DELEGATION = new RegExp(
  String.raw`\b(?:(?:(?:ensured|provided|handled|managed|performed|maintained|operated|covered|secured|protected|hosted|implemented|taken care of)\s+by|the responsibility of|delegated to|outsourced to|inherited from|reli(?:es|ed) on|rely on)\s+(?:the\s+|our\s+|a\s+|an\s+|its\s+)?(?:[\w&.'-]+\s+){0,4}?(?:provider|providers|vendor|vendors|hosting|aws|amazon|azure|google|gcp|cloud|processor|sub-?processors?|third[- ]part(?:y|ies)|suppliers?|data cent(?:er|re)s?)|shared responsibility model)\b`,
  'i',
);

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
  /** Its terms that only an ambiguous word standing alone produced ("conduct", "critical"): weight, not ideas. */
  ambiguous: ReadonlySet<string>;
  /** The sentence delegates what it names to a provider: evidence of a partial control at most. */
  delegated: boolean;
  /** Concept terms of its section heading that the sentence does not use itself. */
  headingTerms: ReadonlySet<string>;
  location: EvidenceLocation;
}

/**
 * Why a piece of text that names a control's terms is not evidence of it (mentions.ts words it in a
 * gap): a heading or a table row's label cell, a statement of what a document covers, a sentence
 * saying something does not apply or is not done, a delegation to a provider; `statement` is any
 * other sentence (it names the term without meeting the control).
 */
export type MentionKind = 'statement' | 'delegated' | 'negated' | 'out-of-scope' | 'scope' | 'heading';

/** A piece of the text as written (every sentence, heading and label cell, evidence or not), with where it stands. */
export interface TextMention {
  text: string;
  kind: MentionKind;
  location: EvidenceLocation;
  /** Its concept terms, when it is an evidence unit (read for the mapping already). */
  terms?: ReadonlySet<string>;
}

/** The text's evidence units, and every mention of anything in it (what a gap's explanation is checked against). */
export function readText(text: string): { units: EvidenceUnit[]; mentions: MentionIndex } {
  const units: EvidenceUnit[] = [];
  const mentions = new MentionIndex();
  const mention = (entry: TextMention, tokens: readonly string[] = words(entry.text)) => mentions.add(entry, tokens);
  const headingCache = new Map<string, string[]>();
  for (const block of parseBlocks(text)) {
    const at = (offset: number): EvidenceLocation => ({
      ...(block.source !== undefined ? { source: block.source } : {}),
      line: lineOfOffset(block, offset) - (block.sourceLine ?? 0),
      ...(block.section !== undefined ? { section: block.section } : {}),
    });
    if (block.kind === 'heading') {
      mention({ text: block.text, kind: 'heading', location: at(0) });
      continue;
    }
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
      const labels = cells.filter((cell) => cell !== statement);
      heading = [...heading, ...labels.flatMap((cell) => conceptTerms(cell))];
      if (labels.length) mention({ text: labels.join(' | '), kind: 'heading', location: at(0) });
    }
    // List items and rows are split too: a sheet row holding a whole paragraph is several statements,
    // and scoring them as one would let its sentences add up to controls none of them speaks to.
    for (const sentence of splitSentences(body)) {
      const location = at(offset + sentence.start);
      const tokens = words(sentence.text);
      const skipped: MentionKind | undefined = OUT_OF_SCOPE.test(sentence.text) ? 'out-of-scope' : NEGATED.test(sentence.text) ? 'negated' : SCOPE_STATEMENT.test(sentence.text) ? 'scope' : undefined;
      if (skipped) {
        mention({ text: sentence.text, kind: skipped, location }, tokens);
        continue;
      }
      const read = readTerms(sentence.text, tokens);
      const terms = new Set(read.terms);
      if (!terms.size) continue;
      const delegated = DELEGATION.test(sentence.text);
      mention({ text: sentence.text, kind: delegated ? 'delegated' : 'statement', location, terms }, tokens);
      units.push({
        order: units.length,
        text: truncateAtWord(sentence.text, QUOTE_MAX_CHARS),
        terms,
        ambiguous: read.ambiguous,
        delegated,
        headingTerms: new Set(heading.filter((t) => !terms.has(t))),
        location,
      });
    }
  }
  return { units, mentions };
}
