/**
 * Every credit traced to lines of a committed file. The service cites a quote with a source and a
 * line counted in the text it was sent (a normalised copy, with the front matter blanked out); the
 * report must point at the document as committed, so each quote is found again in the file as read
 * from the checkout and given `file`, `line` and `endLine` (1-based, inclusive).
 *
 * Matching ignores everything but letters and digits (case too): a quote the service trimmed of
 * Markdown emphasis, list markers, line breaks or an ellipsis still lands on its sentence. Where a
 * quote occurs more than once, the occurrence nearest the service's line wins.
 */
import type { MappingReportModel } from '../api/clientTypes.js';
import type { RepoFile } from './documents.js';
import type { SourcedReport } from './mapping.js';
import { normaliseRepoPath } from './glob.js';

type QuoteModel = MappingReportModel['controls'][number]['evidence'][number];

/** An evidence quote with where it stands in the committed file, when that could be found. */
export type TracedEvidence = QuoteModel & {
  /** Repo path of the document, as the report links it. */
  file?: string;
  /** 1-based first and last line of the quote in the file as committed. */
  line?: number;
  endLine?: number;
};

interface IndexedText {
  /** Letters and digits only, lower case. */
  folded: string;
  /** Offset in the original text of each character of `folded`. */
  offsets: number[];
  /** Offset where each line starts. */
  lineStarts: number[];
}

const WORD_CHARACTER = /[\p{L}\p{N}]/u;

function indexText(text: string): IndexedText {
  let folded = '';
  const offsets: number[] = [];
  const lineStarts = [0];
  let offset = 0;
  for (const character of text) {
    if (character === '\n') lineStarts.push(offset + 1);
    if (WORD_CHARACTER.test(character)) {
      const lower = character.toLowerCase();
      folded += lower;
      for (let unit = 0; unit < lower.length; unit++) offsets.push(offset);
    }
    offset += character.length;
  }
  return { folded, offsets, lineStarts };
}

function fold(text: string): string {
  let folded = '';
  for (const character of text) if (WORD_CHARACTER.test(character)) folded += character.toLowerCase();
  return folded;
}

/** 1-based line of a character offset. */
function lineAt(lineStarts: readonly number[], offset: number): number {
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((lineStarts[middle] ?? 0) <= offset) low = middle;
    else high = middle - 1;
  }
  return low + 1;
}

/** Where `quote` stands in `text`: first and last line, or undefined when it is not there. */
export function locateQuote(text: string, quote: string, nearLine?: number): { line: number; endLine: number } | undefined {
  return locateIn(indexText(text), fold(quote), nearLine);
}

function locateIn(index: IndexedText, needle: string, nearLine: number | undefined): { line: number; endLine: number } | undefined {
  if (needle.length === 0) return undefined;
  let best: { line: number; endLine: number } | undefined;
  for (let at = index.folded.indexOf(needle); at >= 0; at = index.folded.indexOf(needle, at + 1)) {
    const found = { line: lineAt(index.lineStarts, index.offsets[at] ?? 0), endLine: lineAt(index.lineStarts, index.offsets[at + needle.length - 1] ?? 0) };
    if (nearLine === undefined) return found;
    if (!best || Math.abs(found.line - nearLine) < Math.abs(best.line - nearLine)) best = found;
  }
  return best;
}

/**
 * Quotes traced in the committed files: `file` from the quote's source (or the report's, for one
 * mapped per document), else the one file that contains it; lines from where the text is found,
 * else the service's line when the file is known. A combined set's `combined` source is no file.
 * The service's `location.line` is dropped: a traced quote carries one line number, `line`, and
 * every rendering (md, html, SARIF, JUnit, comment, gap issues, n8n) shows that one.
 */
function traceEvidence(quotes: readonly QuoteModel[], files: readonly RepoFile[], defaultSource?: string): TracedEvidence[] {
  const indexes = new Map<string, IndexedText>();
  const contentOf = new Map(files.map((file) => [normaliseRepoPath(file.path), file.content]));
  const indexOf = (path: string): IndexedText | undefined => {
    const content = contentOf.get(path);
    if (content === undefined) return undefined;
    let index = indexes.get(path);
    if (!index) indexes.set(path, (index = indexText(content)));
    return index;
  };
  return quotes.map((quote) => {
    const { line: serviceLine, ...location } = quote.location;
    const traced = { ...quote, location };
    const given = quote.location.source ?? defaultSource;
    const source = given === undefined ? undefined : normaliseRepoPath(given);
    const needle = fold(quote.quote);
    const candidates = source !== undefined && contentOf.has(source) ? [source] : [...contentOf.keys()];
    for (const path of candidates) {
      const found = locateIn(indexOf(path) as IndexedText, needle, serviceLine);
      if (found) return { ...traced, file: path, ...found };
    }
    if (source !== undefined && contentOf.has(source) && serviceLine !== undefined) {
      const span = quote.quote.split('\n').length - 1;
      return { ...traced, file: source, line: serviceLine, endLine: serviceLine + span };
    }
    return source !== undefined && contentOf.has(source) ? { ...traced, file: source } : traced;
  });
}

/** A mapping run's reports with every control's evidence traced in the files that were mapped. */
export function traceReports(reports: readonly SourcedReport[], files: readonly RepoFile[]): SourcedReport[] {
  return reports.map((sourced) => {
    const defaultSource = sourced.source === 'combined' ? undefined : sourced.source;
    return {
      ...sourced,
      report: {
        ...sourced.report,
        controls: sourced.report.controls.map((control) => ({ ...control, evidence: traceEvidence(control.evidence, files, defaultSource) })),
      },
    };
  });
}
