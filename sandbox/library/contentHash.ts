/** The content identity of a library document: what counts as "the same content". */
import { createHash } from 'node:crypto';

/** Line endings to \n and trailing whitespace of every line removed, so a CRLF checkout is not a change. */
export function normaliseContent(content: string): string {
  return content
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

/** `sha256:<hex>` of the normalised content. */
export function contentHash(content: string): string {
  return `sha256:${createHash('sha256').update(normaliseContent(content), 'utf8').digest('hex')}`;
}
