/**
 * Reading git itself, never a list a workflow wrote: the commit the checkout is at, whether a
 * commit is in the clone, a file as a commit holds it, the files a commit holds, and what changed
 * since a base commit (review/changes.ts reads the list). Paths are relative to `root` (the folder
 * of compliance.yml, which may be a subfolder of the repository). git runs without a shell and
 * without optional locks, so a read never blocks a concurrent git command.
 */
import { execFile } from 'node:child_process';
import { parseNameStatus, parsePathList, type ChangeList } from '../changes.js';

const COMMIT = /^[0-9a-f]{40,64}$/;

/** git's stdout as bytes, or undefined when git failed (not a repository, no such object, no git). */
function git(root: string, args: readonly string[]): Promise<Buffer | undefined> {
  return new Promise((resolvePromise) => {
    execFile('git', ['-c', 'core.quotePath=false', ...args], { cwd: root, encoding: 'buffer', maxBuffer: 256 * 1024 * 1024, timeout: 60_000, env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } }, (error, stdout) => {
      resolvePromise(error ? undefined : stdout);
    });
  });
}

async function commitOf(root: string, revision: string): Promise<string | undefined> {
  const out = (await git(root, ['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`]))?.toString('utf8').trim();
  return out && COMMIT.test(out) ? out : undefined;
}

/** The commit HEAD is at; undefined outside a git checkout. */
export function gitHead(root: string): Promise<string | undefined> {
  return commitOf(root, 'HEAD');
}

/** `commit` when the clone holds it (a shallow clone may not). */
export function presentCommit(root: string, commit: string): Promise<string | undefined> {
  return COMMIT.test(commit) ? commitOf(root, commit) : Promise.resolve(undefined);
}

/** The commit a branch of `origin` (or, failing that, a local branch) is at, when the clone has it. */
export async function branchCommit(root: string, branch: string): Promise<string | undefined> {
  if (branch.startsWith('-') || /[\s~^:?*[\\]/.test(branch)) return undefined;
  return (await commitOf(root, `refs/remotes/origin/${branch}`)) ?? commitOf(root, `refs/heads/${branch}`);
}

/** A file's text at `commit` (path relative to `root`); undefined when the commit has no such file. */
export async function fileAtCommit(root: string, commit: string, path: string): Promise<string | undefined> {
  const bytes = await git(root, ['cat-file', 'blob', `${commit}:./${path}`]);
  return bytes === undefined ? undefined : new TextDecoder('utf-8').decode(bytes);
}

/** Every file `commit` holds under `root`, relative to it. */
export async function filesAtCommit(root: string, commit: string): Promise<string[] | undefined> {
  const out = await git(root, ['ls-tree', '-r', '-z', '--name-only', commit, '--', '.']);
  if (out === undefined) return undefined;
  return out.toString('utf8').split('\0').filter(Boolean);
}

/**
 * What changed from `base` to the files as they stand in the checkout (what is mapped), from their
 * merge base as a pull request shows it: committed, staged and unstaged changes and files git does
 * not track, under `root`. Undefined when git cannot tell (no merge base in a shallow clone, not a
 * repository): the caller then counts everything as changed.
 */
export async function changesSince(root: string, base: string): Promise<ChangeList | undefined> {
  const mergeBase = (await git(root, ['merge-base', base, 'HEAD']))?.toString('utf8').trim();
  if (!mergeBase || !COMMIT.test(mergeBase)) return undefined;
  const diff = await git(root, ['diff', '--no-renames', '--no-ext-diff', '--name-status', '-z', '--relative', mergeBase, '--']);
  const untracked = await git(root, ['ls-files', '-z', '--others', '--', '.']);
  if (diff === undefined || untracked === undefined) return undefined;
  const listed = parseNameStatus(diff);
  const added = parsePathList(untracked);
  return { paths: [...new Set([...listed.paths, ...added.paths])], unclassified: [...listed.unclassified, ...added.unclassified] };
}

/** Whether `path` is committed in the checkout (a file the change itself could have written). */
export async function isTracked(root: string, path: string): Promise<boolean> {
  return (await git(root, ['ls-files', '--error-unmatch', '--', path])) !== undefined;
}
