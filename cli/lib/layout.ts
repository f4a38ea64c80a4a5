/**
 * How the CLI lays text out for the width it is given (COLUMNS, the terminal, or 100 in a pipe or
 * a log): tables whose cells wrap at spaces, help re-flowed, examples kept copyable. Nothing is
 * ever cut and no word is broken: an identifier (an id, a path, a slug) is one word, so it stays
 * whole; where the columns cannot fit, a table prints one block per row, and a command that cannot
 * fit continues on the next line after a `\`, as a shell reads it.
 */
import { stripVTControlCharacters } from 'node:util';
import { terminalWidth } from './output.js';

const visibleLength = (text: string) => stripVTControlCharacters(text).length;

/** Words of `text` in lines of at most `width` visible characters; a word longer than the line stands alone on one, whole. */
export function wrapText(text: string, width: number): string[] {
  if (visibleLength(text) <= width) return [text];
  if (visibleLength(text) !== text.length) return [text]; // styled: shown whole rather than split inside a colour
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (!line) line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Shell words of a command line: split at blanks outside quotes, quotes kept. */
function shellWords(command: string): string[] {
  return command.match(/(?:[^\s'"]+|'[^']*'|"(?:\\.|[^"\\])*")+/g) ?? [];
}

/** Where a command line's trailing `# comment` starts (a `#` after a blank, outside quotes), or -1. */
function commentStart(line: string): number {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quote) {
      if (char === quote) quote = '';
    } else if (char === '\'' || char === '"') quote = char;
    else if (char === '#' && /\s/.test(line[i - 1] ?? '')) return i;
  }
  return -1;
}

/**
 * An example command fitted to `width` so that it still pastes into a shell as it is: the command's
 * words continue on the next line after ` \` where the line is full, and a comment that no longer
 * fits beside it goes on lines of its own after it.
 */
function fitExample(line: string, width: number): string[] {
  if (visibleLength(line) <= width) return [line];
  const indent = /^\s*/.exec(line)![0];
  const at = commentStart(line);
  const command = (at < 0 ? line : line.slice(0, at)).trim();
  const comment = at < 0 ? '' : line.slice(at).replace(/^#\s*/, '');
  const lines: string[] = [];
  let current = indent;
  // An option stays on one line with its value where they fit together: `--input '{…}'` reads as one thing.
  const units = shellWords(command).reduce<string[]>((joined, word) => {
    const previous = joined.at(-1);
    const fits = indent.length + 4 + (previous?.length ?? 0) + 1 + word.length + 2 <= width;
    if (previous !== undefined && /^-/.test(previous) && !previous.includes(' ') && !/^-/.test(word) && fits) joined[joined.length - 1] = `${previous} ${word}`;
    else joined.push(word);
    return joined;
  }, []);
  for (const word of units) {
    const first = current.trim() === '';
    if (!first && current.length + 1 + word.length + 2 > width) {
      lines.push(`${current} \\`);
      current = `${indent}    ${word}`;
    } else current = first ? `${current}${word}` : `${current} ${word}`;
  }
  if (comment && current.length + 3 + comment.length <= width) return [...lines, `${current}  # ${comment}`];
  lines.push(current);
  if (comment) lines.push(...wrapText(comment, Math.max(20, width - indent.length - 2)).map((part) => `${indent}# ${part}`));
  return lines;
}

/**
 * Help text fitted to `width` without breaking a word: prose paragraphs (unindented lines that run
 * on) are re-flowed; a `  term  description` line wraps its description under itself; an example
 * (an indented line under an `Examples:` heading) is never wrapped, only continued as a shell reads
 * it (fitExample); other indented lines wrap under their indent.
 */
export function fitHelp(text: string, width: number = terminalWidth()): string {
  const paragraphs: string[] = [];
  for (const line of text.split('\n')) {
    const previous = paragraphs.at(-1);
    const runsOn = previous !== undefined && previous !== '' && !/^\s/.test(previous) && !previous.endsWith(':') && line !== '' && !/^\s/.test(line) && !/^[A-Z][\w ]*:( |$)/.test(line);
    if (runsOn) paragraphs[paragraphs.length - 1] = `${previous} ${line}`;
    else paragraphs.push(line);
  }
  let inExamples = false;
  return paragraphs.flatMap((line) => {
    if (!/^\s/.test(line)) inExamples = /^Examples:$/.test(line);
    if (inExamples && /^\s+\S/.test(line)) return fitExample(line, width);
    if (visibleLength(line) <= width) return [line];
    const term = /^(\s+\S(?:.*?\S)?\s{2,})(\S.*)$/.exec(line);
    const indent = term && term[1]!.length <= width / 2 ? term[1]!.length : (/^\s*/.exec(line)?.[0].length ?? 0) + (term ? 4 : 0);
    const head = term && term[1]!.length <= width / 2 ? term[1]! : '';
    const body = head ? term![2]! : line.trim();
    const first = head ? head : ' '.repeat(/^\s*/.exec(line)?.[0].length ?? 0);
    const wrapped = wrapText(body, Math.max(20, width - indent));
    return wrapped.map((part, i) => `${i === 0 ? first : ' '.repeat(indent)}${part}`);
  }).join('\n');
}

/** The longest word of `text` (a styled text counts whole: it is never split). */
function longestWord(text: string): number {
  if (visibleLength(text) !== text.length) return visibleLength(text);
  return Math.max(0, ...text.split(' ').map((word) => word.length));
}

/**
 * A plain text table sized to `width` (default: the terminal): columns padded to their widest cell,
 * a rule under the header. When that is too wide, cells wrap at spaces inside their column: a
 * column is never narrower than its longest word, so no identifier is cut and no word broken; the
 * short columns keep their width and the long ones share what is left. The `whole` columns
 * (what a user copies: ids, slugs, job ids) never wrap at all. When even that cannot fit, each row
 * becomes a block of `Header: value` lines.
 */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, options: { width?: number; whole?: readonly number[] } = {}): string {
  const width = Math.max(40, options.width ?? terminalWidth());
  const whole = new Set(options.whole ?? []);
  const body = rows.map((row) => headers.map((_, i) => (row[i] ?? '').replace(/\s+/g, ' ').trim()));
  const all = [headers, ...body];
  const natural = headers.map((_, i) => Math.max(...all.map((row) => visibleLength(row[i] ?? ''))));
  const least = headers.map((_, i) => (whole.has(i) ? natural[i]! : Math.max(...all.map((row) => longestWord(row[i] ?? '')))));
  const gaps = 2 * (headers.length - 1);
  if (headers.length > 1 && least.reduce((a, b) => a + b, 0) + gaps > width) return records(headers, body, width);
  const widths = [...least];
  // What is left goes first to the columns that need least to show whole, then in equal shares.
  let spare = width - gaps - least.reduce((a, b) => a + b, 0);
  const wanting = headers.map((_, i) => i).filter((i) => natural[i]! > least[i]!).sort((a, b) => natural[a]! - least[a]! - (natural[b]! - least[b]!));
  for (const [n, i] of wanting.entries()) {
    const share = Math.floor(spare / (wanting.length - n));
    const given = Math.min(natural[i]! - least[i]!, share);
    widths[i]! += given;
    spare -= given;
  }
  const lines = (row: readonly string[]) => {
    const cells = row.map((text, i) => wrapText(text, widths[i]!));
    const height = Math.max(...cells.map((cell) => cell.length));
    return Array.from({ length: height }, (_, line) => cells.map((cell, i) => {
      const text = cell[line] ?? '';
      return i === cells.length - 1 ? text : text + ' '.repeat(Math.max(0, widths[i]! - visibleLength(text)));
    }).join('  ').trimEnd()).join('\n');
  };
  return [lines(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(lines)].join('\n');
}

function records(headers: readonly string[], body: ReadonlyArray<readonly string[]>, width: number): string {
  const keyWidth = Math.max(...headers.slice(1).map((header) => visibleLength(header))) + 2;
  return body.map((row) => [
    row[0] ?? '',
    ...headers.slice(1).flatMap((header, i) => {
      const value = wrapText(row[i + 1] ?? '', Math.max(10, width - keyWidth - 2));
      return value.map((text, j) => `  ${(j === 0 ? `${header}:` : '').padEnd(keyWidth)}${text}`.trimEnd());
    }),
  ].join('\n')).join('\n\n');
}

/** `key: value` lines, keys aligned. */
export function fields(entries: ReadonlyArray<readonly [string, string | number | undefined | null]>): string {
  const shown = entries.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(0, ...shown.map(([key]) => key.length));
  return shown.map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${String(value)}`).join('\n');
}
