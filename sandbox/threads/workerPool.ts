/**
 * Work off the server's event loop: a small pool of `node:worker_threads` workers, each running one
 * task at a time under the pool's watch (wall time, and the worker's heap plus buffers, sampled
 * every 50 ms). A worker over time or memory is terminated at once, which returns its memory; the
 * pool starts a fresh one for the next task. Excess tasks wait in a queue; beyond it they are
 * refused with a retry delay. What a task is and how its refusals read is the kind's (WorkerKind):
 * upload extraction and document mapping each have one.
 *
 * Fair across owners (API keys): each owner has its own queue and at most `perOwner` tasks running,
 * and free workers serve the owners with waiting tasks in turn (round robin), so one key's flood
 * waits behind its own work and another key's task waits for at most one task per worker. The queue
 * limit is per owner too: a flooding key is refused, not the keys it would crowd out. A pool has at
 * least two workers and an owner at most all but one, so one key never holds every worker, also on
 * a 2-core machine.
 *
 * Heavy tasks yield the CPU (issue 37): a task that has used more than DEMOTE_AFTER_CPU_MS of CPU
 * has its thread's priority lowered to the least (Linux: the thread's nice value; elsewhere the
 * priority stays), so the server's event loop and short tasks of other keys preempt it, and its
 * worker is replaced once the task ends (a thread's priority cannot be raised again unprivileged),
 * which also returns what the heavy task made the worker's heap grow to.
 */
import { availableParallelism } from 'node:os';
import type { ResourceLimits, Transferable, Worker } from 'node:worker_threads';
import { startWorker } from './startWorker.js';
import { lowestPriority } from './threadPriority.js';

export interface PoolLimits {
  /** Wall time one task may take, from the moment a worker takes it. */
  maxSeconds: number;
  /** A worker's JS heap plus its buffers. */
  maxWorkerMemoryBytes: number;
}

export interface WorkerPoolOptions {
  /** Workers running at once; default: available parallelism minus one (the server's own thread), 2–4. */
  size?: number;
  /** Tasks of one owner waiting for a worker before further ones of it are refused; default twice the size. */
  queue?: number;
  /** Tasks of one owner running at once; default the size minus one (at least 1), so another owner always finds a worker. */
  perOwner?: number;
  /** Milliseconds a worker stays idle before it is ended (its memory returned); default 30 s. */
  idleMs?: number;
}

function defaultPoolSize(): number {
  return Math.min(4, Math.max(2, availableParallelism() - 1));
}

/** What the workers of a pool run and how their answers read. */
export interface WorkerKind<Task> {
  /** The workers' name in messages, singular: "upload reader". */
  name: string;
  /** The worker's entry in the TypeScript sources, relative to sandbox/ (tests, vitest). */
  sourceEntry: string;
  /** Its bundle, relative to dist/ (scripts/build.mjs), found beside the bundles that start it. */
  bundledFile: string;
  resourceLimits: ResourceLimits;
  /** Buffers of the task moved to the worker rather than copied. */
  transfer?(task: Task): Transferable[];
  /** The error a worker's refusal stands for; `retire`: the worker may still be busy or hold memory, end it. */
  refusal(refusal: unknown, task: Task): { error: Error; retire: boolean };
  timeLimit(task: Task, limits: PoolLimits): Error;
  memoryLimit(task: Task, limits: PoolLimits): Error;
  /** The refusal when an owner has its share of the workers and its queue is full. */
  busyMessage(queued: number): string;
}

/** Messages between a pool and its workers (sandbox/threads/serveTasks.ts is the worker's side). */
export interface TaskMessage<Task> {
  id: number;
  task: Task;
}

/** `thread`: the worker's kernel thread id, where the system has one (Linux), for its priority. */
export type TaskReply<Output> = { id: number; started: true; thread?: number } | { id: number; ok: true; value: Output } | { id: number; ok: false; refusal: unknown };

/** Every worker is busy and the queue is full: retry after `retryAfterSeconds`. */
export class WorkerPoolBusy extends Error {
  override readonly name = 'WorkerPoolBusy';
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(message);
  }
}

interface Pending<Task, Output> {
  task: Task;
  owner: string;
  resolve(result: Output): void;
  reject(error: Error): void;
}

interface Running<Task, Output> extends Pending<Task, Output> {
  id: number;
  startedAt: number;
  timer?: NodeJS.Timeout;
  poll?: NodeJS.Timeout;
  /** The worker's kernel thread id and CPU microseconds when the task started (from `started`). */
  thread?: number;
  cpuAtStart?: number;
  /** Past DEMOTE_AFTER_CPU_MS: its thread runs at the lowest priority and the worker is replaced after it. */
  demoted?: boolean;
}

interface Slot<Task, Output> {
  worker: Worker | undefined;
  /** The task the worker holds; its timer and memory poll run from the worker's `started`. */
  job: Running<Task, Output> | undefined;
  /** Ends the slot's worker once it has been idle `idleMs` (retireWhenIdle). */
  idle?: NodeJS.Timeout;
}

