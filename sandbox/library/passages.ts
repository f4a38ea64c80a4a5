/**
 * Passages: the unit the search index holds. A passage is one or two paragraphs (or a run of list
 * items) of one section, at most PASSAGE_MAX_CHARS, carrying its section heading, so bm25 ranks
 * the place in a document that answers the query rather than the document as a whole.
 */
import { parseBlocks, type TextBlock } from './blocks.js';
import { splitSentences } from './text.js';

const PASSAGE_MAX_CHARS = 1200;
/** A passage shorter than this takes in the next paragraph even when it already has two. */
const PASSAGE_MIN_CHARS = 400;

export interface Passage {
  /** Nearest heading ('' before the first). */
  heading: string;
  body: string;
}

/** Splits a document's content into passages, in order. */
export function splitPassages(content: string): Passage[] {
  const passages: Passage[] = [];
  let heading = '';
  let body = '';
  let paragraphs = 0;

  const flush = (): void => {
    if (body.trim()) passages.push({ heading, body });
    body = '';
    paragraphs = 0;
  };

  for (const block of parseBlocks(content)) {
    if (block.kind === 'heading') {
      flush();
      heading = block.text;
      continue;
    }
    for (const piece of pieces(block)) {
      const separator = block.kind === 'paragraph' ? '\n\n' : '\n';
      const fits = body.length + separator.length + piece.length <= PASSAGE_MAX_CHARS;
      const wantsMore = paragraphs < 2 || body.length < PASSAGE_MIN_CHARS;
      if (body && !(fits && (wantsMore || block.kind !== 'paragraph'))) flush();
      body = body ? body + separator + piece : piece;
      if (block.kind === 'paragraph') paragraphs++;
    }
  }
  flush();
  return passages;
}

/** A block as pieces of at most PASSAGE_MAX_CHARS: whole when it fits, else sentence runs, else hard cuts. */
function pieces(block: TextBlock): string[] {
  const text = block.text.replace(/\n/g, ' ');
  if (text.length <= PASSAGE_MAX_CHARS) return [text];
  const result: string[] = [];
  let current = '';
  for (const sentence of splitSentences(text)) {
    for (const part of hardCut(sentence.text)) {
      if (current && current.length + 1 + part.length > PASSAGE_MAX_CHARS) {
        result.push(current);
        current = '';
      }
      current = current ? `${current} ${part}` : part;
    }
  }
  if (current) result.push(current);
  return result;
}

/** Cuts an over-long sentence at whitespace (or anywhere when it has none) into fitting parts. */
function hardCut(sentence: string): string[] {
  const parts: string[] = [];
  let rest = sentence;
  while (rest.length > PASSAGE_MAX_CHARS) {
    const space = rest.lastIndexOf(' ', PASSAGE_MAX_CHARS);
    const cut = space > PASSAGE_MAX_CHARS / 2 ? space : PASSAGE_MAX_CHARS;
    parts.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest) parts.push(rest);
  return parts;
}
