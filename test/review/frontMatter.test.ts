/**
 * Front matter (review/frontMatter.ts) and the `satisfies:` declarations read from it
 * (review/declarations.ts): what counts as a front matter block, what the mapping and the library
 * see of the document, and every malformed declaration refused with the file named.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { blankFrontMatter, frontMatterBlock, removeFrontMatter } from '../../review/frontMatter.js';
import { readDeclarations } from '../../review/declarations.js';
import { ReviewError } from '../../review/errors.js';

describe('frontMatterBlock', () => {
  it('reads the block between a first line of --- and the next --- or ..., trailing blanks allowed', () => {
    expect(frontMatterBlock('---  \na: 1\nb: 2\n---\ntext')).toEqual({ endLine: 3, yaml: 'a: 1\nb: 2' });
    expect(frontMatterBlock('---\na: 1\n... \ntext')).toEqual({ endLine: 2, yaml: 'a: 1' });
    expect(frontMatterBlock('\uFEFF---\na: 1\n---\n')).toEqual({ endLine: 2, yaml: 'a: 1' });
  });

  it('keeps the text inside the block as written', () => {
    expect(frontMatterBlock('---\na: \uFEFFx\n---\n')?.yaml).toBe('a: \uFEFFx');
  });

  it('finds none unless the first line opens it and a later line closes it', () => {
    expect(frontMatterBlock('# Title\n---\na: 1\n---\n')).toBeUndefined();
    expect(frontMatterBlock('---\na: 1\nb: 2\n')).toBeUndefined();
    expect(frontMatterBlock('---\nrule: a---\n---x\n')).toBeUndefined();
  });
});

describe('blankFrontMatter and removeFrontMatter', () => {
  const document = '---\nsatisfies: { soc2: [CC6.1] }\n---\n  \n\n# Access\nText \uFEFF here\n';

  it('blanks the block line for line, so every other line keeps its number', () => {
    expect(blankFrontMatter(document)).toBe('\n\n\n  \n\n# Access\nText \uFEFF here\n');
    expect(blankFrontMatter(`\uFEFF${document}`)).toBe('\n\n\n  \n\n# Access\nText \uFEFF here\n');
    expect(blankFrontMatter('# No front matter\n')).toBe('# No front matter\n');
  });

  it('removes the block and the blank lines after it: the text the library stores', () => {
    expect(removeFrontMatter(document)).toBe('# Access\nText \uFEFF here\n');
  });
});

function declarationError(content: string): ReviewError {
  try {
    readDeclarations([{ path: 'policies/access.md', content }]);
  } catch (error) {
    expect(error).toBeInstanceOf(ReviewError);
    return error as ReviewError;
  }
  throw new Error('expected a ReviewError');
}

describe('readDeclarations', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads a list, a single id and numbers, trimmed, under any framework', () => {
    const content = '---\ntitle: Access\nsatisfies : { soc2: [" CC6.1 ", 7], iso: A.5.15 }\n---\n# Access\n';
    expect(readDeclarations([{ path: 'a.md', content }])).toEqual([
      { file: 'a.md', framework: 'soc2', controlId: 'CC6.1' },
      { file: 'a.md', framework: 'soc2', controlId: '7' },
      { file: 'a.md', framework: 'iso', controlId: 'A.5.15' },
    ]);
    expect(readDeclarations([{ path: 'b.md', content: '---\nsatisfies: { soc2: 12 }\n---\n' }])).toEqual([
      { file: 'b.md', framework: 'soc2', controlId: '12' },
    ]);
  });

  it('reads nothing from a front matter that declares nothing, even when its YAML is broken', () => {
    const files = [
      { path: 'a.md', content: '---\ntitle: [unclosed\nnot_satisfies: x\n---\n' },
      { path: 'b.md', content: '---\nsatisfies:\n---\n' },
      { path: 'c.md', content: '---\n"a note\nsatisfies: none"\n---\n' },
      { path: 'd.md', content: '# No front matter\n' },
    ];
    expect(readDeclarations(files)).toEqual([]);
  });

  it('prints no YAML warning: a runner would read its quoted line as a command', () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    readDeclarations([{ path: 'a.md', content: '---\nsatisfies: { soc2: !custom [CC6.1] }\n---\n' }]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('refuses malformed front matter, naming the file and the fix', () => {
    const broken = declarationError('---\nsatisfies: { soc2: [CC6.1\n---\n');
    expect(broken.code).toBe('invalid_config');
    expect(broken.message).toMatch(/^policies\/access\.md: the front matter is not valid YAML \(\S.{8,}\)$/);
    expect(broken.message).not.toContain('\n');
    expect(broken.hint).toMatch(/^Write it as satisfies: \{ <framework slug>: \[<control id>, …\] \}/);
    expect(declarationError('---\nsatisfies: [CC6.1]\n---\n').code).toBe('invalid_config');
    expect(declarationError('---\nsatisfies: [CC6.1]\n---\n').message).toBe(
      'policies/access.md: front matter satisfies must map framework slugs to lists of control ids',
    );
    expect(declarationError('---\nsatisfies: CC6.1\n---\n').message).toBe(
      'policies/access.md: front matter satisfies must map framework slugs to lists of control ids',
    );
    for (const controls of ['{ a: 1 }', '[CC6.1, { a: 1 }]', '[CC6.1, true]', 'null', 'true']) {
      const error = declarationError(`---\nsatisfies: { soc2: ${controls} }\n---\n`);
      expect(error).toMatchObject({ code: 'invalid_config', message: 'policies/access.md: front matter satisfies.soc2 must be a list of control ids' });
      expect(error.hint).toContain('satisfies: { soc2: [CC6.1, CC6.2] }');
    }
  });
});
