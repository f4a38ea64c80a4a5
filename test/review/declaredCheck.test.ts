/** Front matter declarations against the evidence (review/declaredCheck.ts): which count, and how they match. */
import { describe, expect, it } from 'vitest';
import { checkDeclarations } from '../../review/declaredCheck.js';

const controls = [
  { id: ' C1 ', status: 'covered' as const },
  { id: 'C2 ', status: 'partial' as const },
  { id: 'C3', status: 'missing' as const },
  { id: 'C4', status: 'covered' as const },
];

describe('checkDeclarations', () => {
  it('is undefined when no document declares anything: the check is opt-in', () => {
    expect(checkDeclarations([], ['gdpr'], controls)).toBeUndefined();
  });

  it('counts only declarations of this framework, by any of its names across case and spaces, each file once', () => {
    const check = checkDeclarations(
      [
        { file: 'a.md', framework: ' GDPR ', controlId: 'C4' },
        { file: 'a.md', framework: 'gdpr', controlId: 'c1' },
        { file: 'b.md', framework: 'Data Protection', controlId: 'C3' },
        { file: 'b.md', framework: 'data protection', controlId: 'C3' },
        { file: 'c.md', framework: 'hipaa', controlId: 'C2' },
      ],
      [undefined, ' gdpr ', 'data protection'],
      controls,
    );
    expect(check).toEqual({
      declared: 3,
      declaredWithoutEvidence: [{ controlId: 'C3', files: ['b.md'] }],
      evidencedUndeclared: ['C2 '],
    });
  });
});
