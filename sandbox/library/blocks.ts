/**
 * The block structure of a plain-text or markdown document, with 1-based line numbers: headings,
 * paragraphs, list items and table rows, each knowing its section (nearest preceding heading) and
 * source file (nearest preceding `=== FILE: path ===` header of a combined policy set).
 */
import { SOURCE_FILE_HEADER_PATTERN } from '../../api/schemas/common.js';

type BlockKind = 'heading' | 'paragraph' | 'list-item' | 'table-row';

export interface TextBlock {
  kind: BlockKind;
  /** The block's lines, markers (#, -, 1.) and indentation removed, joined with \n. */
  text: string;
  /** 1-based line of the block's first line. */
  line: number;
  /** Offset in `text` where each of its lines starts (lineOffsets[0] is 0). */
  lineOffsets: number[];
  /** Nearest preceding heading (for a heading block: the heading itself). */
  section?: string;
  /** Nearest preceding file header's path. */
  source?: string;
  /** Line of that file header: `line - sourceLine` is the line within the source file. */
  sourceLine?: number;
}

const ATX_HEADING = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/;
const SETEXT_UNDERLINE = /^\s{0,3}(=+|-+)\s*$/;
const LIST_ITEM = /^\s*(?:[-*+•]|\d{1,3}[.)]|[a-z][.)])\s+(.*)$/;
const TABLE_ROW = /^\s*\|(.*)\|?\s*$/;
const TABLE_SEPARATOR = /^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const FENCE = /^\s*(```|~~~)/;
/** Bold-only lines ("**Access reviews**") act as headings in many exported policies. */
const BOLD_HEADING = /^\s*(?:\*\*|__)([^*_]{2,120})(?:\*\*|__)\s*:?\s*$/;

/** Splits text into blocks; `\r\n` and `\r` count as line ends. */
export function parseBlocks(text: string): TextBlock[] {
  const lines = text.split(/\r\n?|\n/);
  const blocks: TextBlock[] = [];
  let section: string | undefined;
  let source: string | undefined;
  let sourceLine: number | undefined;
  let open: TextBlock | undefined;
  let inFence = false;

  const close = (): void => {
    if (open) blocks.push(open);
    open = undefined;
  };
  const context = (): Pick<TextBlock, 'section' | 'source' | 'sourceLine'> => ({
    ...(section !== undefined ? { section } : {}),
    ...(source !== undefined ? { source, sourceLine } : {}),
  });
  const start = (kind: BlockKind, body: string, line: number): void => {
    close();
    open = { kind, text: body, line, lineOffsets: [0], ...context() };
  };
  const heading = (title: string, line: number): void => {
    close();
    section = title.replace(/[*_`]/g, '').trim() || section;
    blocks.push({ kind: 'heading', text: title, line, lineOffsets: [0], ...context() });
  };

  lines.forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    const file = SOURCE_FILE_HEADER_PATTERN.exec(trimmed);
    if (file?.[1]) {
      close();
      source = file[1].trim();
      sourceLine = line;
      section = undefined;
      inFence = false;
      return;
    }
    if (FENCE.test(raw)) {
      inFence = !inFence;
      close();
      return;
    }
    if (!trimmed) {
      close();
      return;
    }
    if (!inFence) {
      const atx = ATX_HEADING.exec(raw);
      if (atx) return heading(atx[1] ?? '', line);
      const bold = BOLD_HEADING.exec(raw);
      if (bold && !open) return heading(bold[1] ?? '', line);
      if (SETEXT_UNDERLINE.test(raw) && open?.kind === 'paragraph' && open.lineOffsets.length === 1) {
        const title = open.text;
        const titleLine = open.line;
        open = undefined;
        return heading(title, titleLine);
      }
      if (TABLE_SEPARATOR.test(raw) && raw.includes('-') && raw.includes('|')) return;
      const row = TABLE_ROW.exec(raw);
      if (row) {
        const cells = (row[1] ?? '').split('|').map((cell) => cell.trim()).filter(Boolean);
        return start('table-row', cells.join(' | '), line);
      }
      const item = LIST_ITEM.exec(raw);
      if (item) return start('list-item', (item[1] ?? '').trim(), line);
    }
    if (open && (open.kind === 'paragraph' || open.kind === 'list-item')) {
      open.lineOffsets.push(open.text.length + 1);
      open.text += `\n${trimmed}`;
      return;
    }
    start('paragraph', trimmed, line);
  });
  close();
  return blocks;
}

/** The 1-based line of an offset inside a block's text. */
export function lineOfOffset(block: TextBlock, offset: number): number {
  let index = 0;
  while (index + 1 < block.lineOffsets.length && (block.lineOffsets[index + 1] ?? Infinity) <= offset) index++;
  return block.line + index;
}
