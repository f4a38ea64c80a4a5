/**
 * Whether a pull request touches the review at all: the changed paths against compliance.yml's
 * document globs (the pull request's and the default branch's, so a document moved out of scope
 * counts too) and compliance.yml itself. A required check runs on every pull request and decides
 * here, in the job, that nothing is in scope, instead of being skipped by a workflow `paths:`
 * filter (GitHub leaves a skipped required check pending forever).
 */
import type { Config } from './config.js';
import { matchesGlob, normaliseRepoPath } from './glob.js';

export interface PullRequestScope {
  /** Changed paths that some configuration's documents select. */
  documents: string[];
  /** compliance.yml itself changed. */
  configChanged: boolean;
  inScope: boolean;
}

export function pullRequestScope(changedPaths: readonly string[], configs: ReadonlyArray<Pick<Config, 'documents'>>, configPath: string): PullRequestScope {
  const changed = [...new Set(changedPaths.map((path) => path.trim()).filter(Boolean).map(normaliseRepoPath))];
  const patterns = configs.flatMap((config) => config.documents.flatMap((group) => group.paths));
  const documents = changed.filter((path) => patterns.some((pattern) => matchesGlob(pattern, path)));
  const configChanged = changed.includes(normaliseRepoPath(configPath));
  return { documents, configChanged, inScope: documents.length > 0 || configChanged };
}
