/**
 * The review calendar: a cadence (none, monthly, quarterly), the first review time (default one
 * cadence from when it is set), the next review date, and a reminder email for each review date
 * that passes. Reminders are advice: nothing runs or is charged.
 */
import type { Cadence } from '../../api/schemas/common.js';
import type { Account, AccountStore } from './accounts.js';
import type { Outbox } from './outbox.js';

const MONTHS: Record<Exclude<Cadence, 'none'>, number> = { monthly: 1, quarterly: 3 };
/** At most this many reminders are sent at once after a long gap (the sandbox's clock may jump). */
const MAX_CATCH_UP_REMINDERS = 3;

function addMonths(at: number, months: number): number {
  const date = new Date(at);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/** Review dates from `first` every cadence, strictly after `after` and at most `until`. */
function reviewDates(first: number, cadence: Exclude<Cadence, 'none'>, after: number, until: number): number[] {
  const dates: number[] = [];
  for (let k = 0; k < 10_000; k++) {
    const at = addMonths(first, k * MONTHS[cadence]);
    if (at > until) break;
    if (at > after) dates.push(at);
  }
  return dates;
}

const REVIEW_LOOP_STEPS = [
  'refresh changed documents in the library',
  're-run mapping against your frameworks',
  'pull framework updates',
  'regenerate drifted documents',
] as const;

export class ReviewCalendar {
  constructor(
    private readonly accounts: AccountStore,
    private readonly outbox: Outbox,
  ) {}

  set(account: Account, cadence: Cadence, firstReviewAt: number | undefined, now: number) {
    const first = cadence === 'none' ? null : (firstReviewAt ?? addMonths(now, MONTHS[cadence]));
    // Reminders start from now: setting a first date in the past does not replay old reviews.
    this.accounts.setCalendar(account.keyHash, { cadence, firstReviewAt: first, remindedThrough: now });
    return this.view(this.accounts.byHash(account.keyHash)!, now);
  }

  view(account: Account, now: number) {
    const { cadence, firstReviewAt } = account.calendar;
    if (cadence === 'none' || firstReviewAt === null) return { cadence, firstReviewAt: null, nextReviewAt: null, reminders: 'none' };
    const next = reviewDates(firstReviewAt, cadence, now - 1, Number.MAX_SAFE_INTEGER).at(0) ?? null;
    return {
      cadence,
      firstReviewAt: new Date(firstReviewAt).toISOString(),
      nextReviewAt: next === null ? null : new Date(next).toISOString(),
      reminders: 'email to the technical contact on each review date; advice only, nothing runs or is charged',
      reviewLoop: REVIEW_LOOP_STEPS,
    };
  }

  remindersDue(account: Account, now: number): boolean {
    const { cadence, firstReviewAt, remindedThrough } = account.calendar;
    return cadence !== 'none' && firstReviewAt !== null && reviewDates(firstReviewAt, cadence, remindedThrough ?? now, now).length > 0;
  }

  /** Emails a reminder for each review date passed since the last one sent. */
  sendDueReminders(account: Account, now: number): void {
    const { cadence, firstReviewAt, remindedThrough } = account.calendar;
    if (cadence === 'none' || firstReviewAt === null) return;
    const due = reviewDates(firstReviewAt, cadence, remindedThrough ?? now, now);
    if (due.length === 0) return;
    for (const at of due.slice(-MAX_CATCH_UP_REMINDERS)) {
      const day = new Date(at).toISOString().slice(0, 10);
      this.outbox.send({
        keyId: account.keyId,
        kind: 'review_reminder',
        at: now,
        subject: `Compliance review due ${day}`,
        body: `Your ${cadence} compliance review is due on ${day}. The review loop: ${REVIEW_LOOP_STEPS.join('; ')}. This is advice only: nothing runs or is charged automatically.`,
      });
    }
    this.accounts.setRemindedThrough(account.keyHash, now);
  }
}
