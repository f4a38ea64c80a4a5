/**
 * The classification cache: the documents a new one is compared with (the key's most recent ready,
 * classified documents) and their term profiles, kept parsed in memory.
 */
import type { Statements } from '../sqlite.js';
import type { TermProfile } from './analysis.js';
import type { ClassifiedNeighbour } from './classify.js';
import { DOCUMENTS_TABLE } from './schema.js';

/** The caller's most recent ready documents the classifier compares a new document with. */
const CLASSIFICATION_NEIGHBOURS = 150;
/** Profiles kept parsed in memory (about 3 KB each); the cache starts over beyond this. */
const PROFILE_CACHE_MAX = 5_000;

export class ClassificationNeighbours {
  /** Parsed term profiles of classified documents, by document seq. */
  private readonly profiles = new Map<number, { stamp: string; neighbour: ClassifiedNeighbour }>();

  constructor(private readonly sql: Statements) {}

  /**
   * The key's neighbours of `documentId`. Profiles are cached by document and stamp (version,
   * update time, category): a stamp that no longer matches the row (a refresh, a rolled-back
   * transaction) reads the row again, so the cache never answers with a state the database does not hold.
   */
  of(keyId: string, documentId: string): ClassifiedNeighbour[] {
    const rows = this.sql.rows<{ seq: number; category: string; version: number; updated_at: string }>(
      `select seq, category, version, updated_at from ${DOCUMENTS_TABLE}
       where key_id = ? and id <> ? and status = 'ready' and category is not null and profile is not null
       order by seq desc limit ${CLASSIFICATION_NEIGHBOURS}`,
      keyId, documentId,
    );
    if (this.profiles.size > PROFILE_CACHE_MAX) this.profiles.clear();
    return rows.map((r) => {
      const stamp = `${r.version}|${r.updated_at}|${r.category}`;
      let cached = this.profiles.get(r.seq);
      if (cached?.stamp !== stamp) {
        const profile = this.sql.row<{ profile: string }>(`select profile from ${DOCUMENTS_TABLE} where seq = ?`, r.seq)?.profile ?? '{}';
        cached = { stamp, neighbour: { category: r.category, profile: JSON.parse(profile) as TermProfile } };
        this.profiles.set(r.seq, cached);
      }
      return cached.neighbour;
    });
  }
}
