/**
 * Upload text extraction off the server's event loop: a WorkerPool (sandbox/threads) whose workers
 * each read one upload at a time under its budget (bytes inflated, characters extracted: counted
 * inside the worker) and under the pool's watch (time, and the worker's heap plus buffers). Excess
 * uploads wait in a short queue; beyond it they are refused with a retry delay (ExtractionBusy).
 */
import { WorkerPool, WorkerPoolBusy, type PoolLimits as WorkerLimits, type WorkerKind, type WorkerPoolOptions } from '../../threads/workerPool.js';
import type { UploadKind } from './detectUploadKind.js';
import type { ExtractedText, Upload } from './extractText.js';
import { DEFAULT_UPLOAD_LIMITS, megabytes, type UploadLimits } from './uploadBudget.js';
import { UploadRejection, type UploadLimitName, type UploadRejectionCode } from './uploadRejection.js';


interface PoolLimits extends UploadLimits, WorkerLimits {}

export interface ExtractionPoolOptions extends WorkerPoolOptions {
  limits?: Partial<PoolLimits>;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = {
  ...DEFAULT_UPLOAD_LIMITS,
  maxSeconds: 20,
  maxWorkerMemoryBytes: 384 * 1024 * 1024,
};

/** One upload for a worker: its bytes (moved, not copied) and the budget it is read under. */
export interface ExtractionTask {
  data: Uint8Array;
  filename: string;
  contentType?: string;
  limits: UploadLimits;
}

/** A worker's refusal: a limit or the file's kind or state, or a reader failure no limit names. */
export type ExtractionRefusal =
  | { rejection: { code: UploadRejectionCode; message: string; hint: string; limit?: UploadLimitName } }
  | { failure: string };

/** Every worker is busy and the queue is full: retry after `retryAfterSeconds`. */
export { WorkerPoolBusy as ExtractionBusy };

/** The reader failed on this file in a way no limit names (a parser error): the file's problem, not the pool's. */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';
}

const UPLOAD_READER: WorkerKind<ExtractionTask> = {
  name: 'upload reader',
  sourceEntry: 'formats/upload/extractWorker.ts',
  bundledFile: 'workers/upload-extraction.cjs',
  resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  transfer: (task) => [task.data.buffer as ArrayBuffer],
  refusal(refusal) {
    const answer = refusal as ExtractionRefusal;
    if ('failure' in answer) return { error: new ExtractionFailure(answer.failure), retire: false };
    const { code, message, hint, limit } = answer.rejection;
    // Over a limit, the reader may still be busy (pdf.js mid-page) and holds what it inflated: end it.
    return { error: new UploadRejection(code, message, hint, limit), retire: Boolean(limit) };
  },
  timeLimit: (task, limits) =>
    new UploadRejection(
      'extraction_timeout',
      `Reading ${task.filename} took longer than ${limits.maxSeconds} s (limit: extraction seconds).`,
      'Upload a smaller or simpler file (or export it again from its application), or send its text as JSON {framework, content}.',
      'extraction_seconds',
    ),
  memoryLimit: (task, limits) =>
    new UploadRejection(
      'upload_too_large',
      `Reading ${task.filename} needed more than ${megabytes(limits.maxWorkerMemoryBytes)} of memory (limit: worker memory).`,
      'Split the document into smaller files, or send its text as JSON {framework, content}.',
      'worker_memory',
    ),
  busyMessage: (queued) => `This key's uploads already take its share of the upload readers and ${queued} more are waiting.`,
};

export class ExtractionPool {
  readonly limits: PoolLimits;
  private readonly pool: WorkerPool<ExtractionTask, { text: string; kind: UploadKind }>;

  constructor(options: ExtractionPoolOptions = {}) {
    const { limits, ...sizes } = options;
    this.limits = { ...DEFAULT_POOL_LIMITS, ...limits };
    this.pool = new WorkerPool(UPLOAD_READER, this.limits, sizes);
  }

  get size(): number {
    return this.pool.size;
  }

  get queueLength(): number {
    return this.pool.queueLength;
  }

  /**
   * Text of `upload`, read in a worker for `owner` (a key: readers are shared fairly); rejects with UploadRejection (a limit or the file's kind or
   * state), ExtractionFailure (the reader failed on the file), ExtractionBusy, or Error (the pool's own fault).
   */
  extract(upload: Upload, owner = ''): Promise<ExtractedText> {
    // The worker gets its own copy, transferred (not cloned again): the request's buffer may be shared.
    const data = new Uint8Array(upload.data);
    const { maxInflatedBytes, maxCharacters } = this.limits;
    return this.pool.run({ data, filename: upload.filename, ...(upload.contentType ? { contentType: upload.contentType } : {}), limits: { maxInflatedBytes, maxCharacters } }, owner);
  }

  /** Terminates every worker; queued and running uploads fail. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
