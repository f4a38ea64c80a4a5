/**
 * The charged step (review/chargedStep.ts) as commands render it: in live mode, say what the calls
 * will cost before making them; a plan over --max-tokens or the balance is refused (exit 3, nothing
 * spent); --dry-run sends nothing and exits 0, saying what a real run would be refused with.
 */
import type { KeyMode } from '../../api/schemas/common.js';
import type { PlannedCalls } from '../../review/budget.js';
import { chargedStep, type ChargedRun, type ChargedStep } from '../../review/chargedStep.js';
import { tokens, usd } from './format.js';
import type { Output } from './output.js';
import type { Session } from './session.js';

/** A step a command goes on with: refusals are thrown. */
type CommandStep<T> = Extract<ChargedStep<T>, { status: 'completed' | 'dry-run' }>;

interface SpendOptions<T> {
  maxTokens?: number | undefined;
  dryRun?: boolean;
  /** What the user asked for, named in the notice and a refusal ("one discovery query"). */
  what: string;
  /** See ChargedStepOptions.settle: the live-price tokens of the calls that went through. */
  settle?: (value: NoInfer<T>, plan: ChargedRun) => number;
}

/** Runs `run` as a charged step (see the module comment); throws budget_exceeded (exit 3) when refused. */
export async function spendStep<T>(session: Session, out: Output, calls: readonly PlannedCalls[], options: SpendOptions<T>, run: (plan: ChargedRun) => Promise<T>): Promise<CommandStep<T>> {
  const costOf = (plan: Pick<ChargedRun, 'estimate'>) => (plan.estimate.unpriced.length > 0 ? 'an unlisted price' : `${tokens(plan.estimate.totalTokens)} (about ${usd(plan.estimate.totalTokens)})`);
  const step = await chargedStep<T>(
    session.client,
    calls,
    {
      mode: await session.mode(),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      dryRun: options.dryRun === true,
      label: options.what,
      capLabel: '--max-tokens',
      ...(options.settle ? { settle: options.settle } : {}),
    },
    (plan) => {
      if (plan.mode === 'live') out.notice(`Spending ${costOf(plan)} on ${options.what}; balance ${tokens(plan.balanceTokens)}.`);
      return run(plan);
    },
  );
  if (step.status === 'refused') throw step.refusal;
  if (step.status === 'dry-run') {
    if (step.mode === 'live') out.notice(`Would spend ${costOf(step)} on ${options.what}; balance ${tokens(step.balanceTokens)}.`);
    // A dry run answers "what would happen": a refusal is part of the answer (exit 0), not an error.
    if (step.refusal) {
      out.warn(`a real run would be ${step.refusal.message}`);
      if (step.budget.suggestedPack) out.notice(`  Buy it with: compliance checkout ${step.budget.suggestedPack.code}`);
    }
  }
  return step;
}

/** What the plan costs at live prices; undefined when the service lists no price for one of its calls. */
export function plannedTokens(step: Pick<ChargedStep<unknown>, 'estimate'>): number | undefined {
  return step.estimate.unpriced.length > 0 ? undefined : step.estimate.totalTokens;
}

/** What a completed step drew from the balance; undefined for a live key when a price is not listed. */
export function tokensSpent(step: Pick<ChargedStep<unknown>, 'mode' | 'estimate' | 'tokensSpent'>): number | undefined {
  return step.mode === 'live' && plannedTokens(step) === undefined ? undefined : step.tokensSpent;
}

/** The line every spending command ends with: "Spent 20,000 tokens." (a sandbox key says it is never charged). */
export function spentLine(mode: KeyMode, spent: number | undefined): string {
  return `Spent ${spent === undefined ? 'an unlisted price' : tokens(spent)}${mode === 'live' ? '' : ' (sandbox key: never charged)'}.`;
}
