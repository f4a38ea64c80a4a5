/** Links from a credit to its lines (review/evidenceLinks): GitHub's and GitLab's forms, and no link from anything that cannot be trusted in a URL. */
import { describe, expect, it } from 'vitest';
import { blobBase, evidencePlace, evidenceUrl, type Evidence } from '../../review/index.js';

const COMMIT = 'abc1234';
const quote = (fields: Partial<Evidence>): Evidence => ({ quote: 'q', location: {}, ...fields });

describe('blobBase', () => {
  it('browses the repository at its commit on GitHub or another server, and a GitLab project in subgroups', () => {
    expect(blobBase({ repository: 'acme/policies', commit: COMMIT })).toBe(`https://github.com/acme/policies/blob/${COMMIT}`);
    expect(blobBase({ repository: 'acme/policies', commit: COMMIT, serverUrl: 'http://git.example//' })).toBe(`http://git.example/acme/policies/blob/${COMMIT}`);
    expect(blobBase({ repository: 'group/sub/project', commit: COMMIT, serverUrl: 'https://gitlab.example', forge: 'gitlab' })).toBe(`https://gitlab.example/group/sub/project/-/blob/${COMMIT}`);
  });

  it('gives no link for an unknown or malformed repository, commit or server', () => {
    const bad = [
      { repository: undefined, commit: COMMIT },
      { repository: 'acme/policies', commit: undefined },
      { repository: 'group/sub/project', commit: COMMIT },
      { repository: 'acme', commit: COMMIT, forge: 'gitlab' as const },
      { repository: 'acme/po licies', commit: COMMIT },
      { repository: 'x acme/policies', commit: COMMIT },
      { repository: 'acme/policies', commit: 'abc123' },
      { repository: 'acme/policies', commit: 'abc1234g' },
      { repository: 'acme/policies', commit: `x${COMMIT}` },
      { repository: 'acme/policies', commit: 'a'.repeat(65) },
      { repository: 'acme/policies', commit: COMMIT, serverUrl: 'javascript:alert(1)' },
      { repository: 'acme/policies', commit: COMMIT, serverUrl: 'https://x.example/"><b' },
      { repository: 'acme/policies', commit: COMMIT, serverUrl: 'xhttps://x.example' },
      { repository: 'acme/policies', commit: COMMIT, serverUrl: 'https://' },
    ];
    expect(bad.map((target) => blobBase(target))).toEqual(bad.map(() => undefined));
    expect(blobBase({ repository: 'acme/policies', commit: 'A'.repeat(64) })).toBe(`https://github.com/acme/policies/blob/${'A'.repeat(64)}`);
  });
});

describe('evidenceUrl', () => {
  const target = { repository: 'acme/policies', commit: COMMIT };

  it('links the file, encoded, at its lines in the forge\'s form', () => {
    expect(evidenceUrl(target, quote({ file: 'a dir/ü#.md', line: 3, endLine: 5 }))).toBe(`https://github.com/acme/policies/blob/${COMMIT}/a%20dir/%C3%BC%23.md#L3-L5`);
    expect(evidenceUrl(target, quote({ file: 'a.md', line: 3, endLine: 1 }))).toBe(`https://github.com/acme/policies/blob/${COMMIT}/a.md#L3-L3`);
    expect(evidenceUrl(target, quote({ file: 'a.md', line: 3 }))).toBe(`https://github.com/acme/policies/blob/${COMMIT}/a.md#L3-L3`);
    expect(evidenceUrl(target, quote({ file: 'a.md' }))).toBe(`https://github.com/acme/policies/blob/${COMMIT}/a.md`);
    expect(evidenceUrl({ repository: 'g/p', commit: COMMIT, serverUrl: 'https://gl.example', forge: 'gitlab' }, quote({ file: 'a.md', line: 3, endLine: 5 }))).toBe(`https://gl.example/g/p/-/blob/${COMMIT}/a.md#L3-5`);
    expect(evidenceUrl({ repository: 'g/p', commit: COMMIT, serverUrl: 'https://gl.example', forge: 'gitlab' }, quote({ file: 'a.md' }))).toBe(`https://gl.example/g/p/-/blob/${COMMIT}/a.md`);
  });

  it('gives no link without a file or a base', () => {
    expect(evidenceUrl(target, quote({ line: 3, location: { source: 'a.md' } }))).toBeUndefined();
    expect(evidenceUrl({ repository: 'acme/policies', commit: undefined }, quote({ file: 'a.md', line: 3 }))).toBeUndefined();
  });
});

describe('evidencePlace', () => {
  it('names the traced file and lines, else the service\'s source, never its line nor a combined source', () => {
    expect(evidencePlace(quote({ file: 'a.md', line: 3, endLine: 5 }))).toBe('a.md, lines 3-5');
    expect(evidencePlace(quote({ file: 'a.md', line: 3, endLine: 3 }))).toBe('a.md, line 3');
    expect(evidencePlace(quote({ file: 'a.md', line: 3, endLine: 2 }))).toBe('a.md, line 3');
    expect(evidencePlace(quote({ line: 4, location: { source: 'b.md', line: 9 } }))).toBe('b.md, line 4');
    expect(evidencePlace(quote({ location: { source: 'b.md', line: 9 } }))).toBe('b.md');
    expect(evidencePlace(quote({ location: { source: 'combined', line: 9 } }))).toBeUndefined();
    expect(evidencePlace(quote({ line: 7, location: { source: 'combined' } }))).toBe('line 7');
  });
});
