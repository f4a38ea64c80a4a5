/** word/document.xml: title block, watermark notice, meta lines, sections with headings, paragraphs, bullets and tables. */
import type { DocumentModel, DocumentSection } from '../../documentModel.js';
import { XML_DECLARATION } from '../xml.js';
import { BULLET_NUMBERING_ID, STYLE } from './styles.js';
import { CONTENT_WIDTH_TWIPS, NS, PAGE, paragraph, run } from './wordXml.js';

/** Relationship ids of document.xml.rels that the body refers to. */
export const BODY_RELATIONSHIP = { header: 'rIdHeader1', footer: 'rIdFooter1' } as const;

const TABLE_HEADER_FILL = 'E7E6E6';
const BULLET_NUMBERING = `<w:numPr><w:ilvl w:val="0"/><w:numId w:val="${BULLET_NUMBERING_ID}"/></w:numPr>`;

/** Grid column widths in twips, shared out by each column's longest cell text (bounded so no column vanishes). */
function columnWidths(rows: string[][], columnCount: number): number[] {
  const weights = Array.from({ length: columnCount }, (_, column) =>
    Math.min(60, Math.max(6, ...rows.map((row) => (row[column] ?? '').length))),
  );
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const widths = weights.map((weight) => Math.floor((weight / total) * CONTENT_WIDTH_TWIPS));
  widths[widths.length - 1] = (widths.at(-1) ?? 0) + CONTENT_WIDTH_TWIPS - widths.reduce((sum, width) => sum + width, 0);
  return widths;
}

function table(rows: string[][]): string {
  const columnCount = Math.max(0, ...rows.map((row) => row.length));
  if (columnCount === 0) return '';
  const widths = columnWidths(rows, columnCount);
  const cell = (text: string, column: number, header: boolean) =>
    `<w:tc><w:tcPr><w:tcW w:w="${widths[column]}" w:type="dxa"/>${header ? `<w:shd w:val="clear" w:color="auto" w:fill="${TABLE_HEADER_FILL}"/>` : ''}</w:tcPr>` +
    `${paragraph(STYLE.tableText, text ? run(text, header ? '<w:b/>' : '') : '')}</w:tc>`;
  const rowXml = (row: string[], header: boolean) =>
    `<w:tr>${header ? '<w:trPr><w:cantSplit/><w:tblHeader/></w:trPr>' : '<w:trPr><w:cantSplit/></w:trPr>'}` +
    Array.from({ length: columnCount }, (_, column) => cell(row[column] ?? '', column, header)).join('') +
    '</w:tr>';
  return (
    `<w:tbl><w:tblPr><w:tblStyle w:val="${STYLE.tableGrid}"/><w:tblW w:w="${CONTENT_WIDTH_TWIPS}" w:type="dxa"/><w:tblLayout w:type="fixed"/>` +
    '<w:tblLook w:val="04A0" w:firstRow="1" w:lastRow="0" w:firstColumn="0" w:lastColumn="0" w:noHBand="0" w:noVBand="1"/></w:tblPr>' +
    `<w:tblGrid>${widths.map((width) => `<w:gridCol w:w="${width}"/>`).join('')}</w:tblGrid>` +
    rows.map((row, index) => rowXml(row, index === 0)).join('') +
    '</w:tbl>' +
    // Word needs a paragraph between a table and what follows; it also spaces the table.
    paragraph(undefined, '')
  );
}

function section(content: DocumentSection): string {
  return [
    paragraph(STYLE.heading1, run(content.heading.replace(/\s+/g, ' ').trim())),
    ...content.paragraphs.map((text) => paragraph(undefined, run(text))),
    // numPr on the paragraph as well as in the style: readers that ignore style numbering still see a list.
    ...(content.bullets ?? []).map((text) => paragraph(STYLE.listBullet, run(text), BULLET_NUMBERING)),
    content.table?.length ? table(content.table) : '',
  ].join('');
}

export function documentXml(model: DocumentModel): string {
  const body = [
    paragraph(STYLE.title, run(model.title)),
    model.subtitle ? paragraph(STYLE.subtitle, run(model.subtitle)) : '',
    model.watermark ? paragraph(STYLE.watermarkNotice, run(model.watermark)) : '',
    ...model.meta.map(([key, value]) => paragraph(STYLE.meta, run(`${key}: `, '<w:b/>') + run(value))),
    ...model.sections.map(section),
  ].join('\n');
  const headerReference = model.watermark ? `<w:headerReference w:type="default" r:id="${BODY_RELATIONSHIP.header}"/>` : '';
  const sectionProperties =
    `<w:sectPr>${headerReference}<w:footerReference w:type="default" r:id="${BODY_RELATIONSHIP.footer}"/>` +
    `<w:pgSz w:w="${PAGE.width}" w:h="${PAGE.height}"/>` +
    `<w:pgMar w:top="${PAGE.marginY}" w:right="${PAGE.marginX}" w:bottom="${PAGE.marginY}" w:left="${PAGE.marginX}" w:header="${PAGE.headerFooter}" w:footer="${PAGE.headerFooter}" w:gutter="0"/>` +
    '<w:cols w:space="708"/></w:sectPr>';
  return `${XML_DECLARATION}<w:document xmlns:w="${NS.w}" xmlns:r="${NS.r}"><w:body>\n${body}\n${sectionProperties}</w:body></w:document>`;
}
