/**
 * The money rule for commands that spend: in live mode, say what the call will cost before making
 * it, refuse it over --max-tokens or the balance (nothing spent), and spend nothing on --dry-run.
 */
import type { KeyMode } from '../../api/schemas/common.js';
import { assertBudget, checkBudget, estimateCost, type BudgetCheck, type CostLine } from '../../review/budget.js';
import { tokens, usd } from './format.js';
import type { Output } from './output.js';
import type { Session } from './session.js';

interface SpendDecision {
  mode: KeyMode;
  /** Live-mode price of the planned calls; undefined when the service lists no price. */
  plannedTokens: number | undefined;
  budget: BudgetCheck;
  /** false on --dry-run: report the plan, make no charged call. */
  proceed: boolean;
}

/**
 * Prices `lines` (prices from GET /billing, free), prints the cost in live mode and throws
 * budget_exceeded (exit 3) when the plan is over the cap or the balance.
 */
export async function guardSpend(session: Session, out: Output, lines: CostLine[], options: { maxTokens?: number; dryRun?: boolean; what: string }): Promise<SpendDecision> {
  const mode = await session.mode();
  const billing = await session.client.getBilling();
  const priced = lines.map((line) => ({ ...line, tokensEach: line.tokensEach ?? billing.prices[line.operationId] }));
  const estimate = estimateCost(priced);
  const budget = checkBudget(estimate, { mode, balanceTokens: billing.balanceTokens, maxTokens: options.maxTokens });
  const planned = estimate.unpriced.length > 0 ? undefined : estimate.totalTokens;
  if (mode === 'live') {
    const cost = planned === undefined ? 'an unlisted price' : `${tokens(planned)} (about ${usd(planned)})`;
    out.notice(`${options.dryRun ? 'Would spend' : 'Spending'} ${cost} on ${options.what}; balance ${tokens(billing.balanceTokens)}.`);
  }
  if (options.dryRun) {
    // A dry run answers "what would happen": a shortfall is part of the answer (exit 0), not an error.
    if (!budget.allowed) {
      out.warn(`a real run would be refused before spending anything: ${budget.reasons.join('; ')}`);
      if (budget.suggestedPack) out.notice(`  Buy it with: compliance checkout ${budget.suggestedPack.code}`);
    }
    return { mode, plannedTokens: planned, budget, proceed: false };
  }
  assertBudget(budget);
  return { mode, plannedTokens: planned, budget, proceed: true };
}
