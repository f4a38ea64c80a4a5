/** What merging a pull request will cost the library sync, priced as the sync itself is. */
import { priceCalls, priceOf, type CostLine } from './budget.js';
import { syncCalls, type SyncPlan } from './syncPlan.js';

export interface MergePrice {
  /** Documents the sync would ingest (new) or refresh (changed), and remove from the library. */
  counts: { new: number; changed: number; removed: number };
  /** Live-mode tokens, from the service's price list; undefined when an operation's price is not listed. */
  tokens: number | undefined;
  lines: CostLine[];
}

/** What the sync of `plan` costs, priced by the money rule (priceOf) as the sync itself is. */
export function priceSyncPlan(plan: SyncPlan, prices: Readonly<Record<string, number>>): MergePrice {
  const lines = syncCalls(plan).map((call) => ({ ...call, tokensEach: priceOf(call.operationId, prices) }));
  const estimate = priceCalls(lines, prices);
  return {
    counts: { new: plan.counts.new, changed: plan.counts.changed, removed: plan.counts.removed },
    tokens: estimate.unpriced.length > 0 ? undefined : estimate.totalTokens,
    lines,
  };
}
