/**
 * Memory of request bodies read. Node's HTTP parser hands each body as chunks of up to 64 KB, each a
 * buffer of its own from the C allocator, freed only when V8 collects the chunk's small wrapper. A
 * flood of 2 MB bodies (refused and drained, or read and parsed elsewhere) makes tens of megabytes
 * of such chunks between two collections: glibc carves them from the main heap, and once a live
 * allocation sits above them it never gives those pages back (issue 37: the sandbox's heap grew by
 * 70 MB draining refused bodies and kept it). A young-generation collection after every few
 * megabytes of body frees the dead chunks while they are few, so the next ones reuse their memory;
 * it takes well under a millisecond.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Body bytes read between two young-generation collections. */
const COLLECT_EVERY_BYTES = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor'; execution: 'sync' }) => void;

let collect: Collect | undefined;
let sinceCollection = 0;

/** V8's `gc`, exposed for a context of our own only (the process's global scope does not get it). */
function collector(): Collect | undefined {
  if (!collect) {
    try {
      setFlagsFromString('--expose-gc');
      collect = runInNewContext('gc') as Collect;
    } catch {
      // No gc to call (a runtime without the flag): the chunks wait for V8's own collections.
    }
  }
  return collect;
}

/** Counts `bytes` of request body read; every COLLECT_EVERY_BYTES, the dead chunks are collected. */
export function bodyBytesRead(bytes: number): void {
  sinceCollection += bytes;
  if (sinceCollection < COLLECT_EVERY_BYTES) return;
  sinceCollection = 0;
  collector()?.({ type: 'minor', execution: 'sync' });
}
