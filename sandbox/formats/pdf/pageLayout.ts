/**
 * Lays a DocumentModel out on A4 pages: title block, meta lines, headings kept with what follows,
 * wrapped paragraphs, bullets with hanging indent, tables with wrapped cells and a header row
 * repeated on each page, and on every page the watermark (diagonal and as a header line), the
 * document title and "Page N of M".
 */
import type { DocumentModel, DocumentSection } from '../../documentModel.js';
import type { DrawOp } from './contentStream.js';
import { textWidth } from './helveticaMetrics.js';
import { fitLine, truncateLines, wrapText, type TextStyle } from './textWrap.js';
import { toWinAnsi, WIN_ANSI_BULLET } from './winAnsi.js';

/** A4 in points. */
export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;

const MARGIN_X = 56.69; // 20 mm
const CONTENT_TOP = PAGE_HEIGHT - 66;
const CONTENT_BOTTOM = 62;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN_X;
const HEADER_BASELINE = PAGE_HEIGHT - 38;
const FOOTER_BASELINE = 34;

interface BlockStyle extends TextStyle {
  leading: number;
  gray: number;
}

const STYLES = {
  title: { face: 'bold', size: 20, leading: 25, gray: 0 },
  subtitle: { face: 'regular', size: 12, leading: 16, gray: 0.3 },
  metaKey: { face: 'bold', size: 9.5, leading: 13, gray: 0.2 },
  metaValue: { face: 'regular', size: 9.5, leading: 13, gray: 0.2 },
  heading: { face: 'bold', size: 14, leading: 19, gray: 0 },
  body: { face: 'regular', size: 10, leading: 14, gray: 0 },
  tableHeader: { face: 'bold', size: 9, leading: 12, gray: 0 },
  tableCell: { face: 'regular', size: 9, leading: 12, gray: 0 },
  pageFurniture: { face: 'regular', size: 8, leading: 10, gray: 0.45 },
  diagonalWatermark: { face: 'bold', size: 60, leading: 60, gray: 0.88 },
} as const satisfies Record<string, BlockStyle>;

const PARAGRAPH_GAP = 6;
const SECTION_GAP = 12;
const BULLET_INDENT = 16;
const CELL_PADDING = 4;
const MAX_CELL_LINES = 40;
const TABLE_RULE_GRAY = 0.6;
const TABLE_HEADER_FILL = 0.9;

/** Collapses line breaks and runs of whitespace, for text drawn on a single line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Baseline of a line whose box starts at `top`, glyphs centred vertically in the leading. */
function baseline(top: number, style: BlockStyle): number {
  return top - style.leading / 2 - ((0.718 - 0.207) * style.size) / 2;
}

class PageComposer {
  readonly pages: DrawOp[][] = [[]];
  private y = CONTENT_TOP;

  private get ops(): DrawOp[] {
    return this.pages[this.pages.length - 1] as DrawOp[];
  }

  private get atPageTop(): boolean {
    return this.y === CONTENT_TOP;
  }

  newPage(): void {
    this.pages.push([]);
    this.y = CONTENT_TOP;
  }

  /** Vertical space, dropped at the top of a page. */
  gap(height: number): void {
    if (!this.atPageTop) this.y -= height;
  }

  /** Starts a new page unless `height` still fits on this one (or this page is empty). */
  ensure(height: number): void {
    if (this.y - height < CONTENT_BOTTOM && !this.atPageTop) this.newPage();
  }

  text(x: number, top: number, line: string, style: BlockStyle): void {
    if (line) this.ops.push({ kind: 'text', x, y: baseline(top, style), text: line, face: style.face, size: style.size, gray: style.gray });
  }

  /** Wrapped lines at x; `keepWithNext` extra height must fit below the first line. */
  lines(lines: string[], style: BlockStyle, x: number, keepWithNext = 0): void {
    lines.forEach((line, index) => {
      this.ensure(style.leading + (index === 0 ? keepWithNext : 0));
      this.text(x, this.y, line, style);
      this.y -= style.leading;
    });
  }

  heading(text: string): void {
    this.gap(SECTION_GAP);
    const lines = wrapText(toWinAnsi(text), STYLES.heading, CONTENT_WIDTH);
    // Keep the heading with at least two lines of what follows.
    this.ensure(lines.length * STYLES.heading.leading + 2 * STYLES.body.leading + 4);
    this.lines(lines, STYLES.heading, MARGIN_X);
    this.y -= 4;
  }

  paragraph(text: string, style: BlockStyle = STYLES.body): void {
    this.lines(wrapText(toWinAnsi(text), style, CONTENT_WIDTH), style, MARGIN_X);
    this.y -= PARAGRAPH_GAP;
  }

