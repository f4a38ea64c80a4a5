/**
 * Mapping off the server's event loop: mapText in a WorkerPool (sandbox/threads). A 2,000,000-character
 * document takes about a second to map, and even a 300-character one about 10 ms (weighting the
 * control set), more than a worker round trip costs, so every mapping runs in a worker. Mapping jobs
 * are admitted (and charged) before they reach the pool, so the queue is not bounded: a job simply
 * stays running until its worker is free.
 */
import { megabytes } from '../formats/upload/uploadBudget.js';
import { WorkerPool, type PoolLimits, type WorkerKind, type WorkerPoolOptions } from '../threads/workerPool.js';
import type { MappingResult, MapTextInput } from './types.js';

interface MappingPoolOptions extends Omit<WorkerPoolOptions, 'queue'> {
  limits?: Partial<PoolLimits>;
}

const DEFAULT_MAPPING_LIMITS: PoolLimits = {
  // About 30 times what the largest accepted document takes.
  maxSeconds: 30,
  maxWorkerMemoryBytes: 384 * 1024 * 1024,
};

/** A mapping stopped by a limit of the pool; `limit` names it. */
export class MappingLimit extends Error {
  override readonly name = 'MappingLimit';
  constructor(
    readonly limit: 'mapping_seconds' | 'worker_memory',
    message: string,
  ) {
    super(message);
  }
}

const MAPPER: WorkerKind<MapTextInput> = {
  name: 'mapping worker',
  sourceEntry: 'mapping/mappingWorker.ts',
  bundledFile: 'workers/mapping.cjs',
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  refusal: (refusal) => ({ error: new Error(`Mapping failed: ${String(refusal)}`), retire: false }),
  timeLimit: (_task, limits) => new MappingLimit('mapping_seconds', `Mapping the document took longer than ${limits.maxSeconds} s (limit: mapping seconds).`),
  memoryLimit: (_task, limits) => new MappingLimit('worker_memory', `Mapping the document needed more than ${megabytes(limits.maxWorkerMemoryBytes)} of memory (limit: worker memory).`),
  busyMessage: (queued) => `All mapping workers are busy and ${queued} mapping(s) are already waiting.`,
};

export function createMappingPool(options: MappingPoolOptions = {}): WorkerPool<MapTextInput, MappingResult> {
  const { limits, ...sizes } = options;
  return new WorkerPool(MAPPER, { ...DEFAULT_MAPPING_LIMITS, ...limits }, { ...sizes, queue: Number.POSITIVE_INFINITY });
}
