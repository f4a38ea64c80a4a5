/**
 * Text from the service goes into GitHub issues, comments and summaries. It must not ping people
 * (@mentions), inject markup (HTML) or end our hidden marker comment early.
 */

const ZERO_WIDTH_JOINER = '\u200D';

export function neutralise(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '')
    .replace(/</g, '&lt;')
    .replace(/--!?>/g, '--&gt;')
    // A mention needs `@` at a word start; an e-mail address (word character before `@`) pings nobody.
    .replace(/(^|[^\w`@])@(?=[A-Za-z0-9])/g, `$1@${ZERO_WIDTH_JOINER}`);
}

/** One table cell: neutralised, on one line, pipes escaped. */
export function tableCell(text: string): string {
  return neutralise(text).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
