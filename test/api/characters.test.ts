/** Characters are Unicode code points; the client's check of library text is lenient at both bounds (issue 25). */
import { describe, expect, it } from 'vitest';
import { characterCount, isBlankText, libraryContentProblem, sourceFileHeader, SOURCE_FILE_HEADER_PATTERN } from '../../api/schemas/common.js';

describe('library text, counted leniently', () => {
  it('passes what a service counting code points or UTF-16 code units could accept', () => {
    // 150 letters outside the BMP (𝐀, U+1D400): 150 code points (under 200) but 300 code units, so a code-unit service accepts it.
    expect(libraryContentProblem('𝐀'.repeat(150))).toBeUndefined();
    // 300,000 of them: 600,000 code units, but 300,000 code points, which the service accepts.
    expect(libraryContentProblem('𝐀'.repeat(300_000))).toBeUndefined();
    expect(libraryContentProblem('x'.repeat(199))?.code).toBe('content_too_short');
    expect(libraryContentProblem('x'.repeat(300_001))?.code).toBe('content_too_long');
  });

  it('counts code points as the characters', () => {
    expect(characterCount('🔒a\u00e9')).toBe(3);
    expect(characterCount('\uD800x')).toBe(2); // a lone surrogate is one
  });

  it('counts a pair at either end, at the edges of the surrogate ranges, and nothing else as a pair', () => {
    expect(characterCount('a🔒')).toBe(2);
    expect(characterCount('🔒')).toBe(1);
    expect(characterCount('\uDBFF\uDFFF')).toBe(1);
    expect(characterCount('\uD800\uDC00\uD800\uDC00')).toBe(2);
    expect(characterCount('\uD7FF\uDC00')).toBe(2);
    expect(characterCount('\uDC00\uDC00')).toBe(2);
    expect(characterCount('\uD800\uDBFF')).toBe(2);
    expect(characterCount('\uD800\uE000')).toBe(2);
    expect(characterCount('\uD800')).toBe(1);
    expect(characterCount('')).toBe(0);
  });

  it('accepts exactly the bounds, and says which count each refusal used', () => {
    expect(libraryContentProblem('x'.repeat(200))).toBeUndefined();
    expect(libraryContentProblem('x'.repeat(300_000))).toBeUndefined();
    expect(libraryContentProblem('x'.repeat(199))).toEqual({
      code: 'content_too_short',
      message: 'has 199 characters even counted as UTF-16 code units (the higher count); the library needs at least 200 characters',
    });
    expect(libraryContentProblem('x'.repeat(300_001))).toEqual({
      code: 'content_too_long',
      message: 'has 300,001 characters counted as Unicode code points (the lower count); the library holds at most 300,000 characters',
    });
    expect(libraryContentProblem(' ')).toEqual({ code: 'empty_document', message: expect.stringMatching(/^has no letter or digit in any script/) });
  });


  it('calls text blank when it has no letter or digit of any script (issue 37.5)', () => {
    for (const blank of [
      ' \t\n\u00A0\u200B\u200C\u200D\u2060\uFEFF\u0000',
      '\u2800'.repeat(300), // Braille pattern blank
      '\u0301'.repeat(300), // a combining acute accent, on nothing
      '\u{1D159}', // musical symbol null notehead
      '\u200B.',
      '... --- !!! §§ ¶',
      '🔒'.repeat(150),
    ]) {
      expect(isBlankText(blank), JSON.stringify(blank)).toBe(true);
      expect(libraryContentProblem(blank.repeat(Math.ceil(300 / blank.length)))?.code).toBe('empty_document');
    }
    for (const text of ['x', 'é', '字', 'ع', '٣', '𝐀', '7', '\u2800 a']) expect(isBlankText(text), text).toBe(false);
  });
});

describe('the source-file header of a combined policy set', () => {
  it('names the file on one line, which the pattern reads back', () => {
    expect(sourceFileHeader('policies/a\r\nb.md')).toBe('=== FILE: policies/a  b.md ===');
    expect(SOURCE_FILE_HEADER_PATTERN.exec(sourceFileHeader('policies/access.md'))?.[1]).toBe('policies/access.md');
  });
});
