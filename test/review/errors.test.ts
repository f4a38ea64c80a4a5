/** The review loop's errors (review/errors): their code, name and hint, and each compliance.yml problem located for people. */
import { describe, expect, it } from 'vitest';
import { ConfigError, ReviewError } from '../../review/index.js';

describe('ReviewError and ConfigError', () => {
  it('carry the code, the name and the hint a surface shows', () => {
    const error = new ReviewError('declined', 'nothing sent', 'answer y to go on');
    expect({ name: error.name, code: error.code, message: error.message, hint: error.hint }).toEqual({ name: 'ReviewError', code: 'declined', message: 'nothing sent', hint: 'answer y to go on' });
    expect(new ReviewError('declined', 'x').hint).toBeUndefined();
  });

  it('lists each problem on its own line, at the file and line where it has one, under the key it concerns', () => {
    const issues = [
      { file: 'compliance.yml', line: 12, column: 5, path: 'frameworks[0].threshold', message: 'must be at most 100' },
      { file: 'compliance.yml', line: 3, column: 1, path: '', message: 'bad indentation' },
      { file: 'ci/compliance.yml', line: undefined, column: undefined, path: 'documents', message: 'is required' },
      { file: 'ci/compliance.yml', line: undefined, column: undefined, path: '', message: 'is empty' },
    ];
    const error = new ConfigError(issues);
    expect(error).toBeInstanceOf(ReviewError);
    expect({ name: error.name, code: error.code, issues: error.issues }).toEqual({ name: 'ConfigError', code: 'invalid_config', issues });
    expect(error.message.split('\n')).toEqual([
      'compliance.yml:12 frameworks[0].threshold: must be at most 100',
      'compliance.yml:3: bad indentation',
      'ci/compliance.yml documents: is required',
      'ci/compliance.yml: is empty',
    ]);
  });
});
