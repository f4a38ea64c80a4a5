/**
 * Merges a key's search index once its library has been quiet for a moment after writes, as
 * search engines force-merge after bulk indexing: a sync's burst of ingests leaves one index
 * segment per document, and searches that follow it are twice as fast on a merged index.
 */
import type { Library } from '../library/index.js';

/** Quiet time after the last library write before the key's index is merged. */
const INDEX_MERGE_IDLE_MS = 1_000;

export class IndexMaintenance {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly library: Library,
    private readonly idleMs = INDEX_MERGE_IDLE_MS,
  ) {}

  /** Called after every write to a key's index; the merge waits for the writes to stop. */
  written(keyId: string): void {
    clearTimeout(this.timers.get(keyId));
    const timer = setTimeout(() => {
      this.timers.delete(keyId);
      this.library.mergeIndex(keyId);
    }, this.idleMs);
    timer.unref();
    this.timers.set(keyId, timer);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
