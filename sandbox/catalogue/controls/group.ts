import { PARAPHRASES } from '../paraphrases.js';
import type { Control } from '../types.js';

/** One control written compactly: id, short title, description in our own words, evidence keywords. */
type ControlRow = readonly [id: string, title: string, description: string, keywords: readonly string[]];

/** Builds the controls of one family, all carrying the family's group name. */
export function controlGroup(group: string, rows: readonly ControlRow[]): Control[] {
  return rows.map(([id, title, description, keywords]) => {
    const paraphrases = PARAPHRASES[id];
    return { id, title, group, description, keywords: [...keywords], ...(paraphrases ? { paraphrases: [...paraphrases] } : {}) };
  });
}
