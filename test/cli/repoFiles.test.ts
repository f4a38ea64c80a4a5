/** review/node: repo paths stay inside the root, text must be UTF-8, writes are atomic. */
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeUtf8, listRepoFiles, readConfigFile, readOptionalRepoFiles, readRepoBytes, readRepoFiles, resolveRepoPath, writeRepoFile } from '../../review/node/index.js';

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

describe('review/node files: every refusal names the file and why', () => {
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'repo-files-edges-'));
    mkdirSync(join(dir, 'docs/sub'), { recursive: true });
    writeFileSync(join(dir, 'docs/a.md'), 'hello');
    writeFileSync(join(dir, 'docs/sub/b.md'), 'nested');
    return dir;
  };

  it('a path that is no file path, absolute (POSIX or Windows) or climbing out', () => {
    const refused = (path: string) => {
      try {
        resolveRepoPath('/repo', path);
      } catch (error) {
        return { code: (error as { code: string }).code, path: (error as { path: string }).path, message: (error as Error).message };
      }
      return undefined;
    };
    expect(refused('  ')).toEqual({ code: 'unsafe_path', path: '  ', message: '"  " is not a file path' });
    expect(refused('docs/a\0.md')).toMatchObject({ code: 'unsafe_path', message: expect.stringContaining('is not a file path') });
    for (const path of ['/etc/passwd', 'C:\\x.md', 'c:/x.md']) expect(refused(path), path).toEqual({ code: 'unsafe_path', path, message: `${path}: absolute paths are refused; give a path relative to the repository root` });
    expect(refused('docs/../../x.md')).toEqual({ code: 'unsafe_path', path: 'docs/../../x.md', message: 'docs/../../x.md: ".." would leave the repository root; give a path inside it' });
    expect(resolveRepoPath('/repo', './docs//a.md')).toBe('/repo/docs/a.md');
    expect(resolveRepoPath('/repo', 'C.md')).toBe('/repo/C.md');
  });

  it('bytes of a file, undefined when it is missing, an error for a directory; missing is an error where the file is required', async () => {
    const dir = fresh();
    try {
      expect(new TextDecoder().decode(await readRepoBytes(dir, 'docs/a.md'))).toBe('hello');
      expect(await readRepoBytes(dir, 'docs/none.md')).toBeUndefined();
      await expect(readRepoBytes(dir, 'docs')).rejects.toMatchObject({ code: 'not_a_file', path: 'docs', message: 'docs: is not a regular file' });
      await expect(readRepoFiles(dir, ['docs/none.md'])).rejects.toMatchObject({ code: 'not_found', path: 'docs/none.md', message: `docs/none.md: no such file in ${dir}` });
      const optional = await readOptionalRepoFiles(dir, ['./docs/a.md', 'docs/none.md']);
      expect(Object.keys(optional)).toEqual(['docs/a.md', 'docs/none.md']);
      expect(new TextDecoder().decode(optional['docs/a.md'])).toBe('hello');
      expect(optional['docs/none.md']).toBeUndefined();
      expect(() => decodeUtf8(Uint8Array.from([0xff]), 'x.md')).toThrow(expect.objectContaining({ code: 'not_utf8', path: 'x.md', hint: expect.stringContaining('iconv') }));
      expect(decodeUtf8(Uint8Array.from([0xef, 0xbb, 0xbf, 0x61]), 'bom.md')).toBe('a');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists nested files and links to files inside the root; not links to directories, dangling links or links leaving it', async () => {
    const dir = fresh();
    try {
      symlinkSync(join(dir, 'docs/a.md'), join(dir, 'docs/link.md'));
      symlinkSync(join(dir, 'docs/sub'), join(dir, 'docs/dir-link'));
      symlinkSync(join(dir, 'docs/gone.md'), join(dir, 'docs/dangling.md'));
      symlinkSync(join(outside, 'secret.md'), join(dir, 'docs/out.md'));
      mkdirSync(join(dir, '.git'));
      writeFileSync(join(dir, '.git/HEAD'), 'ref');
      expect(await listRepoFiles(dir)).toEqual(['docs/a.md', 'docs/link.md', 'docs/sub/b.md']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writing: under a file, over a directory, through a link, outside the root or at the root itself is refused with the reason', async () => {
    const dir = fresh();
    try {
      await expect(writeRepoFile(dir, 'docs/a.md/b.md', 'x')).rejects.toMatchObject({ code: 'not_a_file', path: 'docs/a.md', message: 'docs/a.md: is a file, so docs/a.md/b.md cannot be written under it' });
      await expect(writeRepoFile(dir, 'docs/sub', 'x')).rejects.toMatchObject({ code: 'not_a_file', path: 'docs/sub', message: 'docs/sub: exists and is not a regular file' });
      symlinkSync(join(dir, 'docs/sub'), join(dir, 'alias'));
      await expect(writeRepoFile(dir, 'alias/c.md', 'x')).rejects.toMatchObject({ code: 'unsafe_path', path: 'alias', message: 'alias: is a symbolic link; nothing is written through links', hint: expect.stringContaining('real directory') });
      const elsewhere = join(outside, 'x.md');
      await expect(writeRepoFile(dir, elsewhere, 'x')).rejects.toMatchObject({ code: 'unsafe_path', path: elsewhere, message: `${elsewhere}: is outside ${dir}; files are written only inside it`, hint: expect.stringContaining('inside the checkout') });
      await expect(writeRepoFile(dir, dir, 'x')).rejects.toMatchObject({ code: 'unsafe_path', message: `${dir}: is outside ${dir}; files are written only inside it` });
      expect(await writeRepoFile(dir, 'new/deeper/c.md', 'c')).toBe(join(dir, 'new/deeper/c.md'));
      expect(readFileSync(join(dir, 'new/deeper/c.md'), 'utf8')).toBe('c');
      expect(await writeRepoFile(dir, 'docs/a.md', 'replaced')).toBe(join(dir, 'docs/a.md'));
      expect(readdirSync(join(dir, 'docs')).sort()).toEqual(['a.md', 'sub']);
      expect(readFileSync(join(dir, 'docs/a.md'), 'utf8')).toBe('replaced');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
