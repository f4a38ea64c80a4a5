/** Relationship parts of OOXML packages (Open Packaging Conventions): which part is the main document, which parts it links. */
import { attribute, readXml } from './xmlReader.js';
import type { ZipPackage } from './zipArchive.js';

interface Relationship {
  id: string;
  /** Last path segment of the relationship type URI, e.g. "officeDocument", "worksheet", "slide". */
  type: string;
  /** Package part name the target resolves to, without leading slash. */
  target: string;
}

/** Resolves a relationship target against the directory of the source part. */
function resolveTarget(sourcePart: string, target: string): string {
  const base = target.startsWith('/') ? [] : sourcePart.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') base.pop();
    else if (segment && segment !== '.') base.push(segment);
  }
  return base.join('/');
}

/** Relationships of `sourcePart` ("" for the package itself), internal targets only. */
export function readRelationships(zip: ZipPackage, sourcePart: string): Relationship[] {
  const directory = sourcePart.split('/').slice(0, -1).join('/');
  const file = sourcePart.split('/').at(-1) ?? '';
  const relationshipsPart = `${directory ? `${directory}/` : ''}_rels/${file}.rels`;
  const xml = zip.readText(relationshipsPart);
  if (!xml) return [];
  const relationships: Relationship[] = [];
  for (const event of readXml(xml)) {
    if (event.type !== 'open' || event.name !== 'Relationship') continue;
    if (attribute(event.attributes, 'TargetMode') === 'External') continue;
    const id = attribute(event.attributes, 'Id');
    const type = attribute(event.attributes, 'Type');
    const target = attribute(event.attributes, 'Target');
    if (id && type && target) relationships.push({ id, type: type.split('/').at(-1) ?? type, target: resolveTarget(sourcePart, target) });
  }
  return relationships;
}

/** The package's main part (word/document.xml, xl/workbook.xml, ppt/presentation.xml), from _rels/.rels. */
export function mainDocumentPart(zip: ZipPackage): string | undefined {
  return readRelationships(zip, '').find((relationship) => relationship.type === 'officeDocument')?.target;
}
