import { readRelationships } from './opcRelationships.js';
import { attribute, readXml } from './xmlReader.js';
import type { ZipPackage } from './zipArchive.js';

/** Built-in number formats that show dates or times (ECMA-376 Part 1, 18.8.30). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56, 57, 58]);

/** Text of shared-string items (rich text runs concatenated, phonetic hints left out). */
function sharedStrings(xml: string | undefined): string[] {
  const strings: string[] = [];
  if (!xml) return strings;
  let current = '';
  let inText = false;
  let phoneticDepth = 0;
  for (const event of readXml(xml)) {
    if (event.type === 'open') {
      if (event.name === 'si') current = '';
      else if (event.name === 'rPh' && !event.selfClosing) phoneticDepth++;
      else if (event.name === 't') inText = !event.selfClosing;
    } else if (event.type === 'close') {
      if (event.name === 'si') strings.push(current);
      else if (event.name === 'rPh') phoneticDepth--;
      else if (event.name === 't') inText = false;
    } else if (inText && phoneticDepth === 0) {
      current += event.text;
    }
  }
  return strings;
}

function isDateFormatCode(code: string): boolean {
  const visible = code.replace(/"[^"]*"|\[[^\]]*\]|\\.|_.|\*./g, '');
  return /[dmyhs]/i.test(visible) && !/^general$/i.test(visible.trim());
}

/** For each cell style index, whether its number format shows a date or time. */
function dateStyles(xml: string | undefined): boolean[] {
  if (!xml) return [];
  const customFormats = new Map<number, string>();
  const styles: boolean[] = [];
  let inCellFormats = false;
  for (const event of readXml(xml)) {
    if (event.type === 'open' && event.name === 'numFmt') {
      customFormats.set(Number(attribute(event.attributes, 'numFmtId')), attribute(event.attributes, 'formatCode') ?? '');
    } else if (event.type === 'open' && event.name === 'cellXfs') {
      inCellFormats = !event.selfClosing;
    } else if (event.type === 'close' && event.name === 'cellXfs') {
      inCellFormats = false;
    } else if (event.type === 'open' && event.name === 'xf' && inCellFormats) {
      const formatId = Number(attribute(event.attributes, 'numFmtId') ?? 0);
      const custom = customFormats.get(formatId);
      styles.push(custom !== undefined ? isDateFormatCode(custom) : BUILT_IN_DATE_FORMATS.has(formatId));
    }
  }
  return styles;
}

/** A serial date as ISO 8601 text (date only when there is no time of day). */
function serialDate(serial: number, date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, 30);
  const iso = new Date(epoch + Math.round(serial * 86_400) * 1000).toISOString();
  if (Number.isInteger(serial)) return iso.slice(0, 10);
  return serial < 1 ? iso.slice(11, 19) : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** Numbers as Excel shows them by default: up to 15 significant digits, no binary noise. */
function formatNumber(raw: string): string {
  const value = Number(raw);
  return Number.isFinite(value) ? String(Number(value.toPrecision(15))) : raw;
}

/** Zero-based column of a cell reference such as "AB12". */
function columnIndex(reference: string | undefined): number | undefined {
  const letters = reference ? /^[A-Z]+/i.exec(reference)?.[0] : undefined;
  if (!letters) return undefined;
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

interface WorkbookContext {
  strings: string[];
  dateStyles: boolean[];
  date1904: boolean;
}

/** Rows of a worksheet as lines of tab-separated cells; empty rows dropped. */
function sheetRows(xml: string, context: WorkbookContext): string[] {
  const rows: string[] = [];
  let cells: string[] = [];
  let cell: { column: number; type: string; style: number; value: string; inline: string } | undefined;
  let target: 'value' | 'inline' | undefined;
  let phoneticDepth = 0;
  for (const event of readXml(xml)) {
    if (event.type === 'open') {
      switch (event.name) {
        case 'row':
          cells = [];
          break;
        case 'c':
          cell = {
            column: columnIndex(attribute(event.attributes, 'r')) ?? cells.length,
            type: attribute(event.attributes, 't') ?? 'n',
            style: Number(attribute(event.attributes, 's') ?? 0),
            value: '',
            inline: '',
          };
          if (event.selfClosing) cell = undefined;
          break;
        case 'v':
          target = event.selfClosing ? undefined : 'value';
          break;
        case 't':
          target = event.selfClosing ? undefined : 'inline';
          break;
        case 'rPh':
          if (!event.selfClosing) phoneticDepth++;
          break;
      }
    } else if (event.type === 'close') {
      switch (event.name) {
        case 'v':
        case 't':
          target = undefined;
          break;
        case 'rPh':
          phoneticDepth--;
          break;
        case 'c':
          if (cell) {
            const text = cellText(cell, context);
            if (text) cells[cell.column] = text.replace(/[\t\r\n]+/g, ' ');
          }
          cell = undefined;
          break;
        case 'row': {
          const line = Array.from(cells, (text) => text ?? '').join('\t').replace(/\t+$/, '');
          if (line.trim()) rows.push(line);
          break;
        }
      }
    } else if (cell && target && phoneticDepth === 0) {
      if (target === 'value') cell.value += event.text;
      else cell.inline += event.text;
    }
  }
  return rows;
}

function cellText(cell: { type: string; style: number; value: string; inline: string }, context: WorkbookContext): string {
  switch (cell.type) {
    case 's':
      return context.strings[Number(cell.value)] ?? '';
    case 'inlineStr':
      return cell.inline;
    case 'str':
    case 'e':
      return cell.value;
    case 'b':
      return cell.value === '1' ? 'TRUE' : cell.value === '0' ? 'FALSE' : cell.value;
    default: {
      if (cell.value === '') return '';
      const serial = Number(cell.value);
      if (context.dateStyles[cell.style] && Number.isFinite(serial) && serial >= 0) return serialDate(serial, context.date1904);
      return formatNumber(cell.value);
    }
  }
}

/** Each sheet under "Sheet: <name>", one line per row with tab-separated cells; sheets separated by blank lines. */
export function extractXlsxText(zip: ZipPackage, workbookPart: string): string {
  const relationships = readRelationships(zip, workbookPart);
  const partOf = (type: string) => relationships.find((relationship) => relationship.type === type)?.target;
  const byId = new Map(relationships.map((relationship) => [relationship.id, relationship.target]));
  const sheets: Array<{ name: string; part: string }> = [];
  let date1904 = false;
  for (const event of readXml(zip.readText(workbookPart) ?? '')) {
    if (event.type !== 'open') continue;
    if (event.name === 'workbookPr') date1904 = /^(1|true)$/.test(attribute(event.attributes, 'date1904') ?? '');
    if (event.name !== 'sheet') continue;
    const part = byId.get(attribute(event.attributes, 'id') ?? '');
    if (part && zip.has(part)) sheets.push({ name: attribute(event.attributes, 'name') ?? `Sheet ${sheets.length + 1}`, part });
  }
  const sharedStringsPart = partOf('sharedStrings');
  const stylesPart = partOf('styles');
  const context: WorkbookContext = {
    strings: sharedStrings(sharedStringsPart ? zip.readText(sharedStringsPart) : undefined),
    dateStyles: dateStyles(stylesPart ? zip.readText(stylesPart) : undefined),
    date1904,
  };
  return sheets
    .map(({ name, part }) => {
      const rows = sheetRows(zip.readText(part) ?? '', context);
      return rows.length > 0 ? `Sheet: ${name}\n${rows.join('\n')}` : '';
    })
    .filter(Boolean)
    .join('\n\n');
}
