/**
 * The sandbox's document library: per-key storage, admission rules, classification into the
 * caller's categories, and real full-text search (SQLite FTS5 over passages, bm25, snippets).
 *
 * Flow the server follows (inside its own transaction when it charges):
 *   checkIngest → charge → beginIngest → 202 {documentId, version} → job: completeWork | failWork
 *   checkRefresh → charge → beginRefresh → 202 → job: completeWork | failWork
 */
export { Library } from './library.js';
export { LibraryError } from './errors.js';
export {
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SANDBOX_CLASSIFICATION_WATERMARK,
  SANDBOX_SUMMARY_PREFIX,
  INDEX_MERGE_EVERY_WRITES,
} from './constants.js';
export type * from './types.js';
