/**
 * Content normalisation and hashing for the review loop. The rule and the SHA-256 live in the API
 * module (api/contentHash.ts), shared with the sandbox library, so the `contentHash` the library
 * lists is exactly what sync computes for the same text.
 */
export { normaliseContent, sha256Hex, contentHash, bytesHash, sameHash } from '../api/contentHash.js';
