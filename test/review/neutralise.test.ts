/**
 * What review/neutralise.ts does to text beside mentions (those are test/review/mentions.test.ts):
 * hidden comments dropped, table cells kept on one line, long text cut with an ellipsis.
 */
import { describe, expect, it } from 'vitest';
import { neutralise, tableCell, truncate } from '../../review/neutralise.js';

describe('neutralise', () => {
  it('drops HTML comments, closed or running to the end, whatever they hold', () => {
    expect(neutralise('a<!-- hidden\nnote -->b')).toBe('ab');
    expect(neutralise('a<!--x-->b<!---->c')).toBe('abc');
    expect(neutralise('kept <!-- never closed')).toBe('kept ');
  });
});

describe('tableCell', () => {
  it('keeps a cell on one line, pipes escaped and blanks trimmed', () => {
    expect(tableCell(' a|b\r\nc\nd ')).toBe('a\\|b c d');
  });
});

describe('truncate', () => {
  it('keeps text that fits and cuts longer text to the length, ending in an ellipsis', () => {
    expect(truncate('abcde', 5)).toBe('abcde');
    expect(truncate('abcdef', 5)).toBe('abcd…');
    expect(truncate('ab cdef', 4)).toBe('ab…');
    expect(truncate('abc', 0)).toBe('…');
  });
});
