/**
 * Serialises pages into a PDF 1.7 file: catalog, page tree, the two standard Helvetica fonts with
 * WinAnsiEncoding, one compressed content stream per page, the document information dictionary and
 * a cross-reference table whose offsets are computed from the bytes actually written.
 */
import { createHash } from 'node:crypto';
import { zlibSync } from 'fflate';
import { BASE_FONT_NAMES } from './helveticaMetrics.js';

interface PdfFileContent {
  title: string;
  producer: string;
  /** Written as /CreationDate and /ModDate when known; omitted otherwise (output stays deterministic). */
  creationDate?: Date;
  pageWidth: number;
  pageHeight: number;
  /** One content stream per page, as a byte string (every UTF-16 unit 0..255). */
  pageContents: string[];
}

/** Resource names the content streams use for the fonts. */
export const FONT_RESOURCE = { regular: 'F1', bold: 'F2' } as const;

const CATALOG = 1;
const PAGE_TREE = 2;
const FONT_REGULAR = 3;
const FONT_BOLD = 4;
const INFO = 5;
const FIRST_PAGE_OBJECT = 6;

function byteStringToBytes(value: string): Uint8Array {
  const bytes = new Uint8Array(value.length);
  for (let i = 0; i < value.length; i++) bytes[i] = value.charCodeAt(i) & 0xff;
  return bytes;
}

/** A PDF text string (for the information dictionary): UTF-16BE with byte order mark, hex-encoded. */
function pdfTextString(value: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < value.length; i++) hex += value.charCodeAt(i).toString(16).padStart(4, '0').toUpperCase();
  return `<${hex}>`;
}

function pdfDate(date: Date): string {
  const iso = date.toISOString(); // 2024-01-31T12:00:00.000Z
  return `(D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z)`;
}

function fixed(value: number): string {
  return Number(value.toFixed(2)).toString();
}

export function writePdfFile(content: PdfFileContent): Uint8Array {
  const pageCount = content.pageContents.length;
  const pageObject = (index: number) => FIRST_PAGE_OBJECT + index * 2;
  const objects = new Map<number, Uint8Array[]>();
  const put = (id: number, ...parts: Array<string | Uint8Array>) =>
    objects.set(id, parts.map((part) => (typeof part === 'string' ? byteStringToBytes(part) : part)));

  put(CATALOG, `<< /Type /Catalog /Pages ${PAGE_TREE} 0 R /ViewerPreferences << /DisplayDocTitle true >> >>`);
  const kids = content.pageContents.map((_, index) => `${pageObject(index)} 0 R`).join(' ');
  put(PAGE_TREE, `<< /Type /Pages /Kids [${kids}] /Count ${pageCount} >>`);
  for (const [id, face] of [[FONT_REGULAR, 'regular'], [FONT_BOLD, 'bold']] as const) {
    put(id, `<< /Type /Font /Subtype /Type1 /BaseFont /${BASE_FONT_NAMES[face]} /Encoding /WinAnsiEncoding >>`);
  }
  const dates = content.creationDate ? ` /CreationDate ${pdfDate(content.creationDate)} /ModDate ${pdfDate(content.creationDate)}` : '';
  put(INFO, `<< /Title ${pdfTextString(content.title)} /Producer ${pdfTextString(content.producer)}${dates} >>`);

  const mediaBox = `[0 0 ${fixed(content.pageWidth)} ${fixed(content.pageHeight)}]`;
  const resources = `<< /Font << /${FONT_RESOURCE.regular} ${FONT_REGULAR} 0 R /${FONT_RESOURCE.bold} ${FONT_BOLD} 0 R >> >>`;
  content.pageContents.forEach((stream, index) => {
    const id = pageObject(index);
    put(id, `<< /Type /Page /Parent ${PAGE_TREE} 0 R /MediaBox ${mediaBox} /Resources ${resources} /Contents ${id + 1} 0 R >>`);
    const compressed = zlibSync(byteStringToBytes(stream), { level: 6 });
    put(id + 1, `<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`, compressed, '\nendstream');
  });

  const chunks: Uint8Array[] = [];
  let offset = 0;
  const emit = (part: string | Uint8Array) => {
    const bytes = typeof part === 'string' ? byteStringToBytes(part) : part;
    chunks.push(bytes);
    offset += bytes.length;
  };
  // The comment line of high bytes marks the file as binary for transfer tools.
  emit('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const objectCount = FIRST_PAGE_OBJECT + pageCount * 2;
  const offsets: number[] = [];
  for (let id = 1; id < objectCount; id++) {
    offsets[id] = offset;
    emit(`${id} 0 obj\n`);
    for (const part of objects.get(id) ?? []) emit(part);
    emit('\nendobj\n');
  }
  const body = concat(chunks, offset);
  const fileId = createHash('md5').update(body).digest('hex').toUpperCase();

  const xrefOffset = offset;
  let trailer = `xref\n0 ${objectCount}\n0000000000 65535 f \n`;
  for (let id = 1; id < objectCount; id++) trailer += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  trailer += `trailer\n<< /Size ${objectCount} /Root ${CATALOG} 0 R /Info ${INFO} 0 R /ID [<${fileId}> <${fileId}>] >>\n`;
  trailer += `startxref\n${xrefOffset}\n%%EOF\n`;
  return concat([body, byteStringToBytes(trailer)], body.length + trailer.length);
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
