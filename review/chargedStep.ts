/**
 * The charged step: the money rule (budget.ts) as the one sequence every spender runs, on every
 * surface (CLI commands, the actions, the n8n node, the MCP tools, the review loop itself):
 * 1. price the calls (GET /billing's list, else the operation table) and check them against the cap
 *    and the balance, reserving their price in the ledger in the same synchronous step;
 * 2. then exactly one of:
 *    - `dry-run`: nothing reserved, nothing sent, never a failure; `refusal` says what a real run
 *      would be refused with (the cap or the balance), so a dry run answers "would this run?";
 *    - `refused`: nothing sent; `refusal` (budget_exceeded) names the plan, the cap and the fix;
 *    - `completed`: the run went through with the price reserved, and the reservation was settled:
 *      committed with what the run may have charged, or, when it threw, released only when nothing
 *      can have been charged (mayHaveCharged).
 * Surfaces render the outcome with chargedStepSentence and its figures; none re-checks the cap.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import type { KeyMode } from '../api/schemas/common.js';
import { budgetRefusal, chargedTokens, formatTokens, planSpend, type BudgetCheck, type CostEstimate, type PlannedCalls, type PlanSpendOptions, type Reservation } from './budget.js';
import type { ReviewError } from './errors.js';

interface ChargedStepOptions<T> extends PlanSpendOptions {
  /** The cap's name where the user sets it (`--max-tokens`, `max-tokens`, `Max Tokens`), named in a refusal's hint. */
  capLabel?: string;
  /**
   * Live-price tokens a completed run may have charged, counted against the cap (default: the whole
   * plan): a run that made only some of its calls settles only those.
   */
  settle?: (value: NoInfer<T>, plan: ChargedRun) => number;
}

/** The figures every outcome carries: what the plan is, what it costs, what the cap and balance say. */
interface StepFigures {
  mode: KeyMode;
  estimate: CostEstimate;
  budget: BudgetCheck;
  balanceTokens: number;
  prices: Readonly<Record<string, number>>;
}

/** What the run is given: the priced plan and the reservation held while it runs. */
export type ChargedRun = StepFigures & { reservation: Reservation };

export type ChargedStep<T> = StepFigures &
  (
    | {
        status: 'completed';
        value: T;
        /** Live-price tokens the run counted against the cap. */
        settledTokens: number;
        /** What those drew from the balance: 0 for a sandbox key. */
        tokensSpent: number;
        refusal: undefined;
      }
    | { status: 'dry-run'; value: undefined; settledTokens: 0; tokensSpent: 0; /** What a real run would be refused with, if it would. */ refusal: ReviewError | undefined }
    | { status: 'refused'; value: undefined; settledTokens: 0; tokensSpent: 0; refusal: ReviewError }
  );

/** Prices `calls`, checks and reserves them, then dry run, refusal or `run` (settled either way); see the module comment. */
export async function chargedStep<T>(
  client: Pick<ComplianceApi, 'ping' | 'getBilling'>,
  calls: readonly PlannedCalls[],
  options: ChargedStepOptions<T>,
  run: (plan: ChargedRun) => Promise<T>,
): Promise<ChargedStep<T>> {
  const spend = await planSpend(client, calls, options);
  const figures: StepFigures = { mode: spend.mode, estimate: spend.estimate, budget: spend.budget, balanceTokens: spend.balanceTokens, prices: spend.prices };
  const refusal = spend.budget.allowed ? undefined : budgetRefusal(spend.budget, options.capLabel);
  if (spend.status === 'dry-run') return { ...figures, status: 'dry-run', value: undefined, settledTokens: 0, tokensSpent: 0, refusal };
  const { reservation } = spend;
  if (!reservation || refusal) return { ...figures, status: 'refused', value: undefined, settledTokens: 0, tokensSpent: 0, refusal: refusal ?? budgetRefusal(spend.budget, options.capLabel) };
  // Written with then, not catch-and-rethrow: the n8n node bundles this, and n8n's lint refuses a raw rethrow there.
  const plan: ChargedRun = { ...figures, reservation };
  return run(plan).then(
    (value) => {
      const settledTokens = Math.min(options.settle ? options.settle(value, plan) : reservation.tokens, reservation.tokens);
      reservation.commit(settledTokens);
      return { ...figures, status: 'completed' as const, value, settledTokens, tokensSpent: chargedTokens(spend.mode, settledTokens), refusal: undefined };
    },
    (error: unknown) => {
      reservation.settleAfter(error);
      return Promise.reject(error as Error);
    },
  );
}

/**
 * The outcome in one sentence, as every surface words it (a review's result too): `Dry run, nothing
 * sent: … A real run would be refused before spending anything: …`, `Refused before spending
 * anything: …`, `Spent 5,000 tokens.`
 */
export function chargedStepSentence(step: { status: 'completed' | 'dry-run' | 'refused' } & Pick<ChargedStep<unknown>, 'mode' | 'estimate' | 'budget' | 'tokensSpent'>): string {
  const sandbox = step.mode === 'live' ? '' : ' (sandbox key: never charged)';
  const refusal = step.budget.allowed ? undefined : budgetRefusal(step.budget).message;
  switch (step.status) {
    case 'dry-run': {
      const price = step.estimate.unpriced.length > 0 ? `a price the service does not list for ${step.estimate.unpriced.join(', ')}` : `${formatTokens(step.estimate.totalTokens)} at live prices`;
      const plan = step.estimate.lines.length > 0 ? `${step.budget.plan}, ${price}${sandbox}` : 'no charged call';
      return `Dry run, nothing sent: ${plan}.${refusal ? ` A real run would be ${refusal}.` : ''}`;
    }
    case 'refused':
      return `${capitalised(refusal ?? 'refused before spending anything')}.`;
    case 'completed':
      return `Spent ${formatTokens(step.tokensSpent)}${sandbox}.`;
  }
}

const capitalised = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
