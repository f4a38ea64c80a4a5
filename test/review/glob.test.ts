import { describe, expect, it } from 'vitest';
import { matchesGlob } from '../../review/index.js';

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
