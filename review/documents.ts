/**
 * Which repo files are compliance documents: the config's groups matched against the repo's paths.
 * The caller lists the repo's files, asks which to read, then passes their contents on.
 */
import type { DocumentGroup, FrameworkConfig } from './config.js';
import { ReviewError } from './errors.js';
import { matchesGlob, normaliseRepoPath } from './glob.js';

export interface RepoFile {
  /** Repo-relative POSIX path; stored as the library document's `filename`. */
  path: string;
  content: string;
}

interface SelectedPath {
  path: string;
  /** The first group whose globs match the path: its category and tags apply. */
  group: DocumentGroup;
  groupIndex: number;
}

/** The paths the groups select, in the given order; a glob that matches nothing is an error. */
export function selectDocumentPaths(groups: readonly DocumentGroup[], paths: readonly string[]): SelectedPath[] {
  const normalised = [...new Set(paths.map(normaliseRepoPath))];
  const unmatched: string[] = [];
  groups.forEach((group, groupIndex) => {
    for (const pattern of group.paths) {
      if (!normalised.some((path) => matchesGlob(pattern, path))) {
        unmatched.push(`documents[${groupIndex}]${group.name ? ` (${group.name})` : ''}: "${pattern}"`);
      }
    }
  });
  if (unmatched.length > 0) {
    throw new ReviewError(
      'glob_no_match',
      `these globs match no file: ${unmatched.join('; ')}`,
      'Fix the pattern in compliance.yml or remove it; paths are relative to the repository root.',
    );
  }
  const selected: SelectedPath[] = [];
  for (const path of normalised) {
    const groupIndex = groups.findIndex((group) => group.paths.some((pattern) => matchesGlob(pattern, path)));
    const group = groups[groupIndex];
    if (group) selected.push({ path, group, groupIndex });
  }
  return selected;
}

/** The files a framework maps: its group names and globs, or every document when it names none. */
export function frameworkDocuments<F extends { path: string }>(
  framework: Pick<FrameworkConfig, 'framework' | 'documents'>,
  groups: readonly DocumentGroup[],
  files: readonly F[],
): F[] {
  if (!framework.documents) return [...files];
  const chosen = new Set<string>();
  for (const ref of framework.documents) {
    const group = groups.find((candidate) => candidate.name === ref);
    const patterns = group ? group.paths : [ref];
    const matched = files.filter((file) => patterns.some((pattern) => matchesGlob(pattern, file.path)));
    if (matched.length === 0) {
      throw new ReviewError(
        group ? 'glob_no_match' : 'unknown_document_group',
        `framework ${framework.framework}: "${ref}" selects no document`,
        'Name a document group from compliance.yml or a glob that matches one of its files.',
      );
    }
    for (const file of matched) chosen.add(file.path);
  }
  return files.filter((file) => chosen.has(file.path));
}
