/**
 * Upload text extraction off the server's event loop: a small pool of `node:worker_threads` workers,
 * each reading one upload at a time under its budget (bytes inflated, characters extracted: counted
 * inside the worker) and under the pool's watch (time, and the worker's heap plus buffers, sampled
 * every 50 ms). A worker over time or memory is terminated at once, which returns its memory; the
 * pool starts a fresh one for the next upload. Excess uploads wait in a short queue; beyond it they
 * are refused with a retry delay.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getCallSites } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { UploadKind } from './detectUploadKind.js';
import type { ExtractedText, Upload } from './extractText.js';
import { DEFAULT_UPLOAD_LIMITS, megabytes, type UploadLimits } from './uploadBudget.js';
import { UploadRejection, type UploadLimitName, type UploadRejectionCode } from './uploadRejection.js';

export interface PoolLimits extends UploadLimits {
  /** Wall time one upload may take to read, from the moment a worker takes it. */
  maxSeconds: number;
  /** A worker's JS heap plus its buffers (decompressed streams live there). */
  maxWorkerMemoryBytes: number;
}

export interface ExtractionPoolOptions {
  /** Workers reading at once; default: available parallelism minus one (the server's own thread), 1–4. */
  size?: number;
  /** Uploads waiting for a worker before further ones are refused; default twice the size. */
  queue?: number;
  limits?: Partial<PoolLimits>;
}

export const DEFAULT_POOL_LIMITS: PoolLimits = {
  ...DEFAULT_UPLOAD_LIMITS,
  maxSeconds: 20,
  maxWorkerMemoryBytes: 384 * 1024 * 1024,
};

export function defaultPoolSize(): number {
  return Math.min(4, Math.max(1, availableParallelism() - 1));
}

export interface ExtractionRequest {
  id: number;
  data: Uint8Array;
  filename: string;
  contentType?: string;
  limits: UploadLimits;
}

export type ExtractionReply =
  | { id: number; started: true }
  | { id: number; ok: true; text: string; kind: UploadKind }
  | { id: number; ok: false; rejection: { code: UploadRejectionCode; message: string; hint: string; limit?: UploadLimitName } }
  | { id: number; ok: false; failure: string };

/** Every worker is busy and the queue is full: retry after `retryAfterSeconds`. */
export class ExtractionBusy extends Error {
  override readonly name = 'ExtractionBusy';
  readonly retryAfterSeconds: number;
  constructor(retryAfterSeconds: number, queued: number) {
    super(`All upload readers are busy and ${queued} upload(s) are already waiting.`);
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The reader failed on this file in a way no limit names (a parser error): the file's problem, not the pool's. */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';
}

interface Pending {
  request: Omit<ExtractionRequest, 'id' | 'limits'>;
  resolve(result: ExtractedText): void;
  reject(error: Error): void;
}

interface Slot {
  worker: Worker | undefined;
  /** The upload the worker holds; its timer and memory poll run from the worker's `started`. */
  job: (Pending & { id: number; startedAt: number; timer?: NodeJS.Timeout; poll?: NodeJS.Timeout }) | undefined;
}

/** The bundled worker (scripts/build.mjs), under dist/ beside the bundles that may start it. */
const WORKER_FILE = join('workers', 'upload-extraction.cjs');
const SOURCE_ENTRY = 'extractWorker.ts';
const MEMORY_POLL_MS = 50;

/**
 * Loads the worker entry from the TypeScript sources (tests, vitest): Node strips the types, and
 * relative imports written `./x.js` (as the sources spell them for bundlers) resolve to `./x.ts`.
 */
const SOURCE_LOADER = `
const { registerHooks, stripTypeScriptTypes } = require('node:module');
const { readFileSync } = require('node:fs');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { workerData } = require('node:worker_threads');
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (/^\\.\\.?\\//.test(specifier) && specifier.endsWith('.js') && context.parentURL && context.parentURL.endsWith('.ts')) return next(specifier.slice(0, -3) + '.ts', context);
      throw error;
    }
  },
  load(url, context, next) {
    if (url.startsWith('file:') && url.endsWith('.ts')) {
      return { format: 'module', shortCircuit: true, source: stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'), { mode: 'transform' }) };
    }
    return next(url, context);
  },
});
import(pathToFileURL(workerData.entry).href);
`;

/**
 * The directory of this module's file: sandbox/formats/upload in the sources; in a bundle the
 * bundle's own directory (dist/sandbox, dist/cli, dist/cli/chunks).
 */
function moduleDirectory(): string {
  const script = getCallSites()[0]?.scriptName ?? '';
  return dirname(script.startsWith('file:') ? fileURLToPath(script) : script);
}

function startWorker(): Worker {
  const here = moduleDirectory();
  const resourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };
  if (existsSync(join(here, SOURCE_ENTRY))) {
    return new Worker(SOURCE_LOADER, { eval: true, workerData: { entry: join(here, SOURCE_ENTRY) }, resourceLimits });
  }
  for (const directory of [here, dirname(here), dirname(dirname(here))]) {
    const file = join(directory, WORKER_FILE);
    if (existsSync(file)) return new Worker(file, { resourceLimits });
  }
  throw new Error(`The upload worker ${WORKER_FILE} is missing near ${pathToFileURL(here).href}; rebuild with node scripts/build.mjs cli.`);
}

