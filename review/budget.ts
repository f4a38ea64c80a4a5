/**
 * Money: what a plan costs and whether it may run. Refusals happen before anything is spent and
 * say how much is missing and which pack covers it.
 */
import { PACKS, PACK_CODES, type KeyMode, type PackCode } from '../api/schemas/common.js';
import { ReviewError } from './errors.js';

export function formatTokens(tokens: number): string {
  return `${tokens.toLocaleString('en-US')} tokens`;
}

/** One priced operation in an estimate; tokensEach is undefined when the service lists no price. */
export interface CostLine {
  operationId: string;
  count: number;
  tokensEach: number | undefined;
}

export interface CostEstimate {
  lines: CostLine[];
  /** Live-mode tokens of the lines with a known price. */
  totalTokens: number;
  /** Operations whose price is not known: the total is a lower bound. */
  unpriced: string[];
}

/** An estimate from fixed prices or the prices `/billing` and `/capabilities` list, per operation id. */
export function estimateCost(lines: CostLine[]): CostEstimate {
  const counted = lines.filter((line) => line.count > 0);
  return {
    lines: counted,
    totalTokens: counted.reduce((sum, line) => sum + line.count * (line.tokensEach ?? 0), 0),
    unpriced: counted.filter((line) => line.tokensEach === undefined).map((line) => line.operationId),
  };
}

export interface PackSuggestion {
  code: PackCode;
  priceUsd: number;
  tokens: number;
}

/** The cheapest pack that credits at least `tokens`; undefined beyond the largest pack. */
export function smallestPackCovering(tokens: number): PackSuggestion | undefined {
  const code = PACK_CODES.find((candidate) => PACKS[candidate].tokens >= tokens);
  return code ? { code, priceUsd: PACKS[code].priceUsd, tokens: PACKS[code].tokens } : undefined;
}

interface BudgetOptions {
  mode: KeyMode;
  /** The account balance (GET /billing); needed to check a live plan against it. */
  balanceTokens?: number;
  /** The user's cap (--max-tokens). */
  maxTokens?: number;
}

export interface BudgetCheck {
  allowed: boolean;
  mode: KeyMode;
  /** What the plan costs at live prices. */
  plannedTokens: number;
  /** What it will actually draw from the balance: 0 for sandbox keys. */
  chargedTokens: number;
  balanceTokens: number | undefined;
  maxTokens: number | undefined;
  /** Tokens missing from the balance, when that is why it is refused. */
  shortfall: number | undefined;
  suggestedPack: PackSuggestion | undefined;
  reasons: string[];
}

/**
 * Whether a plan may run. The cap applies at live prices in both modes, so a sandbox rehearsal
 * refuses exactly what the live run would; the balance only matters for live keys.
 */
export function checkBudget(cost: { totalTokens: number; unpriced?: readonly string[] }, options: BudgetOptions): BudgetCheck {
  const planned = cost.totalTokens;
  const reasons: string[] = [];
  let shortfall: number | undefined;
  let suggestedPack: PackSuggestion | undefined;
  const unpriced = cost.unpriced ?? [];

  if (options.maxTokens !== undefined && planned > options.maxTokens) {
    reasons.push(`the plan costs ${formatTokens(planned)}, more than the cap of ${formatTokens(options.maxTokens)}`);
  }
  if (options.maxTokens !== undefined && unpriced.length > 0 && options.mode === 'live') {
    reasons.push(`the price of ${unpriced.join(', ')} is not listed, so the cap of ${formatTokens(options.maxTokens)} cannot be guaranteed`);
  }
  if (options.mode === 'live' && options.balanceTokens !== undefined && planned > options.balanceTokens) {
    shortfall = planned - options.balanceTokens;
    suggestedPack = smallestPackCovering(shortfall);
    const pack = suggestedPack
      ? `the smallest pack that covers it is ${suggestedPack.code} (US$${suggestedPack.priceUsd}, ${formatTokens(suggestedPack.tokens)})`
      : `that is more than the largest pack: buy several or ask for an invoiced block`;
    reasons.push(
      `the plan costs ${formatTokens(planned)} but the balance is ${formatTokens(options.balanceTokens)}: ${formatTokens(shortfall)} short; ${pack}`,
    );
  }
  return {
    allowed: reasons.length === 0,
    mode: options.mode,
    plannedTokens: planned,
    chargedTokens: options.mode === 'live' ? planned : 0,
    balanceTokens: options.balanceTokens,
    maxTokens: options.maxTokens,
    shortfall,
    suggestedPack,
    reasons,
  };
}

/** Throws (code budget_exceeded) when the check refused the plan. */
export function assertBudget(check: BudgetCheck): void {
  if (!check.allowed) {
    throw new ReviewError('budget_exceeded', `refused before spending anything: ${check.reasons.join('; ')}`,
      check.suggestedPack ? `Buy ${check.suggestedPack.code} (compliance checkout ${check.suggestedPack.code}) or sync fewer files.` : 'Raise --max-tokens or sync fewer files.');
  }
}
