/**
 * Whether a change touches the review at all: the paths git lists between the base commit and the
 * head (review/changes.ts) against compliance.yml's document globs (the head's and the base's, so a
 * document moved or deleted out of scope counts too) and compliance.yml itself. A required check
 * runs on every pull request and decides here, in the job, that nothing is in scope, instead of
 * being skipped by a workflow `paths:` filter (GitHub leaves a skipped required check pending
 * forever). A list with an entry git could not classify touches everything.
 */
import type { ChangeList } from './changes.js';
import type { Config } from './config.js';
import { matchesGlob, normaliseRepoPath } from './glob.js';

export interface PullRequestScope {
  /** Changed paths that some configuration's documents select. */
  documents: string[];
  /** compliance.yml itself changed. */
  configChanged: boolean;
  /** Entries of the list that could not be classified: the change counts as touching everything. */
  unclassified: string[];
  inScope: boolean;
}

export function pullRequestScope(changes: ChangeList, configs: ReadonlyArray<Pick<Config, 'documents'>>, configPath: string): PullRequestScope {
  const changed = [...new Set(changes.paths.filter((path) => path !== '').map(normaliseRepoPath))];
  const patterns = configs.flatMap((config) => config.documents.flatMap((group) => group.paths));
  const documents = changed.filter((path) => patterns.some((pattern) => matchesGlob(pattern, path)));
  const configChanged = changed.includes(normaliseRepoPath(configPath));
  const { unclassified } = changes;
  return { documents, configChanged, unclassified, inScope: documents.length > 0 || configChanged || unclassified.length > 0 };
}