export class ExtractionPool {
  readonly size: number;
  readonly queueLength: number;
  readonly limits: PoolLimits;
  private readonly slots: Slot[];
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  /** Recent seconds per upload (moving average), for the retry delay of a refusal. */
  private averageSeconds = 1;
  private closed = false;

  constructor(options: ExtractionPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.queueLength = Math.max(0, Math.floor(options.queue ?? this.size * 2));
    this.limits = { ...DEFAULT_POOL_LIMITS, ...options.limits };
    this.slots = Array.from({ length: this.size }, () => ({ worker: undefined, job: undefined }));
  }

  /**
   * Text of `upload`, read in a worker; rejects with UploadRejection (a limit or the file's kind or
   * state), ExtractionFailure (the reader failed on the file), ExtractionBusy, or Error (the pool's own fault).
   */
  extract(upload: Upload): Promise<ExtractedText> {
    if (this.closed) return Promise.reject(new Error('The extraction pool is closed.'));
    const busy = this.slots.every((slot) => slot.job);
    if (busy && this.waiting.length >= this.queueLength) {
      const seconds = Math.max(1, Math.ceil(((this.waiting.length + this.size) / this.size) * this.averageSeconds));
      return Promise.reject(new ExtractionBusy(seconds, this.waiting.length));
    }
    // The worker gets its own copy, transferred (not cloned again): the request's buffer may be shared.
    const data = new Uint8Array(upload.data);
    return new Promise<ExtractedText>((resolve, reject) => {
      this.waiting.push({ request: { data, filename: upload.filename, ...(upload.contentType ? { contentType: upload.contentType } : {}) }, resolve, reject });
      this.dispatch();
    });
  }

