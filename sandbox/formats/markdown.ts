/** GitHub-flavoured markdown rendering of a DocumentModel. */
import type { DocumentModel, DocumentSection } from '../documentModel.js';

/** Characters that would start emphasis, code, links or inline HTML. */
const INLINE_SPECIALS = /([\\`*_[\]<>])/g;
/** Line starts that would turn plain text into a heading, quote, list, rule or table. */
const BLOCK_START = /^(\s*)(#{1,6}(?=\s|$)|>|[-+*](?=\s|$)|\d{1,9}[.)](?=\s|$)|={3,}|-{3,}|\|)/;

function escapeInline(text: string): string {
  return text.replace(INLINE_SPECIALS, '\\$1');
}

/** "1." → "1\\.", "#" → "\\#": the marker stays visible but no longer starts a block. */
function escapeBlockMarker(marker: string): string {
  return /^\d/.test(marker) ? marker.replace(/([.)])$/, '\\$1') : `\\${marker}`;
}

/** Plain text as markdown that renders as the same text; line breaks inside a paragraph are kept. */
function escapeText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => escapeInline(line).replace(BLOCK_START, (_, indent: string, marker: string) => indent + escapeBlockMarker(marker)))
    .join('  \n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function tableCell(text: string): string {
  return escapeInline(text.replace(/\r\n?/g, '\n').trim()).replace(/\|/g, '\\|').replace(/\n/g, '<br>') || ' ';
}

function table(rows: string[][]): string {
  const columnCount = Math.max(0, ...rows.map((row) => row.length));
  if (columnCount === 0) return '';
  const line = (row: string[]) => `| ${Array.from({ length: columnCount }, (_, column) => tableCell(row[column] ?? '')).join(' | ')} |`;
  const [header = [], ...body] = rows;
  return [line(header), `|${' --- |'.repeat(columnCount)}`, ...body.map(line)].join('\n');
}

function section(content: DocumentSection): string[] {
  const blocks = [`## ${escapeInline(oneLine(content.heading))}`, ...content.paragraphs.map(escapeText)];
  if (content.bullets?.length) {
    blocks.push(content.bullets.map((bullet) => `- ${escapeText(bullet).replace(/\n/g, '\n  ')}`).join('\n'));
  }
  if (content.table?.length) blocks.push(table(content.table));
  return blocks;
}

export function renderMarkdown(model: DocumentModel): string {
  const blocks = [`# ${escapeInline(oneLine(model.title))}`];
  if (model.subtitle) blocks.push(`_${escapeInline(oneLine(model.subtitle))}_`);
  if (model.watermark) blocks.push(`> **${escapeInline(oneLine(model.watermark))}**`);
  if (model.meta.length > 0) {
    blocks.push(model.meta.map(([key, value]) => `- **${escapeInline(oneLine(key))}:** ${escapeInline(oneLine(value))}`).join('\n'));
  }
  for (const content of model.sections) blocks.push(...section(content));
  return `${blocks.filter((block) => block.length > 0).join('\n\n')}\n`;
}
