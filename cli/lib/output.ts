/**
 * Everything the CLI prints. Results go to stdout (human text, or one JSON document with --json);
 * notices, warnings and progress go to stderr. Colour only on a TTY and never with NO_COLOR; the
 * progress line rewrites itself on an interactive terminal and is not written at all elsewhere.
 * Every write is passed through redact(), so no secret is ever printed, and through one escape
 * (terminalText: review/'s logText line by line), so a file name, title, document text or config
 * value can neither drive the terminal (control sequences, a bare CR) nor issue a GitHub workflow
 * command when the CLI runs in a workflow. This module is the only one in cli/ that writes to
 * stdout or stderr (ESLint refuses the others).
 */
import { stripVTControlCharacters, styleText } from 'node:util';
import { logText } from '../../review/neutralise.js';
import { redact } from './secrets.js';

/** A colour of our own (styleText's SGR: colours only, it cannot move the cursor or retitle a window). */
// eslint-disable-next-line no-control-regex
const OWN_COLOUR = /(\u001b\[[0-9;]*m)/;

/**
 * Text as printed: our own line breaks kept, each line escaped by logText (control characters and
 * line breaks inside it shown as `\u001b`, `\r`; `::` and `##[` broken). With `colours` (a colour
 * terminal), SGR colour sequences are kept: ours, from style().
 */
function terminalText(text: string, colours = false): string {
  return text
    .split('\n')
    .map((line) => (colours ? line.split(OWN_COLOUR).map((part, i) => (i % 2 ? part : logText(part))).join('') : logText(line)))
    .join('\n');
}

/**
 * A JSON document as printed: JSON.stringify escapes control characters already and no line of it
 * starts with `::`; the runner's `##[` marker and the separators terminals and the runner split on
 * (U+2028, U+2029) can still sit in a string, so they are written as JSON escapes (the same JSON).
 */
function jsonText(json: string): string {
  return json.replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029').replace(/##\[/g, '#\\u0023[');
}

/** Text printed before there is an Output (help, version, a crash): escaped, redacted. */
export function printText(stream: 'stdout' | 'stderr', text: string): void {
  process[stream].write(terminalText(redact(text)));
}

export interface OutputStreams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
}

type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
// Whether to colour is decided here (TTY, NO_COLOR, --no-color), not by styleText's own stream check.
const paint = (text: string, styles: Style[]) => styleText(styles, text, { validateStream: false });

export class Output {
  readonly json: boolean;
  readonly color: boolean;
  /** A person at a terminal (stderr is a TTY and not in CI): progress rewrites one line. */
  readonly interactive: boolean;
  readonly #streams: OutputStreams;
  #progressShown = false;
  #lastProgress = '';

  constructor(options: { json: boolean; noColor?: boolean }, streams: OutputStreams = { stdout: process.stdout, stderr: process.stderr, env: process.env }) {
    this.#streams = streams;
    this.json = options.json;
    const ci = Boolean(streams.env.CI && streams.env.CI !== 'false');
    this.interactive = Boolean(streams.stderr.isTTY) && !ci;
    this.color = Boolean(streams.stdout.isTTY) && !options.noColor && streams.env.NO_COLOR === undefined && streams.env.TERM !== 'dumb';
  }

  get stdoutIsTTY(): boolean {
    return Boolean(this.#streams.stdout.isTTY);
  }

  style(text: string, ...styles: Style[]): string {
    return this.color ? paint(text, styles) : text;
  }

  /** Human result text on stdout (ignored with --json). */
  print(text = ''): void {
    if (this.json) return;
    this.#clearProgress();
    this.#streams.stdout.write(terminalText(redact(text.endsWith('\n') ? text : `${text}\n`), this.color));
  }

  /** The machine result with --json: exactly one JSON document on stdout. */
  printJson(value: unknown): void {
    this.#clearProgress();
    this.#streams.stdout.write(`${jsonText(redact(JSON.stringify(value, null, 2)))}\n`);
  }

  /** Either the JSON value (with --json) or the human text. */
  result(human: () => string, machine: () => unknown): void {
    if (this.json) this.printJson(machine());
    else this.print(human());
  }

  /** A one-line notice on stderr (also with --json: stdout stays machine-readable). */
  notice(line: string): void {
    this.#clearProgress();
    this.#streams.stderr.write(`${terminalText(redact(line), this.#stderrColours())}\n`);
  }

  /**
   * A download's bytes on stdout, exactly as the service sent them (`download --output -`, or piped):
   * data the user asked for, written verbatim, the one thing printed unescaped. In a workflow, pass
   * --output FILE so a document's text never reaches the runner's log.
   */
  data(bytes: string | Uint8Array): void {
    this.#clearProgress();
    this.#streams.stdout.write(bytes);
  }

  warn(line: string): void {
    this.notice(`${this.#stderrStyle('warning:', 'yellow', 'bold')} ${line}`);
  }

  error(line: string): void {
    this.notice(`${this.#stderrStyle('error:', 'red', 'bold')} ${line}`);
  }

  /**
   * Progress of long work: one rewriting line on a terminal, cleared before any result. Nothing in CI
   * logs or pipes: there the results themselves are the record, and progress lines only repeated them.
   */
  progress(message: string): void {
    if (!this.interactive) return;
    const line = terminalText(redact(message));
    if (line === this.#lastProgress && this.#progressShown) return;
    const columns = this.#streams.stderr.columns ?? 100;
    const shown = line.length > columns - 2 ? `${line.slice(0, columns - 3)}…` : line;
    this.#streams.stderr.write(`\r\u001b[2K${shown}`);
    this.#progressShown = true;
    this.#lastProgress = line;
  }

  /** Ends a progress display. */
  done(): void {
    this.#clearProgress();
  }

  #clearProgress(): void {
    if (this.#progressShown) {
      this.#streams.stderr.write('\r\u001b[2K');
      this.#progressShown = false;
    }
  }

  #stderrColours(): boolean {
    return Boolean(this.#streams.stderr.isTTY) && this.#streams.env.NO_COLOR === undefined && this.#streams.env.TERM !== 'dumb';
  }

  #stderrStyle(text: string, ...styles: Style[]): string {
    return this.#stderrColours() ? paint(text, styles) : text;
  }
}

