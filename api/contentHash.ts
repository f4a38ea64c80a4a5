/**
 * The one content identity of the package: what counts as "the same text" for a library document.
 * Sync (review/) hashes what it would upload with this; the sandbox library reports this as a
 * document's `contentHash`; so both sides agree on every checkout.
 *
 * A checkout on another OS (CRLF), an editor that leaves trailing spaces, a byte-order mark or an
 * extra blank line at the end must not look like a change that costs a refresh.
 * Pure but for node:crypto's synchronous SHA-256, which every place this runs has: n8n's scanner
 * allows node:crypto in community nodes, and the actions, the CLI and the sandbox are Node 24.
 */
import { createHash } from 'node:crypto';

/** BOM dropped, CRLF/CR → LF, trailing whitespace trimmed per line, trailing blank lines collapsed to one newline. */
export function normaliseContent(text: string): string {
  const lines = text
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    // trimEnd, like the sandbox library: every Unicode space (a stray NBSP is no change either).
    .map((line) => line.trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** Hex SHA-256 of bytes. */
export function sha256Hex(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

const encoder = new TextEncoder();

/** `sha256:<hex>` of the normalised text: the form the library listing reports as `contentHash`. */
export function contentHash(text: string): string {
  return `sha256:${sha256Hex(encoder.encode(normaliseContent(text)))}`;
}

/** `sha256:<hex>` of bytes as they are (generated pdf/docx files). */
export function bytesHash(data: Uint8Array): string {
  return `sha256:${sha256Hex(data)}`;
}

/** Hashes compare case-insensitively and with or without the `sha256:` prefix. */
export function sameHash(a: string, b: string): boolean {
  const strip = (h: string) => h.trim().toLowerCase().replace(/^sha256:/, '');
  return strip(a) === strip(b);
}
