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
import { styleText } from 'node:util';
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

/** The width tables fit: COLUMNS, else the terminal's, else 100 (a pipe or a log). */
export function terminalWidth(env: Record<string, string | undefined> = process.env, stdout: { columns?: number } = process.stdout): number {
  const fromEnv = Number.parseInt(env.COLUMNS ?? '', 10);
  if (Number.isSafeInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return stdout.columns && stdout.columns > 0 ? stdout.columns : 100;
}

// The layout of tables and help lives in layout.ts (it writes nothing); what commands import from here.
export { fields, fitHelp, table, wrapText } from './layout.js';