  /** Terminates every worker; queued and running uploads fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const pending of this.waiting.splice(0)) pending.reject(new Error('The sandbox is stopping.'));
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.job) this.finish(slot, () => slot.job!.reject(new Error('The sandbox is stopping.')));
        const worker = slot.worker;
        slot.worker = undefined;
        if (worker) await worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job || this.waiting.length === 0) continue;
      const pending = this.waiting.shift()!;
      let worker: Worker;
      try {
        worker = slot.worker ?? this.spawn(slot);
      } catch (error) {
        pending.reject(error as Error);
        continue;
      }
      const id = this.nextId++;
      slot.job = { ...pending, id, startedAt: performance.now() };
      const request: ExtractionRequest = { id, ...pending.request, limits: { maxInflatedBytes: this.limits.maxInflatedBytes, maxCharacters: this.limits.maxCharacters } };
      worker.postMessage(request, [pending.request.data.buffer as ArrayBuffer]);
    }
  }

  private spawn(slot: Slot): Worker {
    const worker = startWorker();
    // An idle worker never keeps the process alive; the server does while it listens.
    worker.unref();
    slot.worker = worker;
    worker.on('message', (reply: ExtractionReply) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      if ('started' in reply) {
        job.startedAt = performance.now();
        job.timer = setTimeout(() => this.kill(slot, job.id, this.timeRejection(job.request.filename)), this.limits.maxSeconds * 1000);
        job.poll = setInterval(() => void this.checkMemory(slot, job.id), MEMORY_POLL_MS);
        return;
      }
      if (!reply.ok && 'rejection' in reply && reply.rejection.limit) {
        // Over a limit, the reader may still be busy (pdf.js mid-page) and holds what it inflated: end it.
        this.replace(slot, worker);
      }
      this.finish(slot, () => {
        if (reply.ok) job.resolve({ text: reply.text, kind: reply.kind });
        else if ('rejection' in reply) job.reject(new UploadRejection(reply.rejection.code, reply.rejection.message, reply.rejection.hint, reply.rejection.limit));
        else job.reject(new ExtractionFailure(reply.failure));
      });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job;
      if (slot.worker === worker) slot.worker = undefined;
      if (!job) return;
      this.finish(slot, () =>
        job.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.memoryRejection(job.request.filename) : error),
      );
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const job = slot.job;
      if (job) this.finish(slot, () => job.reject(new Error('The upload reader stopped unexpectedly.')));
    });
    return worker;
  }

  /** Settles the slot's job, frees the slot and starts the next upload. */
  private finish(slot: Slot, settle: () => void): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    clearInterval(job.poll);
    const seconds = (performance.now() - job.startedAt) / 1000;
    this.averageSeconds = this.averageSeconds * 0.8 + seconds * 0.2;
    slot.job = undefined;
    settle();
    if (!this.closed) this.dispatch();
  }

  /** Ends the worker holding job `id` (its memory goes with it) and answers the job with `rejection`. */
  private kill(slot: Slot, id: number, rejection: UploadRejection): void {
    if (slot.job?.id !== id) return;
    const job = slot.job;
    if (slot.worker) this.replace(slot, slot.worker);
    this.finish(slot, () => job.reject(rejection));
  }

  /** Terminates `worker` and starts its successor now, so the next upload does not wait for a start. */
  private replace(slot: Slot, worker: Worker): void {
    slot.worker = undefined;
    void worker.terminate();
    if (this.closed) return;
    try {
      this.spawn(slot);
    } catch {
      // Started again on the next upload, which then reports why it cannot.
    }
  }

  private async checkMemory(slot: Slot, id: number): Promise<void> {
    const worker = slot.worker;
    if (!worker || slot.job?.id !== id) return;
    let used: number;
    try {
      const statistics = await worker.getHeapStatistics();
      used = statistics.used_heap_size + statistics.external_memory;
    } catch {
      return; // the worker is gone; its exit handler answers the job
    }
    if (used > this.limits.maxWorkerMemoryBytes && slot.job?.id === id) this.kill(slot, id, this.memoryRejection(slot.job.request.filename));
  }

  private timeRejection(filename: string): UploadRejection {
    return new UploadRejection(
      'extraction_timeout',
      `Reading ${filename} took longer than ${this.limits.maxSeconds} s (limit: extraction seconds).`,
      'Upload a smaller or simpler file (or export it again from its application), or send its text as JSON {framework, content}.',
      'extraction_seconds',
    );
  }

  private memoryRejection(filename: string): UploadRejection {
    return new UploadRejection(
      'upload_too_large',
      `Reading ${filename} needed more than ${megabytes(this.limits.maxWorkerMemoryBytes)} of memory (limit: worker memory).`,
      'Split the document into smaller files, or send its text as JSON {framework, content}.',
      'worker_memory',
    );
  }
}
