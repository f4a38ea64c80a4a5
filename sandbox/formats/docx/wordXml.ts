/** WordprocessingML building blocks shared by the document body, header and footer parts. */
import { escapeXml } from '../xml.js';

export const NS = {
  w: 'http://schemas.openxmlformats.org/wordprocessingml/2006/main',
  r: 'http://schemas.openxmlformats.org/officeDocument/2006/relationships',
  v: 'urn:schemas-microsoft-com:vml',
  o: 'urn:schemas-microsoft-com:office:office',
  w10: 'urn:schemas-microsoft-com:office:word',
} as const;

/** Page geometry in twentieths of a point: A4 with 2 cm side margins. */
export const PAGE = { width: 11906, height: 16838, marginX: 1134, marginY: 1417, headerFooter: 708 } as const;
export const CONTENT_WIDTH_TWIPS = PAGE.width - 2 * PAGE.marginX;

/** A run of text; line breaks become <w:br/>, tabs <w:tab/>. `properties` is the inner XML of <w:rPr>. */
export function run(text: string, properties = ''): string {
  const pieces = text.replace(/\r\n?/g, '\n').split(/(\n|\t)/);
  const content = pieces
    .map((piece) => (piece === '\n' ? '<w:br/>' : piece === '\t' ? '<w:tab/>' : piece ? `<w:t xml:space="preserve">${escapeXml(piece)}</w:t>` : ''))
    .join('');
  return `<w:r>${properties ? `<w:rPr>${properties}</w:rPr>` : ''}${content}</w:r>`;
}

/** A paragraph in the given style; `runs` is already-built run XML, `extraProperties` follows <w:pStyle> in <w:pPr>. */
export function paragraph(style: string | undefined, runs: string, extraProperties = ''): string {
  const properties = `${style ? `<w:pStyle w:val="${style}"/>` : ''}${extraProperties}`;
  return `<w:p>${properties ? `<w:pPr>${properties}</w:pPr>` : ''}${runs}</w:p>`;
}
