/**
 * The content identity of a library document: what counts as "the same content" (duplicates,
 * unchanged refreshes, the listing's `contentHash`). One rule for the whole package, defined in the
 * API module and shared with sync (review/hash.ts): BOM dropped, CRLF/CR → LF, trailing whitespace
 * of every line trimmed, trailing blank lines collapsed to one newline; `sha256:<hex>` of the result.
 */
export { contentHash, normaliseContent } from '../../api/contentHash.js';
