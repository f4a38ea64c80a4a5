/**
 * Request bodies' chunks are collected every few megabytes read (sandbox/server/bodyMemory.ts), so a
 * flood of bodies does not leave the main heap grown; the memory itself is bench/fairnessUnderLoad.ts's figure.
 */
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { expect, it, vi } from 'vitest';
import { bodyBytesRead } from '../../sandbox/server/bodyMemory.js';

const CHUNK = 64 * 1024;

it('collects the young generation once per 4 MB of body read', async () => {
  const minor: PerformanceEntry[] = [];
  const observer = new PerformanceObserver((list) => minor.push(...list.getEntries().filter((entry) => (entry as PerformanceEntry & { detail: { kind: number } }).detail.kind === constants.NODE_PERFORMANCE_GC_MINOR)));
  observer.observe({ entryTypes: ['gc'] });
  try {
    // 40 MB in 64 KB chunks, allocating nothing else: without the collections V8 would have no reason to run one.
    for (let read = 0; read < 40 * 1024 * 1024; read += CHUNK) bodyBytesRead(CHUNK);
    // GC entries are delivered later, in a task of their own.
    await vi.waitFor(() => expect(minor.length).toBeGreaterThanOrEqual(10));
  } finally {
    observer.disconnect();
  }
});
