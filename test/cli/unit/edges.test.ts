/** Input edges the CLI meets first: the library size limit and a hostile compliance.yml. */
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../api/schemas/common.js';
import { parseConfig } from '../../../review/config.js';
import { ConfigError } from '../../../review/errors.js';
import { planSync } from '../../../review/syncPlan.js';
import { describeError } from '../../../cli/lib/errors.js';

const groups = [{ name: 'policies', paths: ['policies/*.md'], category: 'Policies', tags: [] }];
const plan = (content: string) => planSync({ files: [{ path: 'policies/big.md', content }], library: [], repoTag: 'repo:acme/p', groups, deleteRemoved: false });

describe('library size limit', () => {
  it('accepts a file of exactly the limit (the newline normalisation adds does not count) and uploads at most the limit', () => {
    const exact = `# Big\n${'a'.repeat(LIMITS.libraryMaxChars - 6)}`;
    expect(exact.length).toBe(300_000);
    const result = plan(exact);
    expect(result.items.map((item) => item.kind)).toEqual(['new']);
    expect(result.contents.get('policies/big.md')?.length).toBeLessThanOrEqual(LIMITS.libraryMaxChars);
  });

  it('refuses one character more, naming the real length', () => {
    const result = plan(`# Big\n${'a'.repeat(LIMITS.libraryMaxChars - 5)}`);
    expect(result.items[0]).toMatchObject({ kind: 'invalid', reason: expect.stringContaining('300,001 characters') });
  });
});

describe('YAML alias bomb in compliance.yml', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((name, i) => `${name}: &${name} [${Array(10).fill(`*${'abcdefghi'[i]}`).join(', ')}]`), 'documents: *i', ''].join('\n');

  it('is a configuration error (exit 2), not an internal error', () => {
    let caught: unknown;
    try {
      parseConfig(bomb);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const described = describeError(caught);
    expect(described).toMatchObject({ exitCode: 2, code: 'invalid_config' });
    expect(described.details.join('\n')).toMatch(/alias/i);
  });
});
