/**
 * The sandbox's state: one node:sqlite database shared by every store and the library engine, so a
 * charge and the work it pays for commit together. In memory by default; with a data directory the
 * file runs in WAL mode with synchronous=FULL, and every write commits before the response is sent,
 * so an acknowledged write survives a restart or a kill -9.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { savepoint } from '../sqlite.js';

const DATABASE_FILENAME = 'sandbox.sqlite';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS sbx_accounts (
  key_hash TEXT PRIMARY KEY,
  key_id TEXT NOT NULL UNIQUE,
  mode TEXT NOT NULL,
  plan TEXT NOT NULL,
  balance INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  meter_charged_through INTEGER NOT NULL,
  low_balance_notified INTEGER NOT NULL DEFAULT 0,
  auto_topup_enabled INTEGER NOT NULL DEFAULT 0,
  auto_topup_threshold INTEGER,
  auto_topup_pack TEXT,
  auto_topup_notified INTEGER NOT NULL DEFAULT 0,
  cadence TEXT NOT NULL DEFAULT 'none',
  first_review_at INTEGER,
  reminded_through INTEGER
);
CREATE TABLE IF NOT EXISTS sbx_jobs (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL,
  kind TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  running_at INTEGER NOT NULL,
  due_at INTEGER NOT NULL,
  finished_at INTEGER,
  final_status TEXT,
  input_json TEXT NOT NULL,
  result_json TEXT,
  error_code TEXT,
  error_message TEXT,
  document_id TEXT,
  document_version INTEGER,
  charged_tokens INTEGER NOT NULL DEFAULT 0,
  fail_on_run INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS sbx_jobs_by_key ON sbx_jobs (key_hash, kind, created_at);
CREATE INDEX IF NOT EXISTS sbx_jobs_open ON sbx_jobs (final_status, due_at);
CREATE TABLE IF NOT EXISTS sbx_ledger (
  id TEXT PRIMARY KEY,
  seq INTEGER NOT NULL,
  key_hash TEXT NOT NULL,
  at INTEGER NOT NULL,
  operation TEXT NOT NULL,
  tokens INTEGER NOT NULL,
  balance_after INTEGER NOT NULL,
  reference TEXT,
  description TEXT
);
CREATE INDEX IF NOT EXISTS sbx_ledger_by_key ON sbx_ledger (key_hash, seq);
CREATE TABLE IF NOT EXISTS sbx_checkout_sessions (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL,
  pack TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  paid_at INTEGER
);
CREATE TABLE IF NOT EXISTS sbx_outbox (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  id TEXT NOT NULL UNIQUE,
  at INTEGER NOT NULL,
  key_id TEXT NOT NULL,
  recipient TEXT NOT NULL,
  kind TEXT NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL
);
`;

export function openDatabase(dataDir: string | undefined): DatabaseSync {
  let db: DatabaseSync;
  if (dataDir === undefined) {
    db = new DatabaseSync(':memory:');
  } else {
    mkdirSync(dataDir, { recursive: true });
    db = new DatabaseSync(join(dataDir, DATABASE_FILENAME));
    db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA busy_timeout = 5000;');
  }
  db.exec('PRAGMA foreign_keys = ON;');
  db.exec(SCHEMA);
  return db;
}

/**
 * Runs `work` atomically. Nested calls (a store calling another inside a transaction, or the library
 * engine opening its own) become savepoints, so the outermost commit is the one that counts.
 */
export function transaction<T>(db: DatabaseSync, work: () => T): T {
  if (db.isTransaction) return savepoint(db, work);
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}
