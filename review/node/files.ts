/**
 * Reading and writing a repository's files for the review loop, safely: every path is relative to
 * the repo root, may not climb out of it (`..`, absolute paths, symlinks pointing outside) and text
 * must be UTF-8. Errors name the file. No process.exit, no console: callers decide what to print.
 */
import { lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { dirname, isAbsolute, join, relative, resolve, sep, basename } from 'node:path';
import { normaliseRepoPath } from '../glob.js';
import type { RepoFile } from '../documents.js';

export type RepoFileErrorCode = 'unsafe_path' | 'not_found' | 'not_a_file' | 'not_utf8' | 'unreadable';

/** A repo file that cannot be read or written as asked; `path` is the offending repo path. */
export class RepoFileError extends Error {
  readonly code: RepoFileErrorCode;
  readonly path: string;
  readonly hint: string | undefined;

  constructor(code: RepoFileErrorCode, path: string, message: string, hint?: string) {
    super(message);
    this.name = 'RepoFileError';
    this.code = code;
    this.path = path;
    this.hint = hint;
  }
}

/** Directories never walked: version control and dependencies. */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set(['.git', 'node_modules']);

function isInside(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

function errnoCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * The absolute path of a repo-relative path, refusing anything that would leave the root. Checks
 * the text of the path only (the file need not exist); see resolveExistingRepoPath for symlinks.
 */
export function resolveRepoPath(root: string, path: string): string {
  if (path.trim() === '' || path.includes('\0')) throw new RepoFileError('unsafe_path', path, `"${path}" is not a file path`);
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path)) {
    throw new RepoFileError('unsafe_path', path, `${path}: absolute paths are refused; give a path relative to the repository root`);
  }
  const normalised = normaliseRepoPath(path);
  if (normalised.split('/').includes('..')) {
    throw new RepoFileError('unsafe_path', path, `${path}: ".." would leave the repository root; give a path inside it`);
  }
  const absolute = resolve(root, normalised);
  if (!isInside(resolve(root), absolute)) {
    throw new RepoFileError('unsafe_path', path, `${path}: leaves the repository root`);
  }
  return absolute;
}

/** Like resolveRepoPath, and the real file (after symlinks) must be inside the real root. */
async function resolveExistingRepoPath(root: string, path: string): Promise<string> {
  const absolute = resolveRepoPath(root, path);
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') throw new RepoFileError('not_found', path, `${path}: no such file in ${root}`);
    throw new RepoFileError('unreadable', path, `${path}: ${(error as Error).message}`);
  }
  if (!isInside(await realpath(root), real)) {
    throw new RepoFileError('unsafe_path', path, `${path}: is a symbolic link that leaves the repository root (to ${real})`);
  }
  return real;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Strict UTF-8 (a BOM is dropped); anything else is an error naming the file. */
export function decodeUtf8(bytes: Uint8Array, path: string): string {
  try {
    return utf8.decode(bytes);
  } catch {
    throw new RepoFileError('not_utf8', path, `${path}: is not UTF-8 text`, 'Convert it to UTF-8 (for example `iconv -f latin1 -t utf-8`), or leave it out of compliance.yml.');
  }
}

/** The bytes of one repo file, or undefined when it does not exist. Path safety as readRepoFiles. */
export async function readRepoBytes(root: string, path: string): Promise<Uint8Array | undefined> {
  let real: string;
  try {
    real = await resolveExistingRepoPath(root, path);
  } catch (error) {
    if (error instanceof RepoFileError && error.code === 'not_found') return undefined;
    throw error;
  }
  const info = await stat(real);
  if (!info.isFile()) throw new RepoFileError('not_a_file', path, `${path}: is not a regular file`);
  try {
    return new Uint8Array(await readFile(real));
  } catch (error) {
    throw new RepoFileError('unreadable', path, `${path}: ${(error as Error).message}`);
  }
}

/** Reads the given repo-relative files as UTF-8 text, in order. Missing or unsafe files are errors. */
export async function readRepoFiles(root: string, paths: readonly string[]): Promise<RepoFile[]> {
  return Promise.all(
    paths.map(async (path) => {
      const bytes = await readRepoBytes(root, path);
      if (bytes === undefined) throw new RepoFileError('not_found', path, `${path}: no such file in ${root}`);
      return { path: normaliseRepoPath(path), content: decodeUtf8(bytes, path) };
    }),
  );
}