  bullet(text: string): void {
    const style = STYLES.body;
    const lines = wrapText(toWinAnsi(text), style, CONTENT_WIDTH - BULLET_INDENT);
    lines.forEach((line, index) => {
      this.ensure(style.leading);
      if (index === 0) this.text(MARGIN_X + 4, this.y, WIN_ANSI_BULLET, style);
      this.text(MARGIN_X + BULLET_INDENT, this.y, line, style);
      this.y -= style.leading;
    });
    this.y -= 2;
  }

  rule(gray = 0.75): void {
    this.ops.push({ kind: 'line', x1: MARGIN_X, y1: this.y, x2: PAGE_WIDTH - MARGIN_X, y2: this.y, gray, lineWidth: 0.75 });
  }

  /** Key/value lines: bold key column, wrapped value column. */
  meta(entries: Array<[string, string]>): void {
    const keys = entries.map(([key]) => toWinAnsi(`${oneLine(key)}:`));
    const keyWidth = Math.min(Math.max(0, ...keys.map((key) => textWidth(key, STYLES.metaKey.face, STYLES.metaKey.size))) + 8, CONTENT_WIDTH * 0.35);
    entries.forEach(([, value], index) => {
      const valueLines = wrapText(toWinAnsi(value), STYLES.metaValue, CONTENT_WIDTH - keyWidth);
      this.ensure(STYLES.metaValue.leading);
      this.text(MARGIN_X, this.y, fitLine(keys[index] ?? '', STYLES.metaKey, keyWidth - 4), STYLES.metaKey);
      this.lines(valueLines, STYLES.metaValue, MARGIN_X + keyWidth);
    });
  }

  table(rows: string[][]): void {
    const columnCount = Math.max(0, ...rows.map((row) => row.length));
    if (columnCount === 0) return;
    const encoded = rows.map((row) => Array.from({ length: columnCount }, (_, column) => toWinAnsi(row[column] ?? '')));
    const widths = columnWidths(encoded, CONTENT_WIDTH);
    const layoutRow = (row: string[], style: BlockStyle) =>
      row.map((cell, column) => {
        const inner = (widths[column] ?? 0) - 2 * CELL_PADDING;
        return truncateLines(wrapText(cell, style, inner), MAX_CELL_LINES, style, inner);
      });
    const header = layoutRow(encoded[0] ?? [], STYLES.tableHeader);
    const drawRow = (cells: string[][], style: BlockStyle, fill?: number) => {
      const height = Math.max(...cells.map((lines) => lines.length)) * style.leading + 2 * CELL_PADDING;
      let x = MARGIN_X;
      cells.forEach((lines, column) => {
        const width = widths[column] ?? 0;
        this.ops.push({ kind: 'rect', x, y: this.y - height, width, height, fillGray: fill, strokeGray: TABLE_RULE_GRAY, lineWidth: 0.5 });
        lines.forEach((line, index) => this.text(x + CELL_PADDING, this.y - CELL_PADDING - index * style.leading, line, style));
        x += width;
      });
      this.y -= height;
    };
    const rowHeight = (cells: string[][], style: BlockStyle) => Math.max(...cells.map((lines) => lines.length)) * style.leading + 2 * CELL_PADDING;
    const headerHeight = rowHeight(header, STYLES.tableHeader);

    this.ensure(headerHeight + STYLES.tableCell.leading + 2 * CELL_PADDING);
    drawRow(header, STYLES.tableHeader, TABLE_HEADER_FILL);
    for (const row of encoded.slice(1)) {
      const cells = layoutRow(row, STYLES.tableCell);
      if (this.y - rowHeight(cells, STYLES.tableCell) < CONTENT_BOTTOM) {
        this.newPage();
        drawRow(header, STYLES.tableHeader, TABLE_HEADER_FILL);
      }
      drawRow(cells, STYLES.tableCell);
    }
    this.y -= PARAGRAPH_GAP + 2;
  }

  section(section: DocumentSection): void {
    this.heading(section.heading);
    for (const paragraph of section.paragraphs) this.paragraph(paragraph);
    if (section.bullets?.length) {
      for (const bullet of section.bullets) this.bullet(bullet);
      this.y -= PARAGRAPH_GAP - 2;
    }
    if (section.table?.length) this.table(section.table);
  }
}

/**
 * Column widths that fill `available`: natural widths when they fit, otherwise each column gets at
 * least its longest word (up to an equal share) and the rest goes to the columns with the most text.
 */
