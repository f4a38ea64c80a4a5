/** Which repository files are compliance documents (review/documents): the groups' globs, each path once, and an error naming a glob that selects nothing. */
import { describe, expect, it } from 'vitest';
import { frameworkDocuments, ReviewError, selectDocumentPaths } from '../../review/index.js';

const policies = { name: 'policies', paths: ['policies/*.md'], tags: ['p'] };
const all = { paths: ['**/*.md'], tags: [] };

describe('selectDocumentPaths', () => {
  it('selects each path once in its normal form, with the first group that matches it', () => {
    expect(selectDocumentPaths([policies, all], ['./policies/a.md', 'policies/a.md', 'docs/b.md', 'src/x.ts'])).toEqual([
      { path: 'policies/a.md', group: policies, groupIndex: 0 },
      { path: 'docs/b.md', group: all, groupIndex: 1 },
    ]);
  });

  it('selects a path that one of its group\'s globs matches', () => {
    const both = { paths: ['policies/*.md', 'docs/*.md'], tags: [] };
    expect(selectDocumentPaths([both], ['policies/a.md', 'docs/b.md']).map((entry) => entry.path)).toEqual(['policies/a.md', 'docs/b.md']);
    expect(frameworkDocuments({ framework: 'soc2', documents: ['both'] }, [{ ...both, name: 'both' }], [{ path: 'policies/a.md' }, { path: 'docs/b.md' }])).toEqual([{ path: 'policies/a.md' }, { path: 'docs/b.md' }]);
  });

  it('refuses globs that match no file, naming each with its group', () => {
    const call = () => selectDocumentPaths([{ ...policies, paths: ['policies/*.md', 'nope/*.md'] }, { paths: ['none/**'], tags: [] }], ['policies/a.md']);
    expect(call).toThrow(ReviewError);
    expect(call).toThrow('these globs match no file: documents[0] (policies): "nope/*.md"; documents[1]: "none/**"');
    try {
      call();
    } catch (error) {
      expect(error).toMatchObject({ code: 'glob_no_match', hint: 'Fix the pattern in compliance.yml or remove it; paths are relative to the repository root.' });
    }
  });
});

describe('frameworkDocuments', () => {
  const files = [{ path: 'policies/a.md' }, { path: 'docs/b.md' }, { path: 'docs/c.txt' }];

  it('maps every document when the framework names none, else its groups\' and globs\' files in the listed order', () => {
    expect(frameworkDocuments({ framework: 'soc2', documents: undefined }, [policies], files)).toEqual(files);
    expect(frameworkDocuments({ framework: 'soc2', documents: ['docs/*', 'policies'] }, [policies], files)).toEqual(files);
    expect(frameworkDocuments({ framework: 'soc2', documents: ['policies', 'docs/*.md'] }, [policies], files)).toEqual([{ path: 'policies/a.md' }, { path: 'docs/b.md' }]);
  });

  it('refuses a group or glob that selects nothing, naming the framework and the reference', () => {
    const error = (documents: string[], groups = [policies]) => {
      try {
        frameworkDocuments({ framework: 'soc2', documents }, groups, files);
      } catch (caught) {
        return caught;
      }
      return undefined;
    };
    expect(error(['nothing/*'])).toMatchObject({ code: 'unknown_document_group', message: 'framework soc2: "nothing/*" selects no document', hint: 'Name a document group from compliance.yml or a glob that matches one of its files.' });
    expect(error(['policies'], [{ ...policies, paths: ['x/*.md'] }])).toMatchObject({ code: 'glob_no_match' });
  });
});
