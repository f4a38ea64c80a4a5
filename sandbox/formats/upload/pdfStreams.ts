/**
 * The inflated-bytes budget for PDFs, counted before pdf.js sees the file: every Flate-compressed
 * stream that is not an image (pdf.js does not decode images to extract text) is inflated by
 * node:zlib, which stops as soon as what it has produced passes what is left of the budget; the
 * output is dropped at once. What this cannot see (encrypted streams, other filters, a stream pdf.js
 * decodes many times) is bounded by the extraction pool's memory and time limits.
 */
import { constants, inflateSync } from 'node:zlib';
import type { UploadBudget } from './uploadBudget.js';

const STREAM = /stream(?:\r\n|\n|\r)/g;
const FLATE = /^\s*(?:\[\s*)?\/(?:FlateDecode|Fl)\b/;

/** The dictionary that ends just before `end` (at its `>>`), or undefined. */
function dictionaryBefore(text: string, end: number): string | undefined {
  let at = end - 1;
  while (at > 0 && /\s/.test(text[at]!)) at--;
  if (text[at] !== '>' || text[at - 1] !== '>') return undefined;
  let depth = 0;
  for (let index = at; index > 0 && at - index < 65_536; index--) {
    if (text[index] === '>' && text[index - 1] === '>') {
      depth++;
      index--;
    } else if (text[index] === '<' && text[index - 1] === '<') {
      depth--;
      index--;
      if (depth === 0) return text.slice(index, at + 1);
    }
  }
  return undefined;
}

/** Inflates every countable stream against `budget`; throws the budget's rejection when it is passed. */
export function countPdfInflation(data: Uint8Array, budget: UploadBudget): void {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1');
  STREAM.lastIndex = 0;
  for (let match = STREAM.exec(text); match; match = STREAM.exec(text)) {
    if (match.index > 0 && /[A-Za-z]/.test(text[match.index - 1]!)) continue; // "endstream"
    const dictionary = dictionaryBefore(text, match.index);
    if (!dictionary) continue;
    const filter = /\/Filter\s*([^/]*\/\w+)/.exec(dictionary)?.[1];
    if (!filter || !FLATE.test(filter) || /\/Subtype\s*\/Image\b/.test(dictionary)) continue;
    const start = match.index + match[0].length;
    const end = text.indexOf('endstream', start);
    const stream = data.subarray(start, end < 0 ? data.length : end);
    let produced: number;
    try {
      // Sync flush: a truncated stream yields what it has, as pdf.js reads it.
      produced = inflateSync(stream, { maxOutputLength: Math.max(1, budget.remainingBytes + 1), finishFlush: constants.Z_SYNC_FLUSH }).length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw budget.overBytes();
      continue; // not inflatable here (e.g. encrypted): left to the pool's memory and time limits
    }
    budget.addInflated(produced);
    STREAM.lastIndex = Math.max(STREAM.lastIndex, end < 0 ? text.length : end);
  }
}
