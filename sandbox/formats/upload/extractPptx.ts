import { readRelationships } from './opcRelationships.js';
import { ooxmlTextBlocks } from './ooxmlText.js';
import { attribute, readXml } from './xmlReader.js';
import type { ZipPackage } from './zipArchive.js';

const SLIDE_PART = /^ppt\/slides\/slide(\d+)\.xml$/;

/** Slide parts in presentation order (presentation.xml's slide list), else by slide number. */
function slideParts(zip: ZipPackage, presentationPart: string): string[] {
  const relationships = new Map(readRelationships(zip, presentationPart).map((relationship) => [relationship.id, relationship]));
  const ordered: string[] = [];
  for (const event of readXml(zip.readText(presentationPart) ?? '')) {
    if (event.type !== 'open' || event.name !== 'sldId') continue;
    const target = relationships.get(attribute(event.attributes, 'id') ?? '');
    if (target?.type === 'slide' && zip.has(target.target)) ordered.push(target.target);
  }
  if (ordered.length > 0) return ordered;
  return zip.names
    .map((name) => SLIDE_PART.exec(name))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => Number(a[1]) - Number(b[1]))
    .map((match) => match[0]);
}

/** Each slide under "Slide N", its text frames and table rows one per line; slides separated by blank lines. */
export function extractPptxText(zip: ZipPackage, presentationPart: string): string {
  return slideParts(zip, presentationPart)
    .map((part, index) => {
      const lines = ooxmlTextBlocks(zip.readText(part) ?? '');
      return lines.length > 0 ? `Slide ${index + 1}\n${lines.join('\n')}` : '';
    })
    .filter(Boolean)
    .join('\n\n');
}
