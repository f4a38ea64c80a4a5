/**
 * A tool's answer: the result as structuredContent and as compact JSON text (what an assistant
 * reads), the running spend for charged tools, and resource links. No answer is over 8 KB. A tool
 * whose result holds one long list or text names it (a Part): the answer then carries as much of
 * it as fits from the offset asked for, says what it shows of how much, and gives the exact call
 * that returns the next part (`next`), so nothing is reachable only through a resource. Anything
 * else still over the limit is shortened by fit.ts and says so.
 */
import type { CallToolResult, ContentBlock } from '@modelcontextprotocol/sdk/types.js';
import type { McpContext } from './context.js';
import { fitWithin, RESULT_LIMIT_BYTES, type Cut } from './fit.js';
import { jsonText } from './results.js';

/** A tool call an assistant can make as written. */
export interface NextCall {
  tool: string;
  arguments: Record<string, unknown>;
}

/** The one long list or text of a result, shown from `offset` as far as the limit allows. */
export interface Part {
  /** The key of the result holding it. */
  key: string;
  /** What its items are called in the answer's sentence: "controls", "gaps", "characters". */
  noun: string;
  offset: number;
  /** The call returning what follows `end` (an offset into the whole list or text). */
  next(end: number): NextCall;
  /** When everything from offset fits, a call for what lies beyond this answer anyway (a listing's next page). */
  after?: NextCall;
}

/** Where the shown part lies in the whole: `remaining` is what follows it. */
interface PageInfo {
  key: string;
  offset: number;
  shown: number;
  total: number;
  remaining: number;
  unit: 'items' | 'characters';
}

interface Answer {
  charged: boolean;
  result: Record<string, unknown>;
  part?: Part;
  links?: ContentBlock[];
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

type Long = string | readonly unknown[];

/** Whether `value` alone leaves room in one answer for what surrounds it (ids, the spend, a note). */
export function fitsWhole(value: unknown): boolean {
  return bytesOf(value) <= RESULT_LIMIT_BYTES - 1024;
}

/** `whole` from `from`, `count` long; a text never ends inside a surrogate pair. */
function slice(whole: Long, from: number, count: number): Long {
  if (typeof whole !== 'string') return whole.slice(from, from + count);
  let end = from + count;
  if (end < whole.length && /[\uD800-\uDBFF]/.test(whole[end - 1] ?? '')) end--;
  return whole.slice(from, end);
}

/** A text part ends at a line break or a space when one lies in its last fifth: the next part starts on a word. */
function atWordEnd(text: string, from: number, shown: number, total: number): number {
  if (from + shown >= total) return shown;
  const part = text.slice(from, from + shown);
  const cut = Math.max(part.lastIndexOf('\n'), part.lastIndexOf(' '));
  return cut + 1 >= shown * 0.8 ? cut + 1 : shown;
}

function sentence(page: PageInfo, noun: string, next: NextCall | undefined): string {
  const shown = page.unit === 'items'
    ? `${noun} ${page.offset + 1}–${page.offset + page.shown} of ${page.total}`
    : `${noun} ${page.offset.toLocaleString('en-US')}–${(page.offset + page.shown).toLocaleString('en-US')} of ${page.total.toLocaleString('en-US')}`;
  const rest = page.remaining > 0 ? ` (${page.remaining.toLocaleString('en-US')} more)` : ' (the end)';
  return `Shows ${shown}${rest}.${next ? ` Next part: call ${next.tool} with ${JSON.stringify(next.arguments)}.` : ''}`;
}

/** The answer of a tool call, within RESULT_LIMIT_BYTES. */
export function answer(context: McpContext, { charged, result, part, links = [] }: Answer): CallToolResult {
  const spend = charged ? { spend: context.budget.report() } : {};
  const spendLine = charged ? context.budget.reportLine() : '';
  const fits = (structured: Record<string, unknown>) => bytesOf(structured) + Buffer.byteLength(spendLine) + 1 <= RESULT_LIMIT_BYTES;
  let structured: Record<string, unknown> = { result, ...spend };
  const whole = part ? (result[part.key] as Long | undefined) : undefined;
  if (part && whole !== undefined && (typeof whole === 'string' || Array.isArray(whole))) {
    const from = Math.min(Math.max(0, part.offset), whole.length);
    const build = (count: number): Record<string, unknown> => {
      const shown = slice(whole, from, count);
      const page: PageInfo = { key: part.key, offset: from, shown: shown.length, total: whole.length, remaining: whole.length - from - shown.length, unit: typeof whole === 'string' ? 'characters' : 'items' };
      const next = page.remaining > 0 ? part.next(from + shown.length) : part.after;
      const paged = page.remaining > 0 || from > 0;
      return {
        result: { ...result, [part.key]: shown },
        ...(paged ? { page, more: sentence(page, part.noun, next) } : next ? { more: `More: call ${next.tool} with ${JSON.stringify(next.arguments)}.` } : {}),
        ...(next ? { next } : {}),
        ...spend,
      };
    };
    // The most that fits, by bisection (each try measures the whole answer).
    let low = 0;
    let high = whole.length - from;
    if (!fits(build(high))) {
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (fits(build(middle))) low = middle;
        else high = middle - 1;
      }
      high = typeof whole === 'string' ? atWordEnd(whole, from, low, whole.length) : low;
    }
    // Nothing of it fits (one item over the limit by itself): show one, shortened below.
    structured = build(Math.max(high, high === 0 && whole.length > from ? 1 : 0));
  }
  if (!fits(structured)) structured = shortened(structured, spend, spendLine);
  const content: ContentBlock[] = [jsonText(structured), ...links];
  if (charged) content.push({ type: 'text', text: spendLine });
  return { content, structuredContent: structured };
}

/** The last resort: fit.ts cuts the longest lists and texts, and the answer lists the cuts. */
function shortened(structured: Record<string, unknown>, spend: Record<string, unknown>, spendLine: string): Record<string, unknown> {
  const { result, spend: _spend, ...rest } = structured;
  const fitted = fitWithin('result', result, { ...rest, ...spend }, RESULT_LIMIT_BYTES - Buffer.byteLength(spendLine) - 200);
  const note = `Shortened to fit one answer: ${fitted.cuts.map((cut: Cut) => `${cut.path} ${cut.shown} of ${cut.total} ${cut.unit}`).join('; ')}.`;
  return { ...rest, result: fitted.value, truncated: fitted.cuts, more: typeof rest.more === 'string' ? `${rest.more} ${note}` : note, ...spend };
}
