/**
 * A small streaming reader for the XML parts of OOXML packages. No DTD processing: a document type
 * declaration is refused outright (OOXML never has one, and it is how entity-expansion attacks start),
 * and only the five predefined entities and numeric character references are decoded.
 */

export type XmlEvent =
  | { type: 'open'; name: string; attributes: string; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string };

export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
}

const PREDEFINED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

export function decodeXmlEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (reference, body: string) => {
    if (body[0] !== '#') return PREDEFINED_ENTITIES[body] ?? reference;
    const codePoint = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    const valid = codePoint <= 0x10ffff && !(codePoint >= 0xd800 && codePoint <= 0xdfff) && codePoint !== 0;
    return valid ? String.fromCodePoint(codePoint) : '\ufffd';
  });
}

/** Local part of a qualified name: "w:t" → "t". Prefixes vary between producers; local names do not. */
function localName(qualifiedName: string): string {
  return qualifiedName.slice(qualifiedName.indexOf(':') + 1);
}

const TOKEN_PATTERN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|(<!DOCTYPE)|<\/([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>|([^<]+)|(<)/giy;

/** Events in document order; element names are local names, text is entity-decoded. */
export function* readXml(xml: string): Generator<XmlEvent> {
  const pattern = new RegExp(TOKEN_PATTERN.source, TOKEN_PATTERN.flags);
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(xml)) !== null) {
    const [, cdata, doctype, closeName, openName, attributes, selfClosing, text, strayAngle] = match;
    if (doctype) throw new XmlFormatError('XML document type declarations are not accepted');
    if (strayAngle) throw new XmlFormatError(`Malformed XML near offset ${match.index}`);
    if (cdata !== undefined) yield { type: 'text', text: cdata };
    else if (closeName) yield { type: 'close', name: localName(closeName) };
    else if (openName) yield { type: 'open', name: localName(openName), attributes: attributes ?? '', selfClosing: selfClosing === '/' };
    else if (text !== undefined) yield { type: 'text', text: decodeXmlEntities(text) };
  }
}

/** Value of an attribute by local name ("id" finds r:id), entity-decoded. */
export function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)(?:[\\w.-]+:)?${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`).exec(attributes);
  return match ? decodeXmlEntities(match[1] ?? match[2] ?? '') : undefined;
}
