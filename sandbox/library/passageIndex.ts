/**
 * The full-text index of each key: its passage table and ranking table (FTS5), written when a
 * version goes live and removed with the document, merged after bursts of writes, and searched.
 */
import type { DatabaseSync } from 'node:sqlite';
import { savepoint, type Statements } from '../sqlite.js';
import { INDEX_MERGE_EVERY_WRITES } from './constants.js';
import { splitPassages, type Passage } from './passages.js';
import { createPassageTable, createRankingTable, DOCUMENTS_TABLE, passageRowid, passageTable, rankingRow, rankingTable } from './schema.js';
import { searchPassages } from './search.js';
import type { SearchInput, SearchOutcome } from './types.js';

/** Removes the characters the snippet markers use, so stored text can never forge a <mark>. */
function withoutMarkers(text: string): string {
  return text.replaceAll('\u0002', ' ').replaceAll('\u0003', ' ');
}

/** The passages a content is indexed as, without the snippet marker characters. */
export function indexedPassages(content: string): Passage[] {
  return splitPassages(content).map((p) => ({ heading: withoutMarkers(p.heading), body: withoutMarkers(p.body) }));
}

export class PassageIndex {
  /** Index writes per key since its last merge (see INDEX_MERGE_EVERY_WRITES). */
  private readonly writesSinceMerge = new Map<string, number>();

  constructor(
    private readonly db: DatabaseSync,
    private readonly sql: Statements,
  ) {}

  /** Indexes a document's passages (creating the key's tables on its first document); the caller replaced any earlier ones. */
  insert(keyId: string, seq: number, title: string, passages: readonly Passage[]): void {
    const table = passageTable(keyId);
    createPassageTable(this.db, table);
    const insert = this.sql.prepare(`insert into ${table} (rowid, title, heading, body) values (?, ?, ?, ?)`);
    passages.forEach((passage, ordinal) => insert.run(passageRowid(seq, ordinal), title, passage.heading, passage.body));
    this.insertRankingRow(keyId, seq, title, passages);
  }

  /** Removes a document's passages (one rowid range, bound as integers) and its ranking row. */
  remove(keyId: string, seq: number): void {
    const table = passageTable(keyId);
    if (this.tableExists(table)) this.sql.run(`delete from ${table} where rowid >= ? and rowid < ?`, passageRowid(seq), passageRowid(seq + 1));
    const ranking = rankingTable(keyId);
    if (this.tableExists(ranking)) this.sql.run(`delete from ${ranking} where rowid = ?`, BigInt(seq));
  }

  /**
   * Merges the key's index into one segment. Every ingest adds a segment that each query must
   * visit; on a merged index of 500 × 20k characters search p95 halves (bench/library.ts). Meant for
   * idle time after a burst of writes (the server schedules it) and run every INDEX_MERGE_EVERY_WRITES
   * writes during one: it rewrites the whole index.
   */
  merge(keyId: string): void {
    this.writesSinceMerge.delete(keyId);
    for (const table of [passageTable(keyId), rankingTable(keyId)]) {
      if (this.tableExists(table)) this.db.exec(`insert into ${table}(${table}) values('optimize')`);
    }
  }

  /** Counts an index write; true every INDEX_MERGE_EVERY_WRITES of them, when the key's index is due a merge at once. */
  written(keyId: string): boolean {
    const writes = (this.writesSinceMerge.get(keyId) ?? 0) + 1;
    if (writes < INDEX_MERGE_EVERY_WRITES) this.writesSinceMerge.set(keyId, writes);
    return writes >= INDEX_MERGE_EVERY_WRITES;
  }

  search(keyId: string, input: SearchInput): SearchOutcome {
    const table = passageTable(keyId);
    return searchPassages(
      { table, rankingTable: rankingTable(keyId), exists: this.tableExists(table), keyId, prepare: (sql) => this.sql.prepare(sql) },
      input,
    );
  }

  /**
   * The migration of a database written before the ranking tables: each key with indexed passages
   * gets its ranking table, built from the documents' indexed content (the content column: a
   * pending refresh keeps the indexed version there).
   */
  buildMissingRankingTables(): void {
    const keys = this.sql.rows<{ key_id: string }>(`select distinct key_id from ${DOCUMENTS_TABLE} where passages > 0`);
    for (const { key_id: keyId } of keys) {
      if (this.tableExists(rankingTable(keyId)) || !this.tableExists(passageTable(keyId))) continue;
      savepoint(this.db, () => {
        const documents = this.sql.rows<{ seq: number; title: string; content: string }>(
          `select seq, title, content from ${DOCUMENTS_TABLE} where key_id = ? and passages > 0`,
          keyId,
        );
        createRankingTable(this.db, rankingTable(keyId));
        for (const doc of documents) this.insertRankingRow(keyId, doc.seq, doc.title, indexedPassages(doc.content));
      });
    }
  }

  private insertRankingRow(keyId: string, seq: number, title: string, passages: readonly Passage[]): void {
    const table = rankingTable(keyId);
    createRankingTable(this.db, table);
    const { heading, body } = rankingRow(passages);
    this.sql.prepare(`insert into ${table} (rowid, title, heading, body) values (?, ?, ?, ?)`).run(BigInt(seq), title, heading, body);
  }

  private tableExists(table: string): boolean {
    return this.sql.row(`select 1 as found from sqlite_master where type = 'table' and name = ?`, table) !== undefined;
  }
}