const MEMORY_POLL_MS = 50;
/** CPU a task may use at the worker's normal priority: a mapping of a few pages or a small upload takes a tenth of this. */
const DEMOTE_AFTER_CPU_MS = 100;

export class WorkerPool<Task, Output> {
  readonly size: number;
  readonly queueLength: number;
  readonly perOwner: number;
  private readonly idleMs: number;
  private readonly slots: Array<Slot<Task, Output>>;
  /** Waiting tasks by owner. */
  private readonly waiting = new Map<string, Array<Pending<Task, Output>>>();
  /** When each owner with work in the pool last had a task started: the longest unserved goes next. */
  private readonly lastServed = new Map<string, number>();
  private serial = 0;
  private nextId = 1;
  /** Recent seconds per task (moving average), for the retry delay of a refusal. */
  private averageSeconds = 1;
  private closed = false;

  constructor(
    private readonly kind: WorkerKind<Task>,
    readonly limits: PoolLimits,
    options: WorkerPoolOptions = {},
  ) {
    this.size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
    this.queueLength = Math.max(0, Math.floor(options.queue ?? this.size * 2));
    this.perOwner = Math.max(1, Math.floor(options.perOwner ?? this.size - 1));
    this.idleMs = options.idleMs ?? 30_000;
    this.slots = Array.from({ length: this.size }, () => ({ worker: undefined, job: undefined }));
  }

  /**
   * The worker's answer to `task`, run for `owner` (an API key's hash; one owner when omitted); rejects
   * with the kind's errors, WorkerPoolBusy (this owner's queue is full), or Error (the pool's own fault).
   */
  run(task: Task, owner = ''): Promise<Output> {
    if (this.closed) return Promise.reject(new Error(`The ${this.kind.name} pool is closed.`));
    const queued = this.waiting.get(owner)?.length ?? 0;
    const canStart = this.running(owner) < this.perOwner && this.slots.some((slot) => !slot.job);
    if (!canStart && queued >= this.queueLength) {
      const ahead = queued + this.running(owner);
      const seconds = Math.max(1, Math.ceil((ahead / Math.min(this.perOwner, this.size)) * this.averageSeconds));
      return Promise.reject(new WorkerPoolBusy(seconds, this.kind.busyMessage(queued)));
    }
    return new Promise<Output>((resolve, reject) => {
      const queue = this.waiting.get(owner);
      if (queue) queue.push({ task, owner, resolve, reject });
      else this.waiting.set(owner, [{ task, owner, resolve, reject }]);
      this.dispatch();
    });
  }

  /** Workers started and not yet ended (idle ones end after `idleMs`). */
  get alive(): number {
    return this.slots.filter((slot) => slot.worker).length;
  }

  /** Tasks of `owner` waiting or running: what admission bounds per key. */
  pending(owner = ''): number {
    return (this.waiting.get(owner)?.length ?? 0) + this.running(owner);
  }

  private running(owner: string): number {
    return this.slots.filter((slot) => slot.job?.owner === owner).length;
  }

  /** The next task to start (round robin): of the owners waiting with room under their cap, the one served longest ago. */
  private next(): Pending<Task, Output> | undefined {
    let chosen: string | undefined;
    for (const owner of this.waiting.keys()) {
      if (this.running(owner) >= this.perOwner) continue;
      if (chosen === undefined || (this.lastServed.get(owner) ?? -1) < (this.lastServed.get(chosen) ?? -1)) chosen = owner;
    }
    if (chosen === undefined) return undefined;
    const queue = this.waiting.get(chosen)!;
    const pending = queue.shift()!;
    if (queue.length === 0) this.waiting.delete(chosen);
    this.lastServed.set(chosen, ++this.serial);
    return pending;
  }

