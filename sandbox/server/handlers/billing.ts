/** getBilling, createCheckout, getAutoTopUp, setAutoTopUp, getCalendar, setCalendar. */
import { PACKS } from '../../../api/schemas/common.js';
import { packList, PRICES } from '../billing.js';
import { ok, type HandlerTable } from './types.js';

export const billingHandlers: Pick<
  HandlerTable,
  'getBilling' | 'createCheckout' | 'getAutoTopUp' | 'setAutoTopUp' | 'getCalendar' | 'setCalendar'
> = {
  getBilling: ({ services, account }) =>
    ok({
      mode: account.mode,
      balanceTokens: account.balance,
      status: services.billing.isReadOnly(account) ? 'read_only' : 'active',
      charged: account.mode === 'live',
      prices: PRICES,
      packs: packList,
      ledger: services.billing.ledger(account.keyHash),
      meter: services.billing.meterView(account),
      autoTopUp: services.billing.autoTopUpView(account),
    }),

  createCheckout: ({ services, account, input, now }) => {
    const session = services.tx(() => services.billing.createCheckoutSession(account.keyHash, input.pack, now));
    return ok({ url: session.url, sessionId: session.sessionId, pack: { code: input.pack, ...PACKS[input.pack] } });
  },

  getAutoTopUp: ({ services, account }) => ok(services.billing.autoTopUpView(account)),

  setAutoTopUp: ({ services, account, input, now }) => {
    const updated = services.tx(() => {
      services.accounts.setAutoTopUp(
        account.keyHash,
        input.enabled
          ? { enabled: true, thresholdTokens: input.thresholdTokens ?? null, pack: input.pack ?? null }
          : { enabled: false, thresholdTokens: null, pack: null },
      );
      // A balance already under the new threshold counts as a dip: the link goes out now.
      services.billing.evaluateNotices(account.keyHash, now);
      return services.accounts.byHash(account.keyHash)!;
    });
    return ok(services.billing.autoTopUpView(updated));
  },

  getCalendar: ({ services, account, now }) => ok(services.calendar.view(account, now)),

  setCalendar: ({ services, account, input, now }) =>
    ok(
      services.tx(() =>
        services.calendar.set(account, input.cadence, input.firstReviewAt === undefined ? undefined : Date.parse(input.firstReviewAt), now),
      ),
    ),
};
