/**
 * YAML front matter of a Markdown document (`---` on the first line, closed by `---` or `...`): a
 * document may declare there what it satisfies. It is metadata, never policy text: what is mapped
 * has the block blanked out, line for line, so every other line keeps its number (evidence lines
 * point at the file as committed); what the library stores has it removed, so editing the front
 * matter (even adding a line to it) never makes the text differ and never costs a refresh. Prices
 * are per call, so neither changes a price. No YAML parser here: the n8n nodes bundle the mapping
 * and take no dependencies; parsing lives in declarations.ts.
 */

/**
 * Every YAML read of repository text: errors are thrown (and shown through our escaping), warnings
 * never printed. The library would print them raw to stderr, quoting the line they are about, and a
 * runner reads a line that starts with `::` as a workflow command. Here, not in config.ts, so that
 * reading declarations (which the n8n node bundles) does not load compliance.yml's schema.
 */
export const YAML_LOG_LEVEL = 'error';

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

/** The content without its front matter and the blank lines before its text: the policy text the library stores. */
export function removeFrontMatter(content: string): string {
  return blankFrontMatter(content).replace(/^(?:[ \t]*\r?\n)+/, '');
}
