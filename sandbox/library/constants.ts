/** Documented numbers of the library engine. */

/** Search results per query when `limit` is absent. */
export const SEARCH_DEFAULT_LIMIT = 10;
/** Largest accepted search `limit`; a larger one is rejected (400 invalid_limit), never silently clamped. */
export const SEARCH_MAX_LIMIT = 50;
/** Documents per listing page when `limit` is absent. */
export const LIST_DEFAULT_LIMIT = 50;
/** Largest accepted listing `limit`. */
export const LIST_MAX_LIMIT = 100;
/** `classification.watermark` of documents classified by a sandbox key. */
export const SANDBOX_CLASSIFICATION_WATERMARK = 'SANDBOX: sample classification, not produced by the live engine';
/** Prefix of summaries written for sandbox keys. */
export const SANDBOX_SUMMARY_PREFIX = '[SANDBOX] ';
/**
 * Index writes (ingests, refreshes, deletes) of one key after which its index is merged even while
 * writes continue: a sync's burst otherwise leaves a segment per write until the idle merge, and
 * searches in between cost a third more. A merge of 500 × 20k characters takes ~50 ms; every 32
 * writes it adds a few percent to a burst's ingest time (bench/library.ts).
 */
export const INDEX_MERGE_EVERY_WRITES = 32;
