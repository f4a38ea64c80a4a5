/**
 * A streaming reader for the XML parts of OOXML packages, on saxes (a conforming non-validating
 * parser). No DTD processing: a document type declaration is refused outright (OOXML never has one,
 * and it is how entity-expansion attacks start); saxes decodes only the five predefined entities and
 * character references. The text is fed in slices so events are yielded as they are parsed.
 */
import { SaxesParser } from 'saxes';

type XmlEvent =
  | { type: 'open'; name: string; attributes: Readonly<Record<string, string>>; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; text: string };

export class XmlFormatError extends Error {
  override readonly name = 'XmlFormatError';
}

/** Local part of a qualified name: "w:t" → "t". Prefixes vary between producers; local names do not. */
function localName(qualifiedName: string): string {
  return qualifiedName.slice(qualifiedName.indexOf(':') + 1);
}

/** Characters parsed between yields: bounds the events held at once. */
const SLICE = 64 * 1024;

/** Events in document order; element names are local names, text is entity-decoded. */
export function* readXml(xml: string): Generator<XmlEvent> {
  const parser = new SaxesParser();
  const queue: XmlEvent[] = [];
  let failure: XmlFormatError | undefined;
  parser.on('doctype', () => {
    failure ??= new XmlFormatError('XML document type declarations are not accepted');
  });
  parser.on('error', (error) => {
    failure ??= new XmlFormatError(`Malformed XML: ${error.message}`);
  });
  parser.on('opentag', (tag) => {
    queue.push({ type: 'open', name: localName(tag.name), attributes: tag.attributes as Record<string, string>, selfClosing: tag.isSelfClosing });
  });
  parser.on('closetag', (tag) => {
    // A self-closing element was announced by its open event alone.
    if (!tag.isSelfClosing) queue.push({ type: 'close', name: localName(tag.name) });
  });
  parser.on('text', (text) => queue.push({ type: 'text', text }));
  parser.on('cdata', (text) => queue.push({ type: 'text', text }));
  for (let offset = 0; ; offset += SLICE) {
    const done = offset >= xml.length;
    if (done) parser.close();
    else parser.write(xml.slice(offset, offset + SLICE));
    if (failure) throw failure;
    yield* queue;
    queue.length = 0;
    if (done) return;
  }
}

/** Value of an attribute by local name ("id" finds r:id), entity-decoded. */
export function attribute(attributes: Readonly<Record<string, string>>, name: string): string | undefined {
  for (const [qualifiedName, value] of Object.entries(attributes)) if (localName(qualifiedName) === name) return value;
  return undefined;
}
