/**
 * The jobs table: a job's record as the state machine (jobs.ts) sees it, and every statement that
 * reads or writes it. A job's input is read only when a worker asks for it: a mapping's input holds
 * up to 2,000,000 characters, and parsing it on every poll of the job cost the event loop 10–20 ms each.
 */
import type { DatabaseSync } from 'node:sqlite';
import { Statements } from '../sqlite.js';

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

/** What admission decides about a job (the state machine adds its id and times). */
export interface AdmittedJob {
  keyHash: string;
  kind: JobKind;
  input: unknown;
  documentId?: string;
  documentVersion?: number;
  chargedTokens: number;
  failOnRun: boolean;
}

/** What a new job row holds. */
type NewJob = AdmittedJob & { id: string; createdAt: number; runningAt: number; dueAt: number };

interface JobRow {
  id: string;
  key_hash: string;
  kind: string;
  created_at: number;
  running_at: number;
  due_at: number;
  finished_at: number | null;
  final_status: string | null;
  result_json: string | null;
  error_code: string | null;
  error_message: string | null;
  document_id: string | null;
  document_version: number | null;
  charged_tokens: number;
  fail_on_run: number;
}

/** Every column but the input (read on first use, see toRecord). */
const ROW_COLUMNS =
  'id, key_hash, kind, created_at, running_at, due_at, finished_at, final_status, result_json, error_code, error_message, document_id, document_version, charged_tokens, fail_on_run';

function fromRow(row: JobRow, readInput: () => { value: unknown }): JobRecord {
  let input: { value: unknown } | undefined;
  return {
    id: row.id,
    keyHash: row.key_hash,
    kind: row.kind as JobKind,
    createdAt: row.created_at,
    runningAt: row.running_at,
    dueAt: row.due_at,
    finishedAt: row.finished_at,
    finalStatus: row.final_status as JobRecord['finalStatus'],
    get input() {
      input ??= readInput();
      return input.value;
    },
    result: row.result_json === null ? null : (JSON.parse(row.result_json) as unknown),
    errorCode: row.error_code,
    errorMessage: row.error_message,
    documentId: row.document_id,
    documentVersion: row.document_version,
    chargedTokens: row.charged_tokens,
    failOnRun: row.fail_on_run === 1,
  };
}

export class JobStore {
  private readonly sql: Statements;

  constructor(db: DatabaseSync) {
    this.sql = new Statements(db);
  }

  insert(job: NewJob): void {
    this.sql.run(
      `INSERT INTO sbx_jobs (id, key_hash, kind, created_at, running_at, due_at, input_json, document_id, document_version, charged_tokens, fail_on_run)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      job.id, job.keyHash, job.kind, job.createdAt, job.runningAt, job.dueAt, JSON.stringify(job.input ?? null),
      job.documentId ?? null, job.documentVersion ?? null, job.chargedTokens, job.failOnRun ? 1 : 0,
    );
  }

  /** The job `id`; its input is `input` when the caller has it, else read on first use. */
  read(id: string, input?: { value: unknown }): JobRecord | undefined {
    const row = this.sql.row<JobRow>(`SELECT ${ROW_COLUMNS} FROM sbx_jobs WHERE id = ?`, id);
    return row ? this.toRecord(row, input) : undefined;
  }

  /** Open jobs of a key on a document (all keys' open jobs when neither is given). */
  open(filter?: { keyHash: string; documentId: string }): JobRecord[] {
    const rows = filter
      ? this.sql.rows<JobRow>(`SELECT ${ROW_COLUMNS} FROM sbx_jobs WHERE key_hash = ? AND document_id = ? AND final_status IS NULL`, filter.keyHash, filter.documentId)
      : this.sql.rows<JobRow>(`SELECT ${ROW_COLUMNS} FROM sbx_jobs WHERE final_status IS NULL`);
    return rows.map((row) => this.toRecord(row));
  }

  /** Ids of the key's open jobs due by `now`. */
  dueIds(keyHash: string, now: number): string[] {
    return this.sql.rows<{ id: string }>('SELECT id FROM sbx_jobs WHERE key_hash = ? AND final_status IS NULL AND due_at <= ?', keyHash, now).map((r) => r.id);
  }

  openGenerations(keyHash: string): number {
    return this.sql.row<{ n: number }>("SELECT COUNT(*) AS n FROM sbx_jobs WHERE key_hash = ? AND kind = 'generation' AND final_status IS NULL", keyHash)!.n;
  }

  /** Generations admitted after `since`, and when the oldest of them was admitted. */
  generationsSince(keyHash: string, since: number): { n: number; oldest: number | null } {
    return this.sql.row<{ n: number; oldest: number | null }>(
      "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM sbx_jobs WHERE key_hash = ? AND kind = 'generation' AND created_at > ?",
      keyHash, since,
    )!;
  }

  markCompleted(id: string, now: number, result: unknown): void {
    this.sql.run("UPDATE sbx_jobs SET final_status = 'completed', finished_at = ?, result_json = ? WHERE id = ?", now, JSON.stringify(result ?? null), id);
  }

  markFailed(id: string, now: number, failure: { code: string; message: string }): void {
    this.sql.run("UPDATE sbx_jobs SET final_status = 'failed', finished_at = ?, error_code = ?, error_message = ? WHERE id = ?", now, failure.code, failure.message, id);
  }

  private toRecord(row: JobRow, input?: { value: unknown }): JobRecord {
    return fromRow(row, () => input ?? { value: JSON.parse(this.sql.row<{ input_json: string }>('SELECT input_json FROM sbx_jobs WHERE id = ?', row.id)!.input_json) as unknown });
  }
}
