/**
 * The text the mapping engine reads from an extracted upload. Slides and sheets put one text frame or
 * row per line under a "Slide N" / "Sheet: name" line; read as plain text, those lines would run into
 * one paragraph and a slide's title would be quoted as the start of its first sentence. Here each
 * slide or sheet becomes a section (so evidence names "Slide 4" or "Sheet: Controls" as its
 * location); each line of a slide is a paragraph of its own and each row of a sheet a table row
 * (cells joined by " | "; the mapping quotes the row's statement cell and reads the other cells as
 * its labels). DOCX, PDF and text pass unchanged.
 */
export function mappingTextOfUpload(text: string, kind: string): string {
  if (kind !== 'pptx' && kind !== 'xlsx') return text;
  const unit = kind === 'pptx' ? /^Slide \d+$/ : /^Sheet: .+$/;
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      if (unit.test(line)) return `## ${line}`;
      if (kind === 'xlsx') return `| ${line.split('\t').map((cell) => cell.trim().replace(/\|/g, '/')).filter(Boolean).join(' | ')} |`;
      return line;
    })
    .join('\n\n');
}
