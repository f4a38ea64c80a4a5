/** review/changes: git's -z name-status list as the paths a change touched, failing closed on what it cannot read. */
import { describe, expect, it } from 'vitest';
import { parseNameStatus, parsePathList, pullRequestScope, parseConfig } from '../../review/index.js';

const z = (...fields: string[]) => new TextEncoder().encode(`${fields.join('\0')}\0`);

describe('parseNameStatus', () => {
  it('lists added, modified, deleted and type-changed paths, names as written (no quoting)', () => {
    expect(parseNameStatus(z('A', 'policies/new.md', 'M', 'policies/continuité.md', 'D', 'policies/gone.md', 'T', 'policies/link.md'))).toEqual({
      paths: ['policies/new.md', 'policies/continuité.md', 'policies/gone.md', 'policies/link.md'],
      unclassified: [],
    });
  });

  it('keeps both sides of a rename or copy, should detection be on', () => {
    expect(parseNameStatus(z('R100', 'policies/a.md', 'archive/a.md', 'C75', 'policies/b.md', 'policies/c.md')).paths).toEqual(['policies/a.md', 'archive/a.md', 'policies/b.md', 'policies/c.md']);
  });

  it('an entry it cannot classify (unmerged, unknown, cut short, not UTF-8) is reported, never dropped', () => {
    expect(parseNameStatus(z('M', 'a.md', 'U', 'b.md')).unclassified).toEqual(['status "U"']);
    expect(parseNameStatus(z('X', 'a.md')).unclassified).toEqual(['status "X"']);
    expect(parseNameStatus(new TextEncoder().encode('R100\0only-one.md\0')).unclassified).toEqual(['status R100 without its path']);
    const latin1 = new Uint8Array([...new TextEncoder().encode('M\0policies/continuit'), 0xe9, ...new TextEncoder().encode('.md\0')]);
    expect(parseNameStatus(latin1)).toEqual({ paths: [], unclassified: ['a file name that is not UTF-8 (706f6c69636965732f636f6e74696e756974e92e6d64)'] });
  });

  it('an empty list is no change', () => {
    expect(parseNameStatus(new Uint8Array())).toEqual({ paths: [], unclassified: [] });
  });
});

describe('pullRequestScope on a change list', () => {
  const config = parseConfig('documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - { framework: hipaa-security, threshold: 80 }\n');
  it('a move out of scope, a non-ASCII name and an unclassifiable entry are in scope', () => {
    expect(pullRequestScope({ paths: ['policies/a.md', 'archive/a.md'], unclassified: [] }, [config], 'compliance.yml')).toMatchObject({ documents: ['policies/a.md'], inScope: true });
    expect(pullRequestScope({ paths: ['policies/continuité.md'], unclassified: [] }, [config], 'compliance.yml').inScope).toBe(true);
    expect(pullRequestScope({ paths: ['README.md'], unclassified: ['status "U"'] }, [config], 'compliance.yml')).toMatchObject({ documents: [], inScope: true });
    expect(pullRequestScope({ paths: ['README.md'], unclassified: [] }, [config], 'compliance.yml').inScope).toBe(false);
  });
});

describe('pullRequestScope', () => {
  const config = parseConfig('documents:\n  - paths: ["policies/*.md"]\nframeworks:\n  - { framework: hipaa-security, threshold: 80 }\n');
  const other = parseConfig('documents:\n  - paths: ["docs/*.md"]\n  - paths: ["extra/*.txt"]\nframeworks:\n  - { framework: hipaa-security, threshold: 80 }\n');

  it('lists each changed document once, in its normal form, against every configuration\'s groups', () => {
    const scope = pullRequestScope({ paths: ['./policies/a.md', 'policies/a.md', '', 'extra/b.txt', 'docs/c.md', 'src/x.ts'], unclassified: [] }, [config, other], 'compliance.yml');
    expect(scope).toEqual({ documents: ['policies/a.md', 'extra/b.txt', 'docs/c.md'], configChanged: false, unclassified: [], inScope: true });
  });

  it('takes an empty entry for no path, even under a glob that matches everything', () => {
    const everything = parseConfig('documents:\n  - paths: ["**"]\nframeworks:\n  - { framework: hipaa-security, threshold: 80 }\n');
    expect(pullRequestScope({ paths: [''], unclassified: [] }, [everything], 'compliance.yml')).toEqual({ documents: [], configChanged: false, unclassified: [], inScope: false });
  });

  it('counts a change of compliance.yml alone as in scope, found under its normal form', () => {
    expect(pullRequestScope({ paths: ['ci/compliance.yml'], unclassified: [] }, [config], './ci//compliance.yml')).toEqual({ documents: [], configChanged: true, unclassified: [], inScope: true });
    expect(pullRequestScope({ paths: ['compliance.yml'], unclassified: [] }, [config], 'ci/compliance.yml').inScope).toBe(false);
  });
});

describe('parseNameStatus and parsePathList, field by field', () => {
  it('reads a last field without its NUL, lists a path once, and skips an empty name', () => {
    expect(parseNameStatus(new TextEncoder().encode(' M \0a.md\0A\0a.md\0M\0\0D\0b.md'))).toEqual({ paths: ['a.md', 'b.md'], unclassified: [] });
  });

  it('takes every name of a -z list as changed, and a name that is not UTF-8 as unclassified', () => {
    expect(parsePathList(z('new.md', 'sub/other.md'))).toEqual({ paths: ['new.md', 'sub/other.md'], unclassified: [] });
    expect(parsePathList(new Uint8Array([0x61, 0xff, 0x05, 0]))).toEqual({ paths: [], unclassified: ['a file name that is not UTF-8 (61ff05)'] });
    expect(parsePathList(new Uint8Array())).toEqual({ paths: [], unclassified: [] });
  });
});
