/**
 * Text from a repository or the service (file names, titles, quotes, config values) reaches three
 * places, each escaped here: GitHub and GitLab bodies (issues, comments, merge-request notes,
 * summaries: `neutralise`, no @mentions, no HTML, no character references, no early end of our
 * hidden marker comment), and the runner's log and terminals (`logText`: one line that can never be
 * read as a workflow command).
 */

const ZERO_WIDTH_JOINER = '\u200D';

/**
 * An at sign that a forge could render as a mention: `@`, or its fullwidth or small form, before
 * anything but white space, with no ASCII letter or digit right before it (an e-mail address pings
 * nobody). An underscore before it does not protect it: Markdown emphasis (`_@team_`) takes it away.
 */
const MENTION_AT = /(?<![A-Za-z0-9])[@\uFF20\uFE6B](?=[^\s\u200D])/gu;

/**
 * Text for a GitHub or GitLab body, shown as written: HTML comments and tags dropped, `&` written as
 * `&amp;` (so `&#64;user`, `&commat;all` or `@&#117;ser` stay text instead of rendering as a mention;
 * the `&lt;`, `&gt;` and `&amp;` this function writes are left as they are, so it may be applied
 * twice), `<` escaped, and a zero-width joiner after every at sign that could start a mention once
 * the Markdown or HTML around it is rendered.
 */
export function neutralise(text: string): string {
  return text
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '')
    .replace(/&(?!(?:lt|gt|amp);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/--!?>/g, '--&gt;')
    .replace(MENTION_AT, `$&${ZERO_WIDTH_JOINER}`);
}

/** One table cell: neutralised, on one line, pipes escaped. */
export function tableCell(text: string): string {
  return neutralise(text).replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}

/** Line breaks (the runner and terminals split on all of these) and other control characters (ANSI escapes). */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/g;
const VISIBLE: Record<string, string> = { '\n': '\\n', '\r': '\\r' };

/**
 * Text for one runner log or terminal line. The runner executes a line whose text (after leading
 * blanks) starts with `::` and a `##[command]` anywhere in a line, so line breaks and control
 * characters are shown escaped (`\n`, `\u001b`) and both markers are broken by a zero-width joiner:
 * a file named `x\n::error::y` prints as `x\n:‍:error:‍:y`, one line the runner only shows.
 */
export function logText(text: string): string {
  return text
    .replace(CONTROL, (char) => VISIBLE[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/:(?=:)/g, `:${ZERO_WIDTH_JOINER}`)
    .replace(/#(?=#\[)/g, `#${ZERO_WIDTH_JOINER}`);
}
