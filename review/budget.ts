/**
 * The money rule, the one place that decides whether tokens may be spent, for every surface:
 * - price: GET /billing's price list, else the operation table's fixed price (priceOf);
 * - cap: a ledger of reservations (SpendLedger). A plan's price is reserved before its first call
 *   starts (and before any confirmation prompt), so concurrent plans can never together pass the
 *   cap; a reservation is released only for failures that cannot have been charged;
 * - dry run: priced and checked, nothing reserved, nothing sent;
 * - refusal: before anything is spent, naming the plan, the cap and what the cap would still allow;
 * - tokens spent: what was drawn from the balance (live keys only; the cap counts live prices in both
 *   modes, so a sandbox rehearsal refuses exactly what the live run would).
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import { ComplianceApiError, ComplianceValidationError } from '../api/errors.js';
import { FIXED_PRICES, isOperationId } from '../api/operations.js';
import { PACKS, PACK_CODES, type KeyMode, type PackCode } from '../api/schemas/common.js';
import { ReviewError } from './errors.js';

export function formatTokens(tokens: number): string {
  return `${tokens.toLocaleString('en-US')} tokens`;
}

/** The live-mode price of one call: the service's price list (GET /billing), else the operation table's fixed price. */
export function priceOf(operationId: string, prices: Readonly<Record<string, number>>): number | undefined {
  return prices[operationId] ?? (isOperationId(operationId) ? FIXED_PRICES[operationId] : undefined);
}

/** Calls a plan makes of one operation. */
export interface PlannedCalls {
  operationId: string;
  count: number;
}

/** One priced operation in an estimate; tokensEach is undefined when neither the service nor the table prices it. */
export interface CostLine extends PlannedCalls {
  tokensEach: number | undefined;
}

export interface CostEstimate {
  lines: CostLine[];
  /** Live-mode tokens of the lines with a known price. */
  totalTokens: number;
  /** Operations whose price is not known: the total is a lower bound. */
  unpriced: string[];
}

/** What `calls` cost, priced by priceOf. */
export function priceCalls(calls: readonly PlannedCalls[], prices: Readonly<Record<string, number>>): CostEstimate {
  return estimateCost(calls.map((call) => ({ ...call, tokensEach: priceOf(call.operationId, prices) })));
}

/** An estimate of priced lines (see priceCalls for pricing). */
function estimateCost(lines: readonly CostLine[]): CostEstimate {
  const counted = lines.filter((line) => line.count > 0);
  return {
    lines: counted,
    totalTokens: counted.reduce((sum, line) => sum + line.count * (line.tokensEach ?? 0), 0),
    unpriced: counted.filter((line) => line.tokensEach === undefined).map((line) => line.operationId),
  };
}

/** The plan in words: `2 × ingestLibraryDocument at 400,000 tokens + 1 × mapDocument at 250,000 tokens`. */
function describePlan(estimate: Pick<CostEstimate, 'lines'>): string {
  if (estimate.lines.length === 0) return 'no charged call';
  return estimate.lines
    .map((line) => `${line.count} × ${line.operationId} at ${line.tokensEach === undefined ? 'a price not listed' : formatTokens(line.tokensEach)}`)
    .join(' + ');
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
  /** The user's cap (--max-tokens, max-tokens, Max Tokens). */
  maxTokens?: number;
  /** Tokens already spent or reserved under the same cap (a session's earlier and concurrent calls). */
  reservedTokens?: number;
  /** A live key without a cap may spend nothing (the MCP server: an assistant must not spend unasked). */
  capRequired?: boolean;
  /** What the user asked for (a tool, a command), named in a refusal before the plan's calls. */
  label?: string;
}

export interface BudgetCheck {
  allowed: boolean;
  mode: KeyMode;
  /** The plan in words (describePlan). */
  plan: string;
  /** What the plan costs at live prices. */
  plannedTokens: number;
  /** What it will actually draw from the balance: 0 for sandbox keys. */
  chargedTokens: number;
  balanceTokens: number | undefined;
  maxTokens: number | undefined;
  /** Spent or reserved under the cap before this plan. */
  reservedTokens: number;
  /** What the cap still allows (undefined without a cap). */
  capRemainingTokens: number | undefined;
  /** The smallest cap under which this plan would run (undefined without a cap). */
  neededCapTokens: number | undefined;
  /** Tokens missing from the balance, when that is why it is refused. */
  shortfall: number | undefined;
  suggestedPack: PackSuggestion | undefined;
  reasons: string[];
}

/** How many of the plan's calls, in order, fit in `tokens`. */
function callsWithin(estimate: Pick<CostEstimate, 'lines'>, tokens: number): number {
  let left = tokens;
  let calls = 0;
  for (const line of estimate.lines) {
    for (let index = 0; index < line.count; index += 1) {
      if (line.tokensEach === undefined || line.tokensEach > left) return calls;
      left -= line.tokensEach;
      calls += 1;
    }
  }
  return calls;
}

