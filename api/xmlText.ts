/**
 * XML and HTML text: escaping, with the characters XML 1.0 forbids removed. Shared by the sandbox's
 * DOCX writer and review/'s HTML and JUnit reports (pure, like contentHash).
 */

// Control characters other than tab, line feed and carriage return, lone surrogates, U+FFFE/U+FFFF.
// eslint-disable-next-line no-control-regex -- matching the control characters XML forbids is the point
const FORBIDDEN_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Escapes text for element content and attribute values (both quote styles), in XML and in HTML. */
export function escapeXml(text: string): string {
  return text
    .replace(FORBIDDEN_IN_XML, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
