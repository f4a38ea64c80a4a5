/**
 * What GitHub or GitLab would ping in a body we send: the body rendered as a forge renders it (each
 * character reference decoded once, HTML comments and tags dropped, Markdown's emphasis, code and
 * escape marks taken away, compatibility forms folded as NFKC folds the fullwidth @), then every `@`
 * that no ASCII letter or digit precedes and a name character follows: GitHub's users, teams and
 * `@org/team`, GitLab's users, groups and `@all`. A zero-width joiner after the @ ends a name.
 */

/** Mentions written every way issue 37 found, and the ways before it (issue 25): each would ping someone if sent as it is. */
export const MENTION_FORMS = [
  '@octocat',
  '@@admin-team',
  '`@security-team',
  'cc @org/admins',
  '(@bob)',
  '**@carol**',
  '&#64;user',
  '&#064;user',
  '&commat;user',
  '&#x40;user',
  '&#X40;user',
  '@&#117;ser',
  '&#64;&#117;ser',
  '&#64;all',
  '&commat;all',
  '＠octocat',
  '﹫octocat',
  '_@ghost_',
  '\\@escaped',
  '[@linked](https://example.com)',
  '@<b></b>tagged',
  '@<!-- hidden -->commented',
  '<span>@spanned</span>',
  '@_gitlab.user',
  '@all',
];

const NAMED: Readonly<Record<string, string>> = { commat: '@', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", lowbar: '_', ast: '*', grave: '`', bsol: '\\', nbsp: '\u00A0' };

/** One pass of character-reference decoding, as a Markdown renderer does (`&amp;#64;` stays `&#64;`). */
function decodeReferencesOnce(text: string): string {
  return text.replace(/&(?:#(\d+)|#[xX]([0-9A-Fa-f]+)|([A-Za-z]+));?/g, (whole, decimal?: string, hex?: string, name?: string) => {
    if (decimal !== undefined || hex !== undefined) {
      const code = decimal !== undefined ? Number(decimal) : parseInt(hex!, 16);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED[name!] ?? whole;
  });
}

/** The mentions a forge would ping in `body` (empty: it pings nobody). */
export function liveMentions(body: string): string[] {
  const rendered = decodeReferencesOnce(
    body
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<\/?[A-Za-z][^<>]*>/g, '')
      .replace(/\\([!-/:-@[-`{-~])/g, '$1')
      .replace(/[*_~`]/g, ''),
  ).normalize('NFKC');
  return rendered.match(/(?<![A-Za-z0-9])@[A-Za-z0-9_.][\w./-]*/g) ?? [];
}
