/**
 * YAML front matter of a Markdown document (`---` on the first line, closed by `---` or `...`): a
 * document may declare there what it satisfies. It is metadata, never policy text: what is mapped
 * has the block blanked out, line for line, so every other line keeps its number and the price
 * (per upload) is the same. No YAML parser here: the n8n nodes bundle the mapping and take no
 * dependencies; parsing lives in declarations.ts.
 */

/** The front matter's lines (0-based, both delimiters included) and its YAML text, or undefined. */
export function frontMatterBlock(content: string): { endLine: number; yaml: string } | undefined {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return undefined;
  const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (close < 0) return undefined;
  return { endLine: close, yaml: lines.slice(1, close).join('\n') };
}

/** The content with its front matter replaced by as many empty lines. */
export function blankFrontMatter(content: string): string {
  const block = frontMatterBlock(content);
  if (!block) return content;
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  return [...lines.slice(0, block.endLine + 1).map(() => ''), ...lines.slice(block.endLine + 1)].join('\n');
}
