/**
 * Where a problem of a YAML file is (review/configIssues.ts): the offset locate() gives for a path is
 * what turns a schema issue into `compliance.yml:12 frameworks[0].threshold: …`.
 */
import { Document, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { closestKey, formatPath, locate, valueAt } from '../../review/configIssues.js';

const TEXT = 'top:\n  value: 1\n  empty:\n  list: [x, y]\n  text: plain\n';
const root = parseDocument(TEXT).contents;
/** The offset of the first occurrence of `snippet` in TEXT. */
const at = (snippet: string) => TEXT.indexOf(snippet);

describe('closestKey', () => {
  it('suggests a known key up to a third of the typed length away, and nothing further', () => {
    expect(closestKey('labxys', ['labels'])).toBe('labels');
    expect(closestKey('laxyzs', ['labels'])).toBeUndefined();
    expect(closestKey('Mode', ['mode', 'name'])).toBe('mode');
  });
});

describe('formatPath', () => {
  it('writes a path as people do', () => {
    expect(formatPath(['frameworks', 0, 'threshold'])).toBe('frameworks[0].threshold');
    expect(formatPath([])).toBe('');
  });
});

describe('locate', () => {
  it('points at the value of a key, and at the key when its value is empty', () => {
    expect(locate(root, ['top', 'value'])).toBe(at('1'));
    expect(locate(root, ['top', 'empty'])).toBe(at('empty'));
    expect(locate(parseDocument('top: { a }\n').contents, ['top', 'a'])).toBe(7);
  });

  it('points at a list item by index, and at the deepest node present when the path goes further', () => {
    expect(locate(root, ['top', 'list', 1])).toBe(at('y]'));
    expect(locate(root, ['top', 'list', 5])).toBe(at('[x'));
    expect(locate(root, ['top', 'missing', 'deeper'])).toBe(at('value'));
    expect(locate(root, ['top', 'text', 0])).toBe(at('plain'));
    expect(locate(root, ['top', 'text', 'a', 'b'])).toBe(at('plain'));
  });

  it('reads a text segment as a map key only, never as a list index', () => {
    expect(locate(root, ['top', 'list', '1'])).toBe(at('[x'));
  });

  it('points at an unknown key itself, or at its map when it is not there', () => {
    expect(locate(root, ['top'], 'text')).toBe(at('text'));
    expect(locate(root, ['top'], 'absent')).toBe(at('value'));
    expect(locate(root, ['top', 'text'], 'absent')).toBe(at('plain'));
  });

  it('has no place for a node with no text behind it', () => {
    expect(locate(undefined, ['top'])).toBeUndefined();
    const built = new Document({ top: { value: 1, empty: null, list: ['x'] } }).contents;
    expect(locate(built, ['top', 'value'])).toBeUndefined();
    expect(locate(built, ['top', 'empty'])).toBeUndefined();
    expect(locate(built, ['top', 'list', 0])).toBeUndefined();
    expect(locate(built, ['top'], 'value')).toBeUndefined();
  });
});

describe('valueAt', () => {
  it('reads the value at a path, and undefined once the path leaves the objects', () => {
    expect(valueAt({ a: [{ b: 2 }] }, ['a', 0, 'b'])).toBe(2);
    expect(valueAt({ a: null }, ['a', 'b'])).toBeUndefined();
    expect(valueAt({ a: 'text' }, ['a', 'length'])).toBeUndefined();
  });
});
