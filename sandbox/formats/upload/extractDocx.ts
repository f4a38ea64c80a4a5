import { ooxmlTextBlocks } from './ooxmlText.js';
import type { ZipPackage } from './zipArchive.js';

/** Body text of a Word document: paragraphs separated by blank lines, table rows as tab-separated lines. */
export function extractDocxText(zip: ZipPackage, documentPart: string): string {
  return ooxmlTextBlocks(zip.readText(documentPart) ?? '').join('\n\n');
}
