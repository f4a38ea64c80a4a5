/** The review calendar: cadence, first and next review dates. */
import type { z } from 'zod/v4/mini';
import type { calendar } from '../schemas/responses.js';
import { CADENCES, type Cadence } from '../schemas/common.js';
import { type NormalizeContext, defined, objectOf, pickRecord, pickText, token, unexpected } from './read.js';

type CalendarModel = z.output<typeof calendar>;

const CADENCE_NAMES = ['cadence', 'frequency', 'interval', 'schedule'];
const CADENCE_ALIASES: Record<string, Cadence> = { never: 'none', off: 'none', disabled: 'none', monthly: 'monthly', month: 'monthly', quarterly: 'quarterly', quarter: 'quarterly' };

export function normalizeCalendar(raw: unknown, context: NormalizeContext): CalendarModel {
  const outer = objectOf(raw, context, 'calendar');
  const object = pickRecord(outer, ['calendar', 'reviewCalendar', 'review']) ?? outer;
  const text = pickText(object, CADENCE_NAMES);
  const cadence = text === undefined ? undefined : (CADENCES as readonly string[]).includes(token(text)) ? (token(text) as Cadence) : CADENCE_ALIASES[token(text)];
  if (cadence === undefined) {
    throw unexpected(context, text === undefined ? 'cadence' : `known cadence (got "${text}")`, CADENCE_NAMES, object);
  }
  const nullable = (names: string[]): string | null | undefined =>
    pickText(object, names) ?? (names.some((name) => object[name] === null) ? null : undefined);
  return defined({
    ...object,
    cadence,
    firstReviewAt: nullable(['firstReviewAt', 'first_review_at', 'firstReview', 'startsAt']),
    nextReviewAt: nullable(['nextReviewAt', 'next_review_at', 'nextReview', 'nextReviewDate', 'next']),
  }) as CalendarModel;
}