  /** Terminates every worker; queued and running tasks fail. */
  async close(): Promise<void> {
    this.closed = true;
    const queued = [...this.waiting.values()].flat();
    this.waiting.clear();
    for (const pending of queued) pending.reject(new Error('The sandbox is stopping.'));
    await Promise.all(
      this.slots.map(async (slot) => {
        clearTimeout(slot.idle);
        const job = slot.job;
        if (job) this.finish(slot, () => job.reject(new Error('The sandbox is stopping.')));
        const worker = slot.worker;
        slot.worker = undefined;
        if (worker) await worker.terminate();
      }),
    );
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.job) continue;
      const pending = this.next();
      if (!pending) return;
      let worker: Worker;
      try {
        worker = slot.worker ?? this.spawn(slot);
      } catch (error) {
        pending.reject(error as Error);
        continue;
      }
      const id = this.nextId++;
      clearTimeout(slot.idle);
      slot.job = { ...pending, id, startedAt: performance.now() };
      worker.postMessage({ id, task: pending.task } satisfies TaskMessage<Task>, this.kind.transfer?.(pending.task) ?? []);
    }
  }

  private spawn(slot: Slot<Task, Output>): Worker {
    const worker = startWorker(this.kind as WorkerKind<unknown>);
    slot.worker = worker;
    worker.on('message', (reply: TaskReply<Output>) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      if ('started' in reply) {
        job.startedAt = performance.now();
        if (reply.thread !== undefined) job.thread = reply.thread;
        job.timer = setTimeout(() => this.kill(slot, job.id, this.kind.timeLimit(job.task, this.limits)), this.limits.maxSeconds * 1000);
        job.poll = setInterval(() => void this.watch(slot, job.id), MEMORY_POLL_MS);
        void this.watch(slot, job.id);
        return;
      }
      if (reply.ok) {
        this.finish(slot, () => job.resolve(reply.value));
        return;
      }
      const { error, retire } = this.kind.refusal(reply.refusal, job.task);
      if (retire) this.replace(slot, worker);
      this.finish(slot, () => job.reject(error));
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const job = slot.job;
      if (slot.worker === worker) slot.worker = undefined;
      if (!job) return;
      this.finish(slot, () => job.reject(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? this.kind.memoryLimit(job.task, this.limits) : error));
    });
    worker.on('exit', () => {
      if (slot.worker !== worker) return;
      slot.worker = undefined;
      const job = slot.job;
      if (job) this.finish(slot, () => job.reject(new Error(`The ${this.kind.name} stopped unexpectedly.`)));
    });
    // An idle worker never keeps the process alive; the server does while it listens. After the
    // listeners: adding a 'message' listener refs the worker's port again.
    worker.unref();
    return worker;
  }

  /** Settles the slot's task, frees the slot and starts the next task. */
  private finish(slot: Slot<Task, Output>, settle: () => void): void {
    const job = slot.job;
    if (!job) return;
    clearTimeout(job.timer);
    clearInterval(job.poll);
    const seconds = (performance.now() - job.startedAt) / 1000;
    this.averageSeconds = this.averageSeconds * 0.8 + seconds * 0.2;
    slot.job = undefined;
    if (job.demoted && slot.worker) this.replace(slot, slot.worker);
    // An owner with nothing left in the pool is forgotten (keys come and go; the map stays small).
    if (!this.waiting.has(job.owner) && this.running(job.owner) === 0) this.lastServed.delete(job.owner);
    settle();
    if (this.closed) return;
    this.dispatch();
    this.retireWhenIdle(slot);
  }

  /**
   * A worker idle `idleMs` is ended: after a flood the workers' heaps go back to the system
   * (a worker keeps what its largest task made its heap grow to); the next task starts a fresh one.
   */
  private retireWhenIdle(slot: Slot<Task, Output>): void {
    if (slot.job || !slot.worker) return;
    slot.idle = setTimeout(() => {
      const worker = slot.worker;
      if (slot.job || !worker) return;
      slot.worker = undefined;
      void worker.terminate();
    }, this.idleMs).unref();
  }

  /** Ends the worker holding task `id` (its memory goes with it) and answers the task with `error`. */
  private kill(slot: Slot<Task, Output>, id: number, error: Error): void {
    if (slot.job?.id !== id) return;
    const job = slot.job;
    if (slot.worker) this.replace(slot, slot.worker);
    this.finish(slot, () => job.reject(error));
  }

  /** Terminates `worker` and starts its successor now, so the next task does not wait for a start. */
  private replace(slot: Slot<Task, Output>, worker: Worker): void {
    slot.worker = undefined;
    void worker.terminate();
    if (this.closed) return;
    try {
      this.spawn(slot);
    } catch {
      // Started again on the next task, which then reports why it cannot.
    }
  }

  /** The task's memory (over the limit: ended) and CPU (past DEMOTE_AFTER_CPU_MS: demoted). */
  private async watch(slot: Slot<Task, Output>, id: number): Promise<void> {
    const worker = slot.worker;
    if (!worker || slot.job?.id !== id) return;
    let used: number;
    try {
      const statistics = await worker.getHeapStatistics();
      used = statistics.used_heap_size + statistics.external_memory;
    } catch {
      return; // the worker is gone; its exit handler answers the task
    }
    const job = slot.job;
    if (job?.id !== id) return;
    if (used > this.limits.maxWorkerMemoryBytes) return this.kill(slot, id, this.kind.memoryLimit(job.task, this.limits));
    if (!job.demoted) await demoteWhenHeavy(worker, job);
  }
}

/** Marks `job` demoted, and lowers its thread's priority, once it has used DEMOTE_AFTER_CPU_MS of CPU. */
async function demoteWhenHeavy(worker: Worker, job: Running<unknown, unknown>): Promise<void> {
  let cpu: number;
  try {
    const usage = await worker.cpuUsage();
    cpu = usage.user + usage.system;
  } catch {
    return; // the worker is gone, or a Node before 24.6 (no worker.cpuUsage): not demoted
  }
  job.cpuAtStart ??= cpu;
  if (job.demoted || cpu - job.cpuAtStart <= DEMOTE_AFTER_CPU_MS * 1000) return;
  job.demoted = true;
  if (job.thread !== undefined) lowestPriority(job.thread);
}
