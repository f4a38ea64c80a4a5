/**
 * The money rule (review/'s planSpend) as commands render it: in live mode, say what the call will
 * cost before making it; refuse it over --max-tokens or the balance (exit 3, nothing spent); spend
 * nothing on --dry-run.
 */
import type { KeyMode } from '../../api/schemas/common.js';
import { assertBudget, chargedTokens, planSpend, type BudgetCheck, type PlannedCalls } from '../../review/budget.js';
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
 * Prices `calls` (GET /billing and the operation table, free), prints the cost in live mode and throws
 * budget_exceeded (exit 3) when the plan is over the cap or the balance.
 */
export async function guardSpend(session: Session, out: Output, calls: PlannedCalls[], options: { maxTokens?: number; dryRun?: boolean; what: string }): Promise<SpendDecision> {
  const spend = await planSpend(session.client, calls, {
    mode: await session.mode(),
    ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
    dryRun: options.dryRun === true,
    label: options.what,
  });
  const { mode, budget, estimate } = spend;
  const planned = estimate.unpriced.length > 0 ? undefined : estimate.totalTokens;
  if (mode === 'live') {
    const cost = planned === undefined ? 'an unlisted price' : `${tokens(planned)} (about ${usd(planned)})`;
    out.notice(`${options.dryRun ? 'Would spend' : 'Spending'} ${cost} on ${options.what}; balance ${tokens(spend.balanceTokens)}.`);
  }
  if (spend.status === 'dry-run') {
    // A dry run answers "what would happen": a shortfall is part of the answer (exit 0), not an error.
    if (!budget.allowed) {
      out.warn(`a real run would be refused before spending anything: ${budget.reasons.join('; ')}`);
      if (budget.suggestedPack) out.notice(`  Buy it with: compliance checkout ${budget.suggestedPack.code}`);
    }
    return { mode, plannedTokens: planned, budget, proceed: false };
  }
  assertBudget(budget, '--max-tokens');
  // One command is one plan under its own cap: its reservation has nothing to share with.
  return { mode, plannedTokens: planned, budget, proceed: true };
}

/**
 * What a spender charged once its calls ran: `calls` of the plan's calls (default all of them) at
 * the planned live price, 0 for a sandbox key; undefined when the service lists no price.
 */
export function tokensSpent(decision: SpendDecision, calls?: { done: number; planned: number }): number | undefined {
  if (decision.plannedTokens === undefined) return decision.mode === 'live' ? undefined : 0;
  const share = calls ? (calls.planned === 0 ? 0 : Math.round((decision.plannedTokens * calls.done) / calls.planned)) : decision.plannedTokens;
  return chargedTokens(decision.mode, share);
}

/** The line every spending command ends with: "Spent 20,000 tokens." (a sandbox key says it is never charged). */
export function spentLine(mode: KeyMode, spent: number | undefined): string {
  return `Spent ${spent === undefined ? 'an unlisted price' : tokens(spent)}${mode === 'live' ? '' : ' (sandbox key: never charged)'}.`;
}