const visibleLength = (text: string) => stripVTControlCharacters(text).length;

/** The width tables fit: COLUMNS, else the terminal's, else 100 (a pipe or a log). */
export function terminalWidth(env: Record<string, string | undefined> = process.env, stdout: { columns?: number } = process.stdout): number {
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  if (Number.isSafeInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return stdout.columns && stdout.columns > 0 ? stdout.columns : 100;
}

/** Words of `text` in lines of at most `width` visible characters (a longer word is cut). */
export function wrapText(text: string, width: number): string[] {
  if (visibleLength(text) <= width) return [text];
  if (visibleLength(text) !== text.length) return [text]; // styled: shown whole rather than cut inside a colour
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    let rest = word;
    while (rest.length > width) {
      if (line) lines.push(line);
      lines.push(rest.slice(0, width));
      rest = rest.slice(width);
      line = '';
    }
    if (!line) line = rest;
    else if (line.length + 1 + rest.length <= width) line += ` ${rest}`;
    else {
      lines.push(line);
      line = rest;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Help text fitted to `width` without breaking a word: prose paragraphs (unindented lines that run
 * on) are re-flowed; a `  term  description` line wraps its description under itself; other
 * indented lines wrap under their indent.
 */
export function fitHelp(text: string, width: number = terminalWidth()): string {
  const lines = text.split('\n');
  const paragraphs: string[] = [];
  for (const line of lines) {
    const previous = paragraphs.at(-1);
    const runsOn = previous !== undefined && previous !== '' && !/^\s/.test(previous) && !previous.endsWith(':') && line !== '' && !/^\s/.test(line) && !/^[A-Z][\w ]*:( |$)/.test(line);
    if (runsOn) paragraphs[paragraphs.length - 1] = `${previous} ${line}`;
    else paragraphs.push(line);
  }
  return paragraphs.flatMap((line) => {
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

/**
 * A plain text table sized to `width` (default: the terminal): columns padded to their widest cell,
 * a rule under the header; when too wide, the other columns are cut (…) down to a fair share and the
 * last column, which holds the long text (reasons, notes, titles), wraps instead of being cut. The
 * `whole` columns hold what a user copies (ids, slugs, job ids): never cut; when they leave no room,
 * each row becomes a block of `Header: value` lines.
 */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, options: { width?: number; whole?: readonly number[] } = {}): string {
  const width = Math.max(40, options.width ?? terminalWidth());
  const whole = new Set(options.whole ?? []);
  const body = rows.map((row) => headers.map((_, i) => (row[i] ?? '').replace(/\s+/g, ' ').trim()));
  const natural = headers.map((header, i) => Math.max(visibleLength(header), ...body.map((row) => visibleLength(row[i] ?? ''))));
  const last = headers.length - 1;
  const gaps = 2 * last;
  const floorOf = (i: number) => (whole.has(i) ? (natural[i] ?? 0) : Math.min(natural[i] ?? 0, Math.max(8, visibleLength(headers[i] ?? ''))));
  const leadFloor = headers.slice(0, last).reduce((sum, _, i) => sum + floorOf(i), 0);
  // The wrapping column keeps a fair share where the others can give it (at 80 columns, 32), so its
  // text is not a word or two a line; else at least 20.
  const fairLast = Math.min(natural[last] ?? 0, Math.max(20, Math.floor(width * 0.4)));
  const minLast = leadFloor + gaps + fairLast <= width ? fairLast : Math.min(natural[last] ?? 0, 20);
  // Too many columns for the width even cut down: one block per row, `Header: value` lines.
  if (last > 0 && leadFloor + gaps + minLast > width) return records(headers, body, width);
  const widths = [...natural];
  // Cut the widest leading column (never a whole one) until the last column has room for its minimum.
  while (widths.slice(0, last).reduce((a, b) => a + b, 0) + gaps + minLast > width) {
    const widest = widths.slice(0, last).reduce<number | undefined>((best, w, i) => (!whole.has(i) && w > floorOf(i) && (best === undefined || w > (widths[best] ?? 0)) ? i : best), undefined);
    if (widest === undefined) break;
    widths[widest] = (widths[widest] ?? 0) - 1;
  }
  widths[last] = Math.max(1, Math.min(natural[last] ?? 0, width - gaps - widths.slice(0, last).reduce((a, b) => a + b, 0)));
  const fit = (text: string, w: number) => (visibleLength(text) <= w ? text + ' '.repeat(w - visibleLength(text)) : `${stripVTControlCharacters(text).slice(0, w - 1)}…`);
  const lines = (row: readonly string[]) => {
    const lead = row.slice(0, last).map((text, i) => fit(text, widths[i] ?? 0));
    const wrapped = wrapText(row[last] ?? '', widths[last] ?? 1);
    const pad = lead.map((text) => ' '.repeat(visibleLength(text)));
    return wrapped.map((text, i) => [...(i === 0 ? lead : pad), text].join('  ').trimEnd()).join('\n');
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