function columnWidths(rows: string[][], available: number): number[] {
  const columnCount = rows[0]?.length ?? 0;
  const natural = new Array<number>(columnCount).fill(0);
  const minimum = new Array<number>(columnCount).fill(0);
  rows.forEach((row, rowIndex) => {
    const style = rowIndex === 0 ? STYLES.tableHeader : STYLES.tableCell;
    row.forEach((cell, column) => {
      const longestLine = Math.max(0, ...cell.split('\n').map((line) => textWidth(line, style.face, style.size)));
      const longestWord = Math.max(0, ...cell.split(/[ \n]/).map((word) => textWidth(word, style.face, style.size)));
      natural[column] = Math.max(natural[column] ?? 0, longestLine + 2 * CELL_PADDING + 1);
      minimum[column] = Math.max(minimum[column] ?? 0, Math.min(longestWord + 2 * CELL_PADDING + 1, available / columnCount));
    });
  });
  const naturalTotal = natural.reduce((sum, width) => sum + width, 0);
  if (naturalTotal <= available) return natural.map((width) => (width / naturalTotal) * available);
  const minimumTotal = minimum.reduce((sum, width) => sum + width, 0);
  const flexible = natural.map((width, column) => width - (minimum[column] ?? 0));
  const flexibleTotal = flexible.reduce((sum, width) => sum + width, 0);
  return minimum.map((width, column) => width + (flexibleTotal > 0 ? ((flexible[column] ?? 0) / flexibleTotal) * (available - minimumTotal) : 0));
}

/** Watermark across the page diagonal, as large as fits, in light grey under the content. */
function diagonalWatermark(watermark: string): DrawOp {
  const style = STYLES.diagonalWatermark;
  const angle = (Math.atan2(PAGE_HEIGHT, PAGE_WIDTH) * 180) / Math.PI;
  const diagonal = Math.hypot(PAGE_WIDTH, PAGE_HEIGHT);
  const naturalWidth = textWidth(watermark, style.face, style.size);
  const size = Math.max(14, Math.min(style.size, (style.size * diagonal * 0.7) / Math.max(naturalWidth, 1)));
  const width = textWidth(watermark, style.face, size);
  const radians = (angle * Math.PI) / 180;
  // Start so that the text's centre (mid-width, mid cap height) lands on the page centre.
  const x = PAGE_WIDTH / 2 - (Math.cos(radians) * width) / 2 + (Math.sin(radians) * size * 0.718) / 2;
  const y = PAGE_HEIGHT / 2 - (Math.sin(radians) * width) / 2 - (Math.cos(radians) * size * 0.718) / 2;
  return { kind: 'text', x, y, text: watermark, face: style.face, size, gray: style.gray, angle };
}

function pageFurniture(model: DocumentModel, pageNumber: number, pageCount: number): DrawOp[] {
  const style = STYLES.pageFurniture;
  const ops: DrawOp[] = [];
  const pageLabel = toWinAnsi(`Page ${pageNumber} of ${pageCount}`);
  const pageLabelWidth = textWidth(pageLabel, style.face, style.size);
  const title = fitLine(toWinAnsi(oneLine(model.title)), style, CONTENT_WIDTH - pageLabelWidth - 24);
  ops.push({ kind: 'text', x: MARGIN_X, y: FOOTER_BASELINE, text: title, face: style.face, size: style.size, gray: style.gray });
  ops.push({ kind: 'text', x: PAGE_WIDTH - MARGIN_X - pageLabelWidth, y: FOOTER_BASELINE, text: pageLabel, face: style.face, size: style.size, gray: style.gray });
  if (model.watermark) {
    const header = fitLine(toWinAnsi(oneLine(model.watermark)), { ...style, face: 'bold' }, CONTENT_WIDTH);
    const width = textWidth(header, 'bold', style.size);
    ops.push({ kind: 'text', x: (PAGE_WIDTH - width) / 2, y: HEADER_BASELINE, text: header, face: 'bold', size: style.size, gray: style.gray });
    ops.push({ kind: 'line', x1: MARGIN_X, y1: HEADER_BASELINE - 6, x2: PAGE_WIDTH - MARGIN_X, y2: HEADER_BASELINE - 6, gray: 0.8, lineWidth: 0.5 });
  }
  return ops;
}

/** Every page's drawing operations, in painting order (watermark first, so content covers it). */
export function layoutPages(model: DocumentModel): DrawOp[][] {
  const composer = new PageComposer();
  composer.lines(wrapText(toWinAnsi(model.title), STYLES.title, CONTENT_WIDTH), STYLES.title, MARGIN_X);
  if (model.subtitle) composer.paragraph(model.subtitle, STYLES.subtitle);
  if (model.meta.length > 0) {
    composer.gap(4);
    composer.meta(model.meta);
  }
  composer.gap(8);
  composer.rule();
  composer.gap(4);
  for (const section of model.sections) composer.section(section);

  const pageCount = composer.pages.length;
  const watermark = model.watermark ? diagonalWatermark(toWinAnsi(oneLine(model.watermark))) : undefined;
  return composer.pages.map((content, index) => [
    ...(watermark ? [watermark] : []),
    ...pageFurniture(model, index + 1, pageCount),
    ...content,
  ]);
}
