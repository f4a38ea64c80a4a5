/**
 * Search snippets come from the service as HTML: escaped text with the matched terms in
 * <mark>…</mark>. n8n users and models want text: plain text with the highlights as character
 * offsets (the default), or markdown emphasis; the HTML stays available as sent.
 */
export type SnippetFormat = 'plain' | 'markdown' | 'html';

interface Highlight {
  start: number;
  end: number;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", '#39': "'", nbsp: ' ' };

function decode(html: string): string {
  return html.replace(/<[^>]*>/g, '').replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (ENTITIES[name] !== undefined) return ENTITIES[name];
    const code = name.startsWith('#x') || name.startsWith('#X') ? Number.parseInt(name.slice(2), 16) : name.startsWith('#') ? Number(name.slice(1)) : NaN;
    return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
  });
}

/** One snippet as plain text and the [start, end) offsets of its highlighted terms. */
function plainSnippet(html: string): { text: string; highlights: Highlight[] } {
  let text = '';
  const highlights: Highlight[] = [];
  for (const [index, part] of html.split(/<\/?mark>/i).entries()) {
    const decoded = decode(part);
    // split alternates outside/inside <mark>…</mark>.
    if (index % 2 === 1 && decoded) highlights.push({ start: text.length, end: text.length + decoded.length });
    text += decoded;
  }
  return { text, highlights };
}

/** The snippets of one hit in the chosen format, with `snippetHighlights` beside plain text. */
export function formatSnippets(snippets: string[], format: SnippetFormat): { snippets: string[]; snippetHighlights?: Highlight[][] } {
  if (format === 'html') return { snippets };
  const plain = snippets.map(plainSnippet);
  if (format === 'plain') return { snippets: plain.map((snippet) => snippet.text), snippetHighlights: plain.map((snippet) => snippet.highlights) };
  return {
    snippets: plain.map(({ text, highlights }) => {
      let out = '';
      let at = 0;
      for (const { start, end } of highlights) {
        out += `${text.slice(at, start)}**${text.slice(start, end)}**`;
        at = end;
      }
      return out + text.slice(at);
    }),
  };
}
