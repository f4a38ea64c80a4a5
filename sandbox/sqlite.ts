/**
 * The sandbox's one database layer over node:sqlite, shared by the server's stores and the library
 * engine: savepoints (the only place one is written) and a cache of prepared statements.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';

let savepointCounter = 0;

/**
 * Runs `work` in a savepoint: a throw undoes only its writes; otherwise they commit with the caller's
 * transaction, or at once when there is none.
 */
export function savepoint<T>(db: DatabaseSync, work: () => T): T {
  const name = `sbx_sp_${++savepointCounter}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = work();
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    db.exec(`ROLLBACK TO ${name}; RELEASE ${name}`);
    throw error;
  }
}

/** Prepared statements by SQL text: each statement is compiled once per database. */
export class Statements {
  private readonly cache = new Map<string, StatementSync>();

  constructor(private readonly db: DatabaseSync) {}

  prepare(sql: string): StatementSync {
    let statement = this.cache.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.cache.set(sql, statement);
    }
    return statement;
  }

  run(sql: string, ...params: SQLInputValue[]): void {
    this.prepare(sql).run(...params);
  }

  row<T>(sql: string, ...params: SQLInputValue[]): T | undefined {
    return this.prepare(sql).get(...params) as T | undefined;
  }

  rows<T>(sql: string, ...params: SQLInputValue[]): T[] {
    return this.prepare(sql).all(...params) as T[];
  }
}
