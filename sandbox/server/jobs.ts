/**
 * Jobs (generation, mapping, library ingest and refresh): the state machine. A job's state follows
 * the clock: queued for the first quarter of `--job-seconds`, running until it is due, then the
 * kind's worker runs in one transaction with the job's final state, so a result and its side effects
 * (library indexing, a refund on failure) commit together. Settling happens on a timer (jobTimers.ts)
 * and, idempotently, whenever the job is read, so state is right even when the clock jumps. Work too
 * heavy for the event loop (a mapping) is a worker's `prepare`: started at admission off the loop,
 * its outcome is held here until the job is due; a due job whose outcome is not in yet stays running
 * and settles when it arrives. Jobs still open at start (the previous process stopped) are failed and
 * refunded. The table itself is jobStore.ts.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { JobStatus } from '../../api/schemas/common.js';
import { transaction } from './database.js';
import { JobStore, type AdmittedJob, type JobKind, type JobRecord } from './jobStore.js';
import { DueTimers, raceTimeout } from './jobTimers.js';

/** A worker's way to fail a job with a reason the job status reports. */
export class JobFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'JobFailure';
  }
}

export interface JobWorker {
  /**
   * Work started when the job is admitted, off the event loop; its value is handed to complete().
   * A rejection fails the job (a JobFailure keeps its code and message).
   */
  prepare?(job: JobRecord): Promise<unknown>;
  /**
   * What the jobs table keeps of a prepared kind's input, when not all of it: prepare() reads the
   * input as admitted, and a job left open by a stopped process is failed, never run again, so what
   * only prepare() needs (a mapping's text, up to 2,000,000 characters) need not stay in the table,
   * in memory for as long as the sandbox runs.
   */
  stored?(input: unknown): unknown;
  /** Produces the result stored with the job (inside the settling transaction). */
  complete(job: JobRecord, now: number, prepared?: unknown): unknown;
  /** Undoes admission side effects of a failed job (e.g. a pending library document). */
  failed?(job: JobRecord, now: number): void;
}

/** Refunds a failed job's charge; supplied by billing. */
type Refund = (job: JobRecord, reason: string, now: number) => void;

/** The reason of a library job whose document was deleted while it was pending. */
export function documentDeleted(documentId: string): JobFailure {
  return new JobFailure(
    'document_deleted',
    `The library document ${documentId} was deleted (DELETE /library/documents/${documentId}) before this job finished: nothing was indexed and the charge was refunded.`,
  );
}

const DAY_MS = 86_400_000;
/** How long a poll of a due job waits for its prepared work before answering `running`. */
const PREPARATION_WAIT_MS = 5_000;

/** A job's prepared work: `done` resolves (never rejects) once `outcome` is set. */
interface Preparation {
  done: Promise<void>;
  outcome?: { ok: true; value: unknown } | { ok: false; error: unknown };
}

