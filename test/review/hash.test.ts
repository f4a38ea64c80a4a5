import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentHash, matchesGlob, normaliseContent, sameHash, sha256Hex } from '../../review/index.js';

describe('normaliseContent', () => {
  it('makes a CRLF checkout, trailing spaces and extra blank lines no change', () => {
    const unix = '# Policy\n\nText line\n';
    const windows = '\uFEFF# Policy  \r\n\r\nText line\t\r\n\r\n\r\n';
    expect(normaliseContent(windows)).toBe(unix);
    expect(contentHash(windows)).toBe(contentHash(unix));
    expect(normaliseContent('a\rb')).toBe('a\nb\n');
  });

  it('still sees a real edit', () => {
    expect(contentHash('# Policy\n\nText line\n')).not.toBe(contentHash('# Policy\n\nText line.\n'));
    expect(contentHash('a\n\nb')).not.toBe(contentHash('a\nb'));
  });

  it('is stable under a second normalisation (what the library stores after upload)', () => {
    const once = normaliseContent(' x \r\n y\u00a0\n\n');
    expect(normaliseContent(once)).toBe(once);
  });
});

describe('sha256Hex', () => {
  it('matches node:crypto on edge lengths and random data', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 1000, 100_003]) {
      const data = randomBytes(length);
      expect(sha256Hex(new Uint8Array(data))).toBe(createHash('sha256').update(data).digest('hex'));
    }
  });

  it('hashes normalised UTF-8 with the sha256: prefix', () => {
    const text = 'Données à caractère personnel — 個人情報\r\n';
    expect(contentHash(text)).toBe(`sha256:${createHash('sha256').update(normaliseContent(text), 'utf8').digest('hex')}`);
    expect(sameHash(contentHash(text), contentHash(text).slice('sha256:'.length).toUpperCase())).toBe(true);
  });
});

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
  ])('%s ~ %s = %s', (pattern, path, expected) => {
    expect(matchesGlob(pattern, path)).toBe(expected);
  });
});
