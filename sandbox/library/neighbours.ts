/**
 * The classification cache: the documents a new one is compared with (the key's most recent ready,
 * classified documents) and their term profiles, kept parsed and numbered in memory.
 */
import type { Statements } from '../sqlite.js';
import type { TermProfile } from './analysis.js';
import type { ClassifiedNeighbour, Neighbourhood } from './classify.js';
import { DOCUMENTS_TABLE } from './schema.js';

/** The caller's most recent ready documents the classifier compares a new document with. */
const CLASSIFICATION_NEIGHBOURS = 150;
/** Profiles kept parsed in memory (80 terms each); the cache starts over beyond this. */
const PROFILE_CACHE_MAX = 5_000;
/** Distinct terms numbered; the cache starts over beyond this (the classifier's arrays have this length). */
const TERM_NUMBERS_MAX = 40_000;

export class ClassificationNeighbours {
  /** Parsed term profiles of classified documents, by document seq. */
  private readonly profiles = new Map<number, { stamp: string; neighbour: ClassifiedNeighbour }>();
  /** The number of each term of the cached profiles. */
  private readonly termNumbers = new Map<string, number>();

  constructor(private readonly sql: Statements) {}

  /**
   * The key's neighbours of `documentId`. Profiles are cached by document and stamp (version,
   * update time, category): a stamp that no longer matches the row (a refresh, a rolled-back
   * transaction) reads the row again, so the cache never answers with a state the database does not hold.
   */
  of(keyId: string, documentId: string): Neighbourhood {
    const rows = this.sql.rows<{ seq: number; category: string; version: number; updated_at: string }>(
      `select seq, category, version, updated_at from ${DOCUMENTS_TABLE}
       where key_id = ? and id <> ? and status = 'ready' and category is not null and profile is not null
       order by seq desc limit ${CLASSIFICATION_NEIGHBOURS}`,
      keyId, documentId,
    );
    if (this.profiles.size > PROFILE_CACHE_MAX || this.termNumbers.size > TERM_NUMBERS_MAX) {
      this.profiles.clear();
      this.termNumbers.clear();
    }
    const neighbours = rows.map((r) => {
      const stamp = `${r.version}|${r.updated_at}|${r.category}`;
      let cached = this.profiles.get(r.seq);
      if (cached?.stamp !== stamp) {
        const profile = this.sql.row<{ profile: string }>(`select profile from ${DOCUMENTS_TABLE} where seq = ?`, r.seq)?.profile ?? '{}';
        cached = { stamp, neighbour: this.numbered(r.category, JSON.parse(profile) as TermProfile) };
        this.profiles.set(r.seq, cached);
      }
      return cached.neighbour;
    });
    return { termNumbers: this.termNumbers, neighbours };
  }

  /** A profile as the classifier reads it: its terms numbered, its weights scaled to a unit vector. */
  private numbered(category: string, profile: TermProfile): ClassifiedNeighbour {
    const entries = Object.entries(profile);
    const norm = Math.hypot(...entries.map(([, weight]) => weight)) || 1;
    const terms = Int32Array.from(entries, ([term]) => {
      let number = this.termNumbers.get(term);
      if (number === undefined) this.termNumbers.set(term, (number = this.termNumbers.size));
      return number;
    });
    return { category, terms, weights: Float64Array.from(entries, ([, weight]) => weight / norm) };
  }
}