/** Whether a plan may run: the one budget decision (SpendLedger.reserve makes it for every surface). */
export function checkBudget(cost: Pick<CostEstimate, 'totalTokens'> & Partial<Pick<CostEstimate, 'unpriced' | 'lines'>>, options: BudgetOptions): BudgetCheck {
  const planned = cost.totalTokens;
  const lines = cost.lines ?? [];
  const reserved = options.reservedTokens ?? 0;
  const plan = options.label ? `${options.label} (${describePlan({ lines })})` : describePlan({ lines });
  const reasons: string[] = [];
  let shortfall: number | undefined;
  let suggestedPack: PackSuggestion | undefined;
  const unpriced = cost.unpriced ?? [];
  const capRemaining = options.maxTokens === undefined ? undefined : Math.max(0, options.maxTokens - reserved);

  if (options.capRequired && options.mode === 'live' && options.maxTokens === undefined && (planned > 0 || unpriced.length > 0)) {
    reasons.push(`${plan} costs ${formatTokens(planned)} and no token cap was set, so nothing charged is allowed`);
  }
  if (options.maxTokens !== undefined && capRemaining !== undefined && planned > capRemaining) {
    const calls = lines.reduce((sum, line) => sum + line.count, 0);
    const already = reserved > 0 ? ` (${formatTokens(reserved)} of it already spent or reserved)` : '';
    const fits = calls > 0 ? `: enough for ${callsWithin({ lines }, capRemaining)} of the ${calls} call${calls === 1 ? '' : 's'}` : '';
    reasons.push(`${plan} costs ${formatTokens(planned)}, but the cap of ${formatTokens(options.maxTokens)} allows ${formatTokens(capRemaining)} more${already}${fits}`);
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
    // At zero the account is read-only (SERVICE_API 3.2): say that, not only a figure.
    const balance = options.balanceTokens === 0 ? 'the account is read-only (balance 0 tokens; it reactivates on a top-up)' : `the balance is ${formatTokens(options.balanceTokens)}`;
    reasons.push(`${plan} costs ${formatTokens(planned)} but ${balance}: ${formatTokens(shortfall)} short; ${pack}`);
  }
  return {
    allowed: reasons.length === 0,
    mode: options.mode,
    plan,
    plannedTokens: planned,
    chargedTokens: options.mode === 'live' ? planned : 0,
    balanceTokens: options.balanceTokens,
    maxTokens: options.maxTokens,
    reservedTokens: reserved,
    capRemainingTokens: capRemaining,
    neededCapTokens: options.maxTokens === undefined ? undefined : reserved + planned,
    shortfall,
    suggestedPack,
    reasons,
  };
}

/** The refusal of a check, as every surface words it; `capLabel` is the cap's name where the user sets it. */
export function budgetRefusal(check: BudgetCheck, capLabel = 'max-tokens'): ReviewError {
  const hint = check.suggestedPack
    ? `Buy ${check.suggestedPack.code} (compliance checkout ${check.suggestedPack.code}), or plan fewer calls.`
    : check.maxTokens === undefined
      ? `Set ${capLabel} to allow charged calls; a dry run shows what they cost.`
      : `Set ${capLabel} to ${check.neededCapTokens?.toLocaleString('en-US')} or more, or plan fewer calls; a dry run shows the plan.`;
  return new ReviewError('budget_exceeded', `refused before spending anything: ${check.reasons.join('; ')}`, hint);
}

/**
 * Whether a failed charged call can have been admitted, and so charged: anything but a refusal
 * before sending (validation, budget) or an answer of the service below 500 (it refuses before
 * charging). A failed job is refunded, but its charge stands until then, so it stays counted.
 */
export function mayHaveCharged(error: unknown): boolean {
  if (error instanceof ComplianceValidationError || error instanceof ReviewError) return false;
  if (error instanceof ComplianceApiError && error.status !== undefined && error.status < 500) return false;
  return true;
}

/** Tokens a charge at live prices draws from the balance: sandbox keys are never charged. */
export function chargedTokens(mode: KeyMode, liveTokens: number): number {
  return mode === 'live' ? liveTokens : 0;
}

/** Tokens held for one plan until it settles. */
export class Reservation {
  readonly tokens: number;
  #ledger: SpendLedger;
  #open = true;

  constructor(ledger: SpendLedger, tokens: number) {
    this.#ledger = ledger;
    this.tokens = tokens;
  }

