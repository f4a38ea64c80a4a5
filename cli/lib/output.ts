/**
 * Everything the CLI prints. Results go to stdout (human text, or one JSON document with --json);
 * notices, warnings and progress go to stderr. Colour only on a TTY and never with NO_COLOR; the
 * progress line rewrites itself on an interactive terminal and is plain lines in CI logs.
 * Every write is passed through redact(), so no secret is ever printed.
 */
import { redact } from './secrets.js';

export interface OutputStreams {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  env: Record<string, string | undefined>;
}

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan';
const CODES: Record<Style, [number, number]> = { bold: [1, 22], dim: [2, 22], red: [31, 39], green: [32, 39], yellow: [33, 39], cyan: [36, 39] };

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
    if (!this.color) return text;
    return styles.reduce((out, style) => `\u001b[${CODES[style][0]}m${out}\u001b[${CODES[style][1]}m`, text);
  }

  /** Human result text on stdout (ignored with --json). */
  print(text = ''): void {
    if (this.json) return;
    this.#clearProgress();
    this.#streams.stdout.write(redact(text.endsWith('\n') ? text : `${text}\n`));
  }

  /** The machine result with --json: exactly one JSON document on stdout. */
  printJson(value: unknown): void {
    this.#clearProgress();
    this.#streams.stdout.write(`${redact(JSON.stringify(value, null, 2))}\n`);
  }

  /** Either the JSON value (with --json) or the human text. */
  result(human: () => string, machine: () => unknown): void {
    if (this.json) this.printJson(machine());
    else this.print(human());
  }

  /** A one-line notice on stderr (also with --json: stdout stays machine-readable). */
  notice(line: string): void {
    this.#clearProgress();
    this.#streams.stderr.write(`${redact(line)}\n`);
  }

  warn(line: string): void {
    this.notice(`${this.#stderrStyle('warning:', 'yellow', 'bold')} ${line}`);
  }

  error(line: string): void {
    this.notice(`${this.#stderrStyle('error:', 'red', 'bold')} ${line}`);
  }

  /** Progress of long work: one rewriting line on a terminal, plain lines in CI (repeats dropped). */
  progress(message: string): void {
    const line = redact(message);
    if (this.interactive) {
      const columns = this.#streams.stderr.columns ?? 100;
      const shown = line.length > columns - 2 ? `${line.slice(0, columns - 3)}…` : line;
      this.#streams.stderr.write(`\r\u001b[2K${shown}`);
      this.#progressShown = true;
    } else if (line !== this.#lastProgress) {
      this.#streams.stderr.write(`${line}\n`);
    }
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

  #stderrStyle(text: string, ...styles: Style[]): string {
    const enabled = Boolean(this.#streams.stderr.isTTY) && this.#streams.env.NO_COLOR === undefined && this.#streams.env.TERM !== 'dumb';
    return enabled ? styles.reduce((out, style) => `\u001b[${CODES[style][0]}m${out}\u001b[${CODES[style][1]}m`, text) : text;
  }
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const visibleLength = (text: string) => text.replace(ANSI, '').length;

/** A plain text table: columns padded to their widest cell, a rule under the header. */
export function table(headers: readonly string[], rows: ReadonlyArray<readonly string[]>, options: { maxWidth?: number } = {}): string {
  const maxWidth = options.maxWidth ?? 60;
  const cell = (text: string) => {
    const flat = text.replace(/\s+/g, ' ').trim();
    return visibleLength(flat) > maxWidth && !ANSI.test(flat) ? `${flat.slice(0, maxWidth - 1)}…` : flat;
  };
  const body = rows.map((row) => row.map(cell));
  const widths = headers.map((header, i) => Math.max(header.length, ...body.map((row) => visibleLength(row[i] ?? ''))));
  const line = (row: readonly string[]) =>
    row.map((text, i) => (i === row.length - 1 ? text : text + ' '.repeat((widths[i] ?? 0) - visibleLength(text)))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

/** `key: value` lines, keys aligned. */
export function fields(entries: ReadonlyArray<readonly [string, string | number | undefined | null]>): string {
  const shown = entries.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(0, ...shown.map(([key]) => key.length));
  return shown.map(([key, value]) => `${`${key}:`.padEnd(width + 2)}${String(value)}`).join('\n');
}
