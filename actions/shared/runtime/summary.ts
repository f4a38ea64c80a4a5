/**
 * The job summary (GITHUB_STEP_SUMMARY). GitHub drops a step's summary above 1 MiB, so each
 * section is written whole when it fits the room left, else its shortened rendering, else cut at
 * a line boundary with a note pointing to the report file. Sections are appended as the action
 * goes, so what was already written stays visible whatever fails later.
 */
import { appendFileSync, statSync } from 'node:fs';
import { log } from './log.js';

/** GitHub's limit per step. */
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;
/** Kept free for the later sections of the same step (issues applied, warnings). */
const RESERVE_BYTES = 16 * 1024;

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

type SummaryFit = 'full' | 'shortened' | 'cut' | 'no-summary';

function summaryPath(): string | undefined {
  return process.env.GITHUB_STEP_SUMMARY || undefined;
}

function usedBytes(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** The longest prefix of `text` ending at a line break that fits `limit` bytes. */
export function cutToBytes(text: string, limit: number): string {
  if (bytes(text) <= limit) return text;
  let cut = text.slice(0, limit); // characters ≥ bytes, so this is an upper bound
  while (bytes(cut) > limit) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  const lastBreak = cut.lastIndexOf('\n');
  return lastBreak > 0 ? cut.slice(0, lastBreak + 1) : cut;
}

/**
 * Appends one section. `shortened` renders a smaller version (fewer gaps, no evidence), used when
 * the full one does not fit; `moreAt` names where the complete text is (the report file).
 */
export function appendSummary(markdown: string, options: { shortened?: () => string; moreAt?: string; final?: boolean } = {}): SummaryFit {
  const path = summaryPath();
  if (!path) {
    log.debug('GITHUB_STEP_SUMMARY is not set: no job summary written');
    return 'no-summary';
  }
  const room = SUMMARY_LIMIT_BYTES - usedBytes(path) - (options.final ? 0 : RESERVE_BYTES);
  const section = markdown.endsWith('\n') ? markdown : `${markdown}\n`;
  let fit: SummaryFit = 'full';
  let text = section;
  if (bytes(text) > room && options.shortened) {
    text = options.shortened();
    fit = 'shortened';
    const note = `\n> The full report is ${bytes(section).toLocaleString('en-US')} bytes, more than a job summary holds: this is the short version.${options.moreAt ? ` The complete one is in ${options.moreAt}.` : ''}\n`;
    text = `${text.endsWith('\n') ? text : `${text}\n`}${note}`;
  }
  if (bytes(text) > room) {
    const note = `\n> … cut here: the job summary limit is 1 MiB.${options.moreAt ? ` The complete report is in ${options.moreAt}.` : ''}\n`;
    text = `${cutToBytes(text, Math.max(0, room - bytes(note)))}${note}`;
    fit = 'cut';
  }
  if (room <= 0) return 'cut';
  appendFileSync(path, text, 'utf8');
  return fit;
}
