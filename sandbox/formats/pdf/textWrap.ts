/** Greedy word wrapping of WinAnsi text by Helvetica advance widths. */
import { textWidth, type FontFace } from './helveticaMetrics.js';

export interface TextStyle {
  face: FontFace;
  size: number;
}

const ELLIPSIS = '\x85';

/** Splits a word wider than the line into pieces that fit, character by character. */
function breakLongWord(word: string, style: TextStyle, maxWidth: number): string[] {
  const pieces: string[] = [];
  let piece = '';
  for (const character of word) {
    if (piece && textWidth(piece + character, style.face, style.size) > maxWidth) {
      pieces.push(piece);
      piece = '';
    }
    piece += character;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/** Lines of at most maxWidth points; "\n" forces a break, runs of spaces collapse. */
export function wrapText(text: string, style: TextStyle, maxWidth: number): string[] {
  const lines: string[] = [];
  for (const hardLine of text.split('\n')) {
    const words = hardLine.split(' ').filter((word) => word.length > 0);
    let line = '';
    for (const word of words) {
      const candidate = line ? `${line} ${word}` : word;
      if (textWidth(candidate, style.face, style.size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      if (textWidth(word, style.face, style.size) <= maxWidth) {
        line = word;
      } else {
        const pieces = breakLongWord(word, style, maxWidth);
        lines.push(...pieces.slice(0, -1));
        line = pieces.at(-1) ?? '';
      }
    }
    lines.push(line);
  }
  return lines;
}

/** Keeps at most maxLines lines; the last kept line ends with an ellipsis when text was cut. */
export function truncateLines(lines: string[], maxLines: number, style: TextStyle, maxWidth: number): string[] {
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] ?? '';
  while (last && textWidth(last + ELLIPSIS, style.face, style.size) > maxWidth) last = last.slice(0, -1);
  kept[maxLines - 1] = last.trimEnd() + ELLIPSIS;
  return kept;
}

/** Cuts a single line to maxWidth, ending it with an ellipsis when it had to be shortened. */
export function fitLine(text: string, style: TextStyle, maxWidth: number): string {
  if (textWidth(text, style.face, style.size) <= maxWidth) return text;
  let cut = text;
  while (cut && textWidth(cut + ELLIPSIS, style.face, style.size) > maxWidth) cut = cut.slice(0, -1);
  return cut.trimEnd() + ELLIPSIS;
}
