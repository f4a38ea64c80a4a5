/**
 * The review calendar read tolerantly (api/normalize/calendar.ts): each wrapper the answer may sit
 * in, what a missing or unknown cadence fails with, and the review dates that are absent (unknown)
 * or null (the service says there is none).
 */
import { describe, expect, it } from 'vitest';
import { normalizeCalendar } from '../../api/normalize/index.js';

const CONTEXT = { operationId: 'getCalendar', input: {} };
const calendar = (raw: unknown) => normalizeCalendar(raw, CONTEXT);

describe('the review calendar', () => {
  it.each(['calendar', 'reviewCalendar', 'review'])('reads the calendar wrapped in %s', (name) => {
    expect(calendar({ [name]: { cadence: 'monthly', nextReviewAt: '2026-02-01' }, requestId: 'r1' })).toMatchObject({ cadence: 'monthly', nextReviewAt: '2026-02-01' });
  });

  it('fails on an answer that is no object, naming the calendar', () => {
    expect(() => calendar('monthly')).toThrowError('getCalendar: unexpected response: no calendar (looked for an object); got string');
  });

  it('fails on a missing cadence, and on an unknown one quoting it', () => {
    expect(() => calendar({ next: '2026-02-01' })).toThrowError('no cadence (looked for cadence, frequency, interval, schedule); keys seen: next');
    expect(() => calendar({ cadence: 'Weekly' })).toThrowError('no known cadence (got "Weekly") (looked for cadence, frequency, interval, schedule)');
  });

  it.each([
    ['never', 'none'],
    ['Disabled', 'none'],
    ['month', 'monthly'],
    ['Quarter', 'quarterly'],
    ['QUARTERLY', 'quarterly'],
  ])('reads the cadence %s as %s', (text, cadence) => {
    expect(calendar({ schedule: text }).cadence).toBe(cadence);
  });

  it('tells a date the service says is none (null) from one it does not give', () => {
    const none = calendar({ cadence: 'none', firstReviewAt: null, next_review_at: null });
    expect(none.firstReviewAt).toBeNull();
    expect(none.nextReviewAt).toBeNull();
    const unsaid = calendar({ cadence: 'none', firstReview: '2026-01-01' });
    expect(unsaid.firstReviewAt).toBe('2026-01-01');
    expect('nextReviewAt' in unsaid).toBe(false);
  });
});
