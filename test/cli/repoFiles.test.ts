/** review/node: repo paths stay inside the root, text must be UTF-8, writes are atomic. */
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listRepoFiles, readConfigFile, readRepoFiles, writeRepoFile } from '../../review/node/index.js';

const root = mkdtempSync(join(tmpdir(), 'repo-files-'));
const outside = mkdtempSync(join(tmpdir(), 'outside-'));
mkdirSync(join(root, 'docs'));
mkdirSync(join(root, 'node_modules/x'), { recursive: true });
writeFileSync(join(root, 'docs/a.md'), 'hello');
writeFileSync(join(root, 'node_modules/x/b.md'), 'dependency');
writeFileSync(join(root, 'docs/latin1.md'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
writeFileSync(join(outside, 'secret.md'), 'secret');
symlinkSync(join(outside, 'secret.md'), join(root, 'docs/escape.md'));
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('review/node files', () => {
  it('lists files without node_modules and without links that leave the root', async () => {
    expect(await listRepoFiles(root)).toEqual(['docs/a.md', 'docs/latin1.md']);
  });
  it('refuses .., absolute paths and escaping symlinks; names non-UTF-8 files', async () => {
    await expect(readRepoFiles(root, ['../x.md'])).rejects.toMatchObject({ code: 'unsafe_path' });
    await expect(readRepoFiles(root, [join(outside, 'secret.md')])).rejects.toMatchObject({ code: 'unsafe_path' });
    await expect(readRepoFiles(root, ['docs/escape.md'])).rejects.toMatchObject({ code: 'unsafe_path' });
    await expect(readRepoFiles(root, ['docs/latin1.md'])).rejects.toThrow('docs/latin1.md: is not UTF-8 text');
    expect(await readRepoFiles(root, ['./docs/a.md'])).toEqual([{ path: 'docs/a.md', content: 'hello' }]);
  });
  it('writes atomically (no temp file left) and refuses to write through an escaping link', async () => {
    await writeRepoFile(root, 'out/new.md', 'x');
    expect(readdirSync(join(root, 'out'))).toEqual(['new.md']);
    await expect(writeRepoFile(root, 'docs/escape.md', 'overwrite')).rejects.toMatchObject({ code: 'unsafe_path' });
    expect(readFileSync(join(outside, 'secret.md'), 'utf8')).toBe('secret');
  });
  it('never writes through a symlinked directory anywhere on the way, nor outside the root', async () => {
    // `generated -> /elsewhere` committed by a pull request's author, at the top and one level down.
    symlinkSync(outside, join(root, 'generated'));
    mkdirSync(join(root, 'reports'));
    symlinkSync(outside, join(root, 'reports/latest'));
    symlinkSync(join(root, 'docs'), join(root, 'docs-alias'));
    for (const path of ['generated/policy.md', 'generated/new/deeper/policy.md', 'reports/latest/report.json', 'docs-alias/a.md']) {
      await expect(writeRepoFile(root, path, 'x'), path).rejects.toMatchObject({ code: 'unsafe_path', message: expect.stringContaining('symbolic link') });
    }
    for (const path of ['../escape.md', 'docs/../../escape.md', join(outside, 'abs.md')]) {
      await expect(writeRepoFile(root, path, 'x'), path).rejects.toMatchObject({ code: 'unsafe_path' });
    }
    expect(readdirSync(outside).sort()).toEqual(['secret.md']);
    expect(existsSync(join(root, 'docs/new'))).toBe(false);
  });
  it('takes an absolute path inside the root, and refuses to replace a directory or write under a file', async () => {
    expect(await writeRepoFile(root, join(root, 'out/abs.md'), 'y')).toBe(join(root, 'out/abs.md'));
    expect(readFileSync(join(root, 'out/abs.md'), 'utf8')).toBe('y');
    await expect(writeRepoFile(root, 'docs', 'x')).rejects.toMatchObject({ code: 'not_a_file' });
    await expect(writeRepoFile(root, 'docs/a.md/b.md', 'x')).rejects.toMatchObject({ code: 'not_a_file' });
    expect(readFileSync(join(root, 'docs/a.md'), 'utf8')).toBe('hello');
  });
  it('a missing compliance.yml is a config error naming the file', async () => {
    await expect(readConfigFile(root)).rejects.toThrow(/compliance\.yml: not found/);
  });
  it('reads only a YAML file as the configuration (issue 37.9): another file named as one is not read', async () => {
    await expect(readConfigFile('/proc/self', 'status')).rejects.toThrow(/^status: is not a YAML file: .*nothing was read$/);
    await expect(readConfigFile(root, 'docs/a.md')).rejects.toThrow(/is not a YAML file/);
  });
});