export class Jobs {
  private readonly store: JobStore;
  private readonly timers: DueTimers;
  /** Prepared work of open jobs, by job id; dropped when the job settles. */
  private readonly preparations = new Map<string, Preparation>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly workers: Record<JobKind, JobWorker>,
    private readonly refund: Refund,
    private readonly clock: () => number,
    private readonly jobMs: number,
  ) {
    this.store = new JobStore(db);
    this.timers = new DueTimers(clock);
  }

  get estimatedSeconds(): number {
    return this.jobMs / 1000;
  }

  /** Records an admitted job (call inside the request's transaction) and settles it at once when jobs take no time. */
  create(init: AdmittedJob & { id?: string; now: number }): JobRecord {
    const { now, id: given, ...job } = init;
    const id = given ?? randomUUID();
    const stored = this.workers[job.kind].stored?.(job.input) ?? job.input;
    this.store.insert({ ...job, input: stored, id, createdAt: now, runningAt: now + Math.round(this.jobMs / 4), dueAt: now + this.jobMs });
    // Prepared from the input just written, not read back (a mapping's is up to 2,000,000 characters):
    // a kind with `prepare` keeps its input JSON-plain (no undefined fields), so the two are the same.
    const created = this.store.read(id, { value: init.input ?? null })!;
    if (this.workers[created.kind].prepare && !created.failOnRun) this.prepare(created);
    const settled = this.settle(id, now)!;
    if (settled.finalStatus === null) this.timers.at(settled.dueAt, (due) => this.settle(id, due));
    return settled;
  }

  /**
   * The job as get() sees it, but when it is due and its prepared work is still running, after
   * waiting up to `waitMs` for that work: a poll of a job due at once (job seconds 0, a clock
   * advanced past it) answers with the result rather than `running`.
   */
  async settled(keyHash: string, id: string, waitMs = PREPARATION_WAIT_MS): Promise<JobRecord | undefined> {
    const job = this.get(keyHash, id);
    const preparation = job && job.finalStatus === null && this.clock() >= job.dueAt ? this.preparations.get(id) : undefined;
    if (!preparation || preparation.outcome) return job;
    await raceTimeout(preparation.done, waitMs);
    return this.get(keyHash, id);
  }

  /** The job as its owner sees it, settled first; another key's job is as unknown as a missing one. */
  get(keyHash: string, id: string): JobRecord | undefined {
    const job = this.settle(id, this.clock());
    return job && job.keyHash === keyHash ? job : undefined;
  }

  status(job: JobRecord, now: number): JobStatus {
    if (job.finalStatus) return job.finalStatus;
    return now < job.runningAt ? 'queued' : 'running';
  }

  /** Generation jobs of a key not yet finished (after settling those that are due). */
  openGenerations(keyHash: string, now: number): number {
    this.settleDue(keyHash, now);
    return this.store.openGenerations(keyHash);
  }

  /** Generations admitted in the last day and the last 30 days, and when the oldest of each window ages out. */
  generationCounts(keyHash: string, now: number) {
    const window = (ms: number) => {
      const { n, oldest } = this.store.generationsSince(keyHash, now - ms);
      return { used: n, freesAt: oldest === null ? now : oldest + ms };
    };
    return { day: window(DAY_MS), thirtyDays: window(30 * DAY_MS) };
  }

  settleDue(keyHash: string, now: number): void {
    for (const id of this.store.dueIds(keyHash, now)) this.settle(id, now);
  }

  /**
   * Fails the open library jobs of a document being deleted (call inside the delete's transaction):
   * the job reports that, not an internal error, and its charge is refunded once by the failure path.
   */
  failForDeletedDocument(keyHash: string, documentId: string, now: number): number {
    const open = this.store.open({ keyHash, documentId });
    for (const job of open) {
      this.fail(job, documentDeleted(documentId), now);
      console.error(`[sandbox] job ${job.id} (${job.kind}) failed: document ${documentId} was deleted before it finished; refunded ${job.chargedTokens} tokens`);
    }
    return open.length;
  }

  /** Fails every job left open by a previous process (library work is refunded by the failure path). */
  failInterrupted(now: number): number {
    const open = this.store.open();
    for (const job of open) {
      transaction(this.db, () => this.fail(job, new JobFailure('interrupted', 'The sandbox stopped while this job was in flight; submit it again.'), now));
    }
    return open.length;
  }

  close(): void {
    this.timers.close();
    this.preparations.clear();
  }

  /** Starts the job's prepared work; when it is in and the job is due, the job settles. */
  private prepare(job: JobRecord): Preparation {
    const preparation: Preparation = {
      // Started now (the executor runs at once), a throw becoming a rejection.
      done: new Promise((resolve) => resolve(this.workers[job.kind].prepare!(job)))
        .then(
          (value) => void (preparation.outcome = { ok: true, value }),
          (error: unknown) => void (preparation.outcome = { ok: false, error }),
        )
        .then(() => {
          if (this.timers.isClosed || this.preparations.get(job.id) !== preparation) return;
          // Settles only if due: before that, the job's timer (or a read) settles it. A job whose
          // admission was rolled back is gone, and nothing will ask for its work.
          const settled = this.settle(job.id, this.clock());
          if (!settled || settled.finalStatus !== null) this.preparations.delete(job.id);
        }),
    };
    this.preparations.set(job.id, preparation);
    return preparation;
  }

  /** Runs the worker of a due job exactly once; returns the job as it now stands. */
  private settle(id: string, now: number): JobRecord | undefined {
    const job = this.store.read(id);
    if (!job || job.finalStatus !== null || now < job.dueAt) return job;
    const worker = this.workers[job.kind];
    let prepared: Preparation['outcome'];
    if (worker.prepare && !job.failOnRun) {
      // No preparation for an open job (none should be: jobs open at start are failed) starts one now.
      prepared = (this.preparations.get(id) ?? this.prepare(job)).outcome;
      if (!prepared) return job;
    }
    const settled = transaction(this.db, () => {
      const current = this.store.read(id)!;
      if (current.finalStatus !== null) return current;
      try {
        if (current.failOnRun) throw new JobFailure(`${current.kind === 'generation' ? 'generation' : 'processing'}_failed`, 'The job failed on purpose (X-Sandbox-Fault: job-fail).');
        if (prepared && !prepared.ok) throw prepared.error;
        const value = prepared?.value;
        // A savepoint around the worker: a failing worker's partial writes are undone, the failure is kept.
        const result = transaction(this.db, () => worker.complete(current, now, value));
        this.store.markCompleted(id, now, result);
      } catch (error) {
        const failure =
          error instanceof JobFailure ? error : new JobFailure('internal_error', 'The job failed unexpectedly in the sandbox.');
        // The real cause is for the operator's log only (the job's reason never carries internals).
        if (!(error instanceof JobFailure)) console.error(`[sandbox] job ${id} (${current.kind}) failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`);
        this.fail(current, failure, now);
      }
      return this.store.read(id)!;
    });
    this.preparations.delete(id);
    return settled;
  }

  private fail(job: JobRecord, failure: JobFailure, now: number): void {
    this.store.markFailed(job.id, now, failure);
    this.workers[job.kind].failed?.(job, now);
    this.refund(job, failure.message, now);
  }
}
