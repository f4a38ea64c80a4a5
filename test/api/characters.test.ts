/** Characters are Unicode code points; the client's check of library text is lenient at both bounds (issue 25). */
import { describe, expect, it } from 'vitest';
import { characterCount, isBlankText, libraryContentProblem } from '../../api/schemas/common.js';

describe('library text, counted leniently', () => {
  it('passes what a service counting code points or UTF-16 code units could accept', () => {
    // 150 emoji: 150 code points (under 200) but 300 code units, so a code-unit service accepts it.
    expect(libraryContentProblem('🔒'.repeat(150))).toBeUndefined();
    // 300,000 emoji: 600,000 code units, but 300,000 code points, which the service accepts.
    expect(libraryContentProblem('🔒'.repeat(300_000))).toBeUndefined();
    expect(libraryContentProblem('x'.repeat(199))?.code).toBe('content_too_short');
    expect(libraryContentProblem('x'.repeat(300_001))?.code).toBe('content_too_long');
  });

  it('counts code points as the characters', () => {
    expect(characterCount('🔒a\u00e9')).toBe(3);
    expect(characterCount('\uD800x')).toBe(2); // a lone surrogate is one
  });

  it('calls text blank when nothing in it can be read', () => {
    expect(isBlankText(' \t\n\u00A0\u200B\u200C\u200D\u2060\uFEFF\u0000')).toBe(true);
    expect(isBlankText('\u200B.')).toBe(false);
    expect(isBlankText('🔒')).toBe(false);
  });
});
