/**
 * Jobs (generation, mapping, library ingest and refresh). A job's state follows the clock: queued
 * for the first quarter of `--job-seconds`, running until it is due, then the kind's worker runs in
 * one transaction with the job's final state, so a result and its side effects (library indexing,
 * a refund on failure) commit together. Settling happens on a timer and, idempotently, whenever the
 * job is read, so state is right even when the clock jumps. Jobs still open at start (the previous
 * process stopped) are failed and refunded.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import type { JobStatus } from '../../api/schemas/common.js';
import { transaction } from './database.js';

export type JobKind = 'generation' | 'mapping' | 'library_ingest' | 'library_refresh';

export interface JobRecord {
  id: string;
  keyHash: string;
  kind: JobKind;
  createdAt: number;
  runningAt: number;
  dueAt: number;
  finishedAt: number | null;
  finalStatus: 'completed' | 'failed' | null;
  input: unknown;
  result: unknown;
  errorCode: string | null;
  errorMessage: string | null;
  documentId: string | null;
  documentVersion: number | null;
  chargedTokens: number;
  failOnRun: boolean;
}

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
  /** Produces the result stored with the job (inside the settling transaction). */
  complete(job: JobRecord, now: number): unknown;
  /** Undoes admission side effects of a failed job (e.g. a pending library document). */
  failed?(job: JobRecord, now: number): void;
}

/** Refunds a failed job's charge; supplied by billing. */
export type Refund = (job: JobRecord, reason: string, now: number) => void;

interface JobRow {
  id: string;
  key_hash: string;
  kind: string;
  created_at: number;
  running_at: number;
  due_at: number;
  finished_at: number | null;
  final_status: string | null;
  input_json: string;
  result_json: string | null;
  error_code: string | null;
  error_message: string | null;
  document_id: string | null;
  document_version: number | null;
  charged_tokens: number;
  fail_on_run: number;
}

function fromRow(row: JobRow): JobRecord {
  return {
    id: row.id,
    keyHash: row.key_hash,
    kind: row.kind as JobKind,
    createdAt: row.created_at,
    runningAt: row.running_at,
    dueAt: row.due_at,
    finishedAt: row.finished_at,
    finalStatus: row.final_status as JobRecord['finalStatus'],
    input: JSON.parse(row.input_json) as unknown,
    result: row.result_json === null ? null : (JSON.parse(row.result_json) as unknown),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    documentId: row.document_id,
    documentVersion: row.document_version,
    chargedTokens: row.charged_tokens,
    failOnRun: row.fail_on_run === 1,
  };
}

const DAY_MS = 86_400_000;

export class Jobs {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly db: DatabaseSync,
    private readonly workers: Record<JobKind, JobWorker>,
    private readonly refund: Refund,
    private readonly clock: () => number,
    private readonly jobMs: number,
  ) {}

  get estimatedSeconds(): number {
    return this.jobMs / 1000;
  }

  /** Records an admitted job (call inside the request's transaction) and settles it at once when jobs take no time. */
  create(init: {
    id?: string;
    keyHash: string;
    kind: JobKind;
    input: unknown;
    documentId?: string;
    documentVersion?: number;
    chargedTokens: number;
    failOnRun: boolean;
    now: number;
  }): JobRecord {
    const id = init.id ?? randomUUID();
    const { now } = init;
    this.db
      .prepare(
        `INSERT INTO sbx_jobs (id, key_hash, kind, created_at, running_at, due_at, input_json, document_id, document_version, charged_tokens, fail_on_run)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        init.keyHash,
        init.kind,
        now,
        now + Math.round(this.jobMs / 4),
        now + this.jobMs,
        JSON.stringify(init.input ?? null),
        init.documentId ?? null,
        init.documentVersion ?? null,
        init.chargedTokens,
        init.failOnRun ? 1 : 0,
      );
    const job = this.settle(id, now)!;
    if (job.finalStatus === null) this.schedule(job);
    return job;
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
    const row = this.db
      .prepare("SELECT COUNT(*) AS n FROM sbx_jobs WHERE key_hash = ? AND kind = 'generation' AND final_status IS NULL")
      .get(keyHash) as { n: number };
    return row.n;
  }

  /** Generations admitted in the last day and the last 30 days, and when the oldest of each window ages out. */
  generationCounts(keyHash: string, now: number) {
    const window = (ms: number) => {
      const row = this.db
        .prepare("SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM sbx_jobs WHERE key_hash = ? AND kind = 'generation' AND created_at > ?")
        .get(keyHash, now - ms) as { n: number; oldest: number | null };
      return { used: row.n, freesAt: row.oldest === null ? now : row.oldest + ms };
    };
    return { day: window(DAY_MS), thirtyDays: window(30 * DAY_MS) };
  }

  settleDue(keyHash: string, now: number): void {
    const due = this.db
      .prepare('SELECT id FROM sbx_jobs WHERE key_hash = ? AND final_status IS NULL AND due_at <= ?')
      .all(keyHash, now) as Array<{ id: string }>;
    for (const { id } of due) this.settle(id, now);
  }

  /** Fails every job left open by a previous process (library work is refunded by the failure path). */
  failInterrupted(now: number): number {
    const open = this.db.prepare('SELECT * FROM sbx_jobs WHERE final_status IS NULL').all() as unknown as JobRow[];
    for (const row of open) {
      transaction(this.db, () =>
        this.fail(fromRow(row), new JobFailure('interrupted', 'The sandbox stopped while this job was in flight; submit it again.'), now),
      );
    }
    return open.length;
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private read(id: string): JobRecord | undefined {
    const row = this.db.prepare('SELECT * FROM sbx_jobs WHERE id = ?').get(id) as JobRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  private schedule(job: JobRecord): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) this.settle(job.id, Math.max(this.clock(), job.dueAt));
    }, Math.max(0, job.dueAt - this.clock()));
    timer.unref();
    this.timers.add(timer);
  }

  /** Runs the worker of a due job exactly once; returns the job as it now stands. */
  private settle(id: string, now: number): JobRecord | undefined {
    const job = this.read(id);
    if (!job || job.finalStatus !== null || now < job.dueAt) return job;
    return transaction(this.db, () => {
      const current = this.read(id)!;
      if (current.finalStatus !== null) return current;
      const worker = this.workers[current.kind];
      try {
        if (current.failOnRun) throw new JobFailure(`${current.kind === 'generation' ? 'generation' : 'processing'}_failed`, 'The job failed on purpose (X-Sandbox-Fault: job-fail).');
        // A savepoint around the worker: a failing worker's partial writes are undone, the failure is kept.
        const result = transaction(this.db, () => worker.complete(current, now));
        this.db
          .prepare("UPDATE sbx_jobs SET final_status = 'completed', finished_at = ?, result_json = ? WHERE id = ?")
          .run(now, JSON.stringify(result ?? null), id);
      } catch (error) {
        const failure =
          error instanceof JobFailure ? error : new JobFailure('internal_error', 'The job failed unexpectedly in the sandbox.');
        this.fail(current, failure, now);
      }
      return this.read(id)!;
    });
  }

  private fail(job: JobRecord, failure: JobFailure, now: number): void {
    this.db
      .prepare("UPDATE sbx_jobs SET final_status = 'failed', finished_at = ?, error_code = ?, error_message = ? WHERE id = ?")
      .run(now, failure.code, failure.message, job.id);
    this.workers[job.kind].failed?.(job, now);
    this.refund(job, failure.message, now);
  }
}