  /** The calls went through (or may have been charged): `tokens` (default: all reserved) count as spent, the rest is freed. */
  commit(tokens = this.tokens): void {
    if (!this.#open) return;
    this.#open = false;
    this.#ledger.settleReservation(this.tokens, Math.min(tokens, this.tokens));
  }

  /** Nothing can have been charged (refused before sending, refused by the service, declined): all of it is freed. */
  release(): void {
    this.commit(0);
  }

  /** Settles after a failure: released only when the failure cannot have been charged (mayHaveCharged). */
  settleAfter(error: unknown): void {
    if (mayHaveCharged(error)) this.commit();
    else this.release();
  }

  /** Runs the reserved calls and settles: committed when they return, settleAfter when they throw. */
  around<T>(work: () => Promise<T>): Promise<T> {
    // Written with then, not catch-and-rethrow: the n8n node bundles this, and n8n's lint refuses a raw rethrow there.
    return work().then(
      (result) => {
        this.commit();
        return result;
      },
      (error: unknown) => {
        this.settleAfter(error);
        return Promise.reject(error as Error);
      },
    );
  }
}

interface SpendLedgerOptions {
  mode: KeyMode;
  maxTokens?: number;
  /** See BudgetOptions.capRequired. */
  capRequired?: boolean;
}

/**
 * One cap over any number of plans (a command's run, an action step, an MCP server session). reserve
 * checks and reserves in one synchronous step, so no concurrent plan can pass the check on tokens
 * another has already claimed.
 */
export class SpendLedger {
  readonly mode: KeyMode;
  readonly maxTokens: number | undefined;
  readonly capRequired: boolean;
  #spent = 0;
  #reserved = 0;

  constructor(options: SpendLedgerOptions) {
    this.mode = options.mode;
    this.maxTokens = options.maxTokens;
    this.capRequired = options.capRequired ?? false;
  }

  /** Live-price tokens spent (or possibly charged) under this cap. */
  get spentTokens(): number {
    return this.#spent;
  }

  /** Live-price tokens held by plans still running. */
  get reservedTokens(): number {
    return this.#reserved;
  }

  /** What the cap still allows new plans; undefined without a cap. */
  get remainingTokens(): number | undefined {
    return this.maxTokens === undefined ? undefined : Math.max(0, this.maxTokens - this.#spent - this.#reserved);
  }

  /** Checks a plan (see checkBudget) without reserving: what a dry run reports. */
  check(estimate: CostEstimate, options: { balanceTokens?: number; label?: string } = {}): BudgetCheck {
    return checkBudget(estimate, {
      ...options,
      mode: this.mode,
      ...(this.maxTokens !== undefined ? { maxTokens: this.maxTokens } : {}),
      reservedTokens: this.#spent + this.#reserved,
      capRequired: this.capRequired,
    });
  }

  /** Checks a plan and, when allowed, reserves its live price before anything is sent. */
  reserve(estimate: CostEstimate, options: { balanceTokens?: number; label?: string } = {}): { budget: BudgetCheck; reservation: Reservation | undefined } {
    const budget = this.check(estimate, options);
    if (!budget.allowed) return { budget, reservation: undefined };
    this.#reserved += estimate.totalTokens;
    return { budget, reservation: new Reservation(this, estimate.totalTokens) };
  }

  /** @internal Reservation.commit/release. */
  settleReservation(reserved: number, spent: number): void {
    this.#reserved -= reserved;
    this.#spent += spent;
  }
}

interface SpendPlan {
  mode: KeyMode;
  balanceTokens: number;
  prices: Readonly<Record<string, number>>;
  estimate: CostEstimate;
  budget: BudgetCheck;
  /** `refused`: over the cap or the balance; `dry-run`: priced only; `go`: reserved, run it and settle the reservation. */
  status: 'refused' | 'dry-run' | 'go';
  /** Held while the plan runs (status `go`). */
  reservation: Reservation | undefined;
  ledger: SpendLedger;
}

export interface PlanSpendOptions {
  /** The cap the plan counts against; without one, a ledger of `maxTokens` for this plan alone. */
  ledger?: SpendLedger;
  maxTokens?: number;
  dryRun?: boolean;
  /** Already known (ping / GET /billing), to save the calls. */
  mode?: KeyMode;
  billing?: { balanceTokens: number; prices: Readonly<Record<string, number>> };
  /** See BudgetOptions.label. */
  label?: string;
  signal?: AbortSignal;
}

/**
 * The money rule as one call: reads the key's mode and GET /billing (free), prices `calls`, and checks
 * and reserves them against the cap and the balance. A surface renders `status`; on `go` it runs the
 * calls and settles `reservation` (commit with what was charged, or settleAfter(error)).
 */
export async function planSpend(client: Pick<ComplianceApi, 'ping' | 'getBilling'>, calls: readonly PlannedCalls[], options: PlanSpendOptions = {}): Promise<SpendPlan> {
  const mode = options.ledger?.mode ?? options.mode ?? (await client.ping(undefined, { signal: options.signal })).mode;
  const billing = options.billing ?? (await client.getBilling(undefined, { signal: options.signal }));
  const ledger = options.ledger ?? new SpendLedger({ mode, ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}) });
  const estimate = priceCalls(calls, billing.prices);
  const base = { mode, balanceTokens: billing.balanceTokens, prices: billing.prices, estimate, ledger };
  const against = { balanceTokens: billing.balanceTokens, ...(options.label ? { label: options.label } : {}) };
  if (options.dryRun) return { ...base, budget: ledger.check(estimate, against), status: 'dry-run', reservation: undefined };
  const { budget, reservation } = ledger.reserve(estimate, against);
  return { ...base, budget, status: reservation ? 'go' : 'refused', reservation };
}