/**
 * Files that may be absent (generated documents): bytes by repo path, undefined when missing.
 * The shape detectDrift takes as `files`.
 */
export async function readOptionalRepoFiles(root: string, paths: readonly string[]): Promise<Record<string, Uint8Array | undefined>> {
  const entries = await Promise.all(paths.map(async (path) => [normaliseRepoPath(path), await readRepoBytes(root, path)] as const));
  return Object.fromEntries(entries);
}

/**
 * Every file under the root as sorted POSIX repo paths, skipping .git and node_modules. A symlink
 * is listed when it points to a file inside the root; links to directories are not followed
 * (no cycles) and links leaving the root are left out.
 */
export async function listRepoFiles(root: string): Promise<string[]> {
  const realRoot = await realpath(root);
  const out: string[] = [];
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const repoPath = prefix ? `${prefix}/${entry.name}` : entry.name;
      const absolute = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(absolute, repoPath);
      } else if (entry.isFile()) {
        out.push(repoPath);
      } else if (entry.isSymbolicLink()) {
        try {
          const target = await realpath(absolute);
          if (isInside(realRoot, target) && (await stat(target)).isFile()) out.push(repoPath);
        } catch {
          // A dangling link is no document.
        }
      }
    }
  };
  await walk(realRoot, '');
  return out.sort();
}

/**
 * Writes a file so that no reader ever sees it half-written: a temporary file beside it, then a
 * rename over the target (which replaces a link at the target instead of writing through it).
 * The directory must exist and be trusted: only the confined writer below calls this.
 */
async function replaceFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temporary, data, { flush: true, flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

/**
 * The one writer of every surface (CLI, actions, MCP): writes `path` under `root` atomically and
 * never outside it. `path` is repo-relative, or absolute inside the root. Every component on the
 * way is checked as it is walked: no `..`, no symbolic link anywhere (a committed
 * `generated -> /elsewhere` would otherwise carry writes out of the checkout, and in a pull request
 * its author controls such links), missing directories created one at a time. Returns the absolute
 * path written.
 */
export async function writeRepoFile(root: string, path: string, data: string | Uint8Array): Promise<string> {
  const realRoot = await realpath(root);
  const relativePath = isAbsolute(path) ? repoRelative(root, realRoot, path) : path;
  resolveRepoPath(realRoot, relativePath);
  const components = normaliseRepoPath(relativePath).split('/');
  let current = realRoot;
  for (const [index, component] of components.entries()) {
    current = join(current, component);
    const shown = components.slice(0, index + 1).join('/');
    const last = index === components.length - 1;
    let info;
    try {
      info = await lstat(current);
    } catch (error) {
      if (errnoCode(error) !== 'ENOENT') throw new RepoFileError('unreadable', shown, `${shown}: ${(error as Error).message}`);
      if (!last) await mkdir(current);
      continue;
    }
    if (info.isSymbolicLink()) {
      throw new RepoFileError('unsafe_path', shown, `${shown}: is a symbolic link; nothing is written through links`, 'Write to a real directory inside the checkout, or replace the link with a directory.');
    }
    if (!last && !info.isDirectory()) throw new RepoFileError('not_a_file', shown, `${shown}: is a file, so ${path} cannot be written under it`);
    if (last && !info.isFile()) throw new RepoFileError('not_a_file', shown, `${shown}: exists and is not a regular file`);
  }
  await replaceFileAtomically(current, data);
  return current;
}

/** An absolute path as a path relative to the root, or an error when it lies outside. */
function repoRelative(root: string, realRoot: string, path: string): string {
  for (const base of [resolve(root), realRoot]) {
    if (isInside(base, resolve(path)) && relative(base, resolve(path)) !== '') return relative(base, resolve(path)).split(sep).join('/');
  }
  throw new RepoFileError('unsafe_path', path, `${path}: is outside ${root}; files are written only inside it`, 'Give a path inside the checkout (relative paths are taken from its root).');
}
