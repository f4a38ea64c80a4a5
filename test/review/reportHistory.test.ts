/** The coverage trend's points (review/reportHistory): what each review contributes, and the history in order with the same review once. */
import { describe, expect, it } from 'vitest';
import { historyPoint, trendPoints, type GateResult } from '../../review/index.js';

const framework = (key: string, name: string, figures: { coverage: unknown; effectiveCoverage?: unknown }) => ({ framework: { key, name }, ...figures }) as unknown as GateResult;

describe('historyPoint', () => {
  it('takes each framework\'s coverage with waivers, else its coverage, and skips one without a finite figure', () => {
    const point = historyPoint({
      generatedAt: '2026-06-01T00:00:00Z',
      commit: 'abc',
      frameworks: [
        framework('a', 'A', { coverage: 40, effectiveCoverage: 55 }),
        framework('b', 'B', { coverage: 30 }),
        framework('c', 'C', { coverage: Number.NaN }),
        framework('d', 'D', { coverage: '70' }),
      ],
    });
    expect(point).toEqual({ generatedAt: '2026-06-01T00:00:00Z', commit: 'abc', coverage: { a: 55, b: 30 }, names: { a: 'A', b: 'B' } });
  });
});

describe('trendPoints', () => {
  const point = (generatedAt: string, commit: string | undefined, coverage: number) => ({ generatedAt, commit, coverage: { a: coverage }, names: { a: 'A' } });

  it('orders by time, ends with the current review, and counts a review of the same time and commit once', () => {
    const current = point('2026-03-01', 'c3', 30);
    const trend = trendPoints([point('2026-02-01', 'c2', 20), point('2026-01-01', undefined, 10), point('2026-03-01', 'c3', 99), point('2026-02-01', 'other', 21)], current);
    expect(trend).toEqual([point('2026-01-01', undefined, 10), point('2026-02-01', 'c2', 20), point('2026-02-01', 'other', 21), current]);
    // An unknown commit and an empty one are the same review.
    expect(trendPoints([point('2026-03-01', '', 1)], point('2026-03-01', undefined, 2))).toEqual([point('2026-03-01', undefined, 2)]);
  });
});
