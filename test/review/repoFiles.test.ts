/**
 * review/node/files.ts over a temporary directory: which paths it refuses and why, what it lists,
 * and that a write lands whole, only inside the root, never through a link.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { listRepoFiles, readRepoBytes, readRepoFiles, RepoFileError, resolveRepoPath, writeRepoFile } from '../../review/node/files.js';

let outside: string;
let root: string;
beforeEach(() => {
  outside = mkdtempSync(join(tmpdir(), 'repo-files-'));
  root = join(outside, 'repo');
  mkdirSync(root);
  writeFileSync(join(outside, 'secret.md'), 'outside the repository');
  writeFileSync(join(root, 'a.md'), 'a');
});

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('reading', () => {
  it('names its errors RepoFileError', async () => {
    const error = await refusal(readRepoFiles(root, ['missing.md']));
    expect(error).toBeInstanceOf(RepoFileError);
    expect(error).toMatchObject({ name: 'RepoFileError', code: 'not_found', path: 'missing.md', message: `missing.md: no such file in ${root}` });
  });

  it('refuses a link that leaves the root, to a file or to the directory above, naming where it goes', async () => {
    symlinkSync(join(outside, 'secret.md'), join(root, 'escape.md'));
    symlinkSync(outside, join(root, 'up'));
    expect(await refusal(readRepoBytes(root, 'escape.md'))).toMatchObject({ code: 'unsafe_path', message: `escape.md: is a symbolic link that leaves the repository root (to ${join(outside, 'secret.md')})` });
    expect(await refusal(readRepoBytes(root, 'up'))).toMatchObject({ code: 'unsafe_path', message: `up: is a symbolic link that leaves the repository root (to ${outside})` });
  });

  it('reads a file whose name starts with two dots, and calls the root itself no file', async () => {
    writeFileSync(join(root, '..notes.md'), 'dots');
    expect(await readRepoFiles(root, ['..notes.md'])).toEqual([{ path: '..notes.md', content: 'dots' }]);
    expect(await refusal(readRepoBytes(root, '.'))).toMatchObject({ code: 'not_a_file', message: '.: is not a regular file' });
  });

  it('calls a file too large to read unreadable, saying why', async () => {
    // Sparse: 3 GiB long, nothing on disk, past what one read may hold.
    writeFileSync(join(root, 'huge.md'), '');
    truncateSync(join(root, 'huge.md'), 3 * 1024 ** 3);
    expect(await refusal(readRepoBytes(root, 'huge.md'))).toMatchObject({ code: 'unreadable', path: 'huge.md', message: expect.stringMatching(/^huge\.md: File size \(3221225472\) is greater than 2 GiB/) });
  });

  it('calls a path through a file unreadable, saying why', async () => {
    expect(await refusal(readRepoBytes(root, 'a.md/inner.md'))).toMatchObject({ code: 'unreadable', path: 'a.md/inner.md', message: expect.stringMatching(/^a\.md\/inner\.md: ENOTDIR/) });
  });

  it('takes a drive letter only at the start of a path as absolute', () => {
    expect(resolveRepoPath(root, 'notes/c:/x.md')).toBe(join(root, 'notes/c:/x.md'));
    expect(() => resolveRepoPath(root, 'c:/x.md')).toThrow('c:/x.md: absolute paths are refused; give a path relative to the repository root');
  });
});

describe('listRepoFiles', () => {
  it('lists every file in code-unit order, whatever order the directory gives', async () => {
    for (const name of ['b.md', 'C.md', 'a0.md', 'B.md', 'docs-a.md']) writeFileSync(join(root, name), name);
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'z.md'), 'z');
    // Node lists a directory sorted, yet a walk reaches docs/ before docs-a.md: '-' sorts before '/'.
    expect(await listRepoFiles(root)).toEqual(['B.md', 'C.md', 'a.md', 'a0.md', 'b.md', 'docs-a.md', 'docs/z.md']);
  });
});

describe('writeRepoFile', () => {
  it('writes the whole file, replacing what was there, and leaves no temporary file beside it', async () => {
    expect(await writeRepoFile(root, 'generated/policy.md', 'first')).toBe(join(root, 'generated', 'policy.md'));
    await writeRepoFile(root, 'generated/policy.md', new TextEncoder().encode('second'));
    expect(readFileSync(join(root, 'generated', 'policy.md'), 'utf8')).toBe('second');
    expect(readdirSync(join(root, 'generated'))).toEqual(['policy.md']);
  });

  it('refuses to write over a directory, leaving nothing behind', async () => {
    mkdirSync(join(root, 'dir'));
    const error = await refusal(writeRepoFile(root, 'dir', 'x'));
    expect(error).toMatchObject({ code: 'not_a_file', message: 'dir: exists and is not a regular file' });
    expect(readdirSync(root).sort()).toEqual(['a.md', 'dir']);
  });

  it('refuses to write under a file, and calls a path component it cannot inspect unreadable', async () => {
    expect(await refusal(writeRepoFile(root, 'a.md/inner.md', 'x'))).toMatchObject({ code: 'not_a_file', message: 'a.md: is a file, so a.md/inner.md cannot be written under it' });
    expect(await refusal(writeRepoFile(root, `${'x'.repeat(300)}/f.md`, 'x'))).toMatchObject({ code: 'unreadable', path: 'x'.repeat(300), message: expect.stringMatching(/: ENAMETOOLONG/) });
  });
});
