import { describe, expect, it } from 'vitest';
import { compileGlob, globToRegExp, isGlob, matchesGlob, normaliseRepoPath } from '../../review/index.js';

describe('matchesGlob', () => {
  it.each([
    ['policies/*.md', 'policies/a.md', true],
    ['policies/*.md', 'policies/sub/a.md', false],
    ['policies/**/*.md', 'policies/a.md', true],
    ['policies/**/*.md', 'policies/x/y/a.md', true],
    ['**/*.{md,txt}', 'a/b.txt', true],
    ['./docs/?.md', 'docs/a.md', true],
    ['docs/[ab].md', 'docs/c.md', false],
    ['docs/a.md', 'docs/a.md', true],
    ['docs/a.md', 'docs/aXmd', false],
    // Anchored at both ends.
    ['docs/a.md', 'x/docs/a.md', false],
    ['docs/a.md', 'docs/a.mdx', false],
    // A trailing ** takes everything below; a leading **/ any directories, none included.
    ['docs/**', 'docs/a/b/c.md', true],
    ['docs/**', 'other/a.md', false],
    ['**/a.md', 'a.md', true],
    ['**/a.md', 'x/y/a.md', true],
    ['**/a.md', 'x/ya.md', false],
    ['**', 'x/y/z', true],
    // ** inside a segment is a *: it never crosses a /.
    ['a**b', 'axyb', true],
    ['a**b', 'ax/yb', false],
    ['a/**b', 'a/xb', true],
    ['a/**b', 'a/x/yb', false],
    ['a**/b', 'ax/b', true],
    ['a**/b', 'ax/y/b', false],
    ['?.md', 'a.md', true],
    ['a?c', 'a/c', false],
    ['docs/[!ab].md', 'docs/c.md', true],
    ['docs/[!ab].md', 'docs/a.md', false],
    ['docs/[a-c].md', 'docs/b.md', true],
    // An unclosed [ is a literal bracket; so are a ] and a } outside a class or braces, and a comma outside braces.
    ['a[b', 'a[b', true],
    ['a]b', 'a]b', true],
    ['a}b,c', 'a}b,c', true],
    ['{a,b}/x.md', 'b/x.md', true],
    ['{a,b}/x.md', 'c/x.md', false],
    ['{a,{b,c}}.md', 'c.md', true],
    // Characters that mean something in a regular expression are literal.
    ['a+b(c)|$^.md', 'a+b(c)|$^.md', true],
    ['a+b.md', 'aab.md', false],
    ['a.md', 'a.md\nb', false],
    // A literal ] before a class, and a ! inside a negated one.
    ['a]/[bc]', 'a]/b', true],
    ['docs/[!ab].md', 'docs/!.md', true],
    // A comma outside braces is a literal comma, not an alternative.
    ['a,b', 'a,b', true],
    ['a,b', 'b', false],
  ])('%s ~ %s = %s', (pattern, path, expected) => {
    // Compiled afresh: matchesGlob's cache would keep an expression across the mutation runs of one process.
    expect(compileGlob(pattern).test(normaliseRepoPath(path))).toBe(expected);
    expect(matchesGlob(pattern, path)).toBe(expected);
  });

  it('compares paths in their normal form, and gives one pattern one expression', () => {
    expect(matchesGlob('policies/a.md', '.\\policies\\\\a.md')).toBe(true);
    expect(globToRegExp('x/*.md')).toBe(globToRegExp('x/*.md'));
    expect(compileGlob('x/*.md').source).toBe('^x\\/[^/]*\\.md$');
  });

  it('refuses an unclosed brace, naming the pattern', () => {
    expect(() => compileGlob('docs/{a,b.md')).toThrow('unclosed "{" in glob docs/{a,b.md');
  });
});

describe('isGlob and normaliseRepoPath', () => {
  it('tells a pattern from a path by its wildcard characters', () => {
    expect(['a*', 'a?', 'a[b]', 'a]', '{a}', 'a}'].map(isGlob)).toEqual([true, true, true, true, true, true]);
    expect(isGlob('policies/a-b_c.md')).toBe(false);
  });

  it('writes separators as single slashes, without leading ./ or /', () => {
    expect(normaliseRepoPath('././a\\b///c/./d')).toBe('a/b/c/./d');
    expect(normaliseRepoPath('//a/b')).toBe('a/b');
  });
});
