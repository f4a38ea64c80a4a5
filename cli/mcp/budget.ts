/**
 * The server session's token budget: every charged tool call is priced first (from the operation
 * table's fixed prices or the service's price list, GET /billing) and refused before anything is
 * sent when it would cross --max-tokens. An assistant cannot talk its way past it: the cap is a
 * process flag, not a tool argument.
 */
import type { ComplianceClient } from '../../api/client.js';
import { operations, type OperationId } from '../../api/operations.js';
import type { KeyMode } from '../../api/schemas/common.js';
import { ReviewError } from '../../review/errors.js';
import { tokens, usd } from '../lib/format.js';

/** A charged call refused before anything was sent (code budget_exceeded, as the CLI's refusals). */
export function budgetRefusal(message: string, hint: string): ReviewError {
  return new ReviewError('budget_exceeded', message, hint);
}

interface SpendReport {
  /** Live-price tokens this server session has spent (sandbox keys: counted, never charged). */
  spentTokens: number;
  maxTokens: number | null;
  remainingTokens: number | null;
  mode: KeyMode;
}

export class SessionBudget {
  #spent = 0;
  #prices: Promise<Record<string, number>> | undefined;
  readonly maxTokens: number | undefined;
  readonly mode: KeyMode;
  readonly #client: ComplianceClient;

  constructor(client: ComplianceClient, mode: KeyMode, maxTokens: number | undefined) {
    this.#client = client;
    this.mode = mode;
    this.maxTokens = maxTokens;
  }

  /** The service's price list (free, read once per server session). */
  prices(): Promise<Record<string, number>> {
    this.#prices ??= this.#client.getBilling().then((billing) => billing.prices);
    return this.#prices;
  }

  /** Live-mode price of one call of `id`; 0 for free operations, undefined when the service lists none. */
  async priceOf(id: OperationId): Promise<number | undefined> {
    const cost = operations[id].cost;
    if (cost.kind === 'free') return 0;
    if (cost.kind === 'fixed') return cost.tokens;
    return (await this.prices())[id];
  }

  /** One line for a charged tool's description, read from the price list. */
  async costLine(ids: readonly OperationId[]): Promise<string> {
    const parts: string[] = [];
    let total = 0;
    for (const id of ids) {
      const price = await this.priceOf(id);
      if (price === undefined) return `Cost: ${id} is charged in live mode at a price the service does not list; this server refuses it under a budget.`;
      total += price;
      if (ids.length > 1) parts.push(`${id} ${tokens(price)}`);
    }
    return `Cost: ${tokens(total)} (about ${usd(total)}) per call in live mode${parts.length ? ` (${parts.join(' + ')})` : ''}; sandbox keys are never charged. Counted against this server's --max-tokens budget.`;
  }

  /**
   * Refuses (throws budget_exceeded, nothing sent) a call costing `price` that the budget does not
   * allow; otherwise returns the price to record once the call went through.
   */
  check(what: string, price: number | undefined): number {
    if (price === undefined) {
      if (this.mode === 'live') throw budgetRefusal(`refused before spending anything: the price of ${what} is not listed, so the budget cannot be guaranteed`, 'Use the CLI for this call, where you can see the price first.');
      return 0;
    }
    if (this.mode === 'live' && this.maxTokens === undefined) {
      throw budgetRefusal(
        `refused before spending anything: ${what} costs ${tokens(price)} (about ${usd(price)}) and this server was started without a token budget, so it charges nothing`,
        'Ask the user to restart the server with --max-tokens N (for example --max-tokens 500000) to allow charged calls.',
      );
    }
    if (this.maxTokens !== undefined && this.#spent + price > this.maxTokens) {
      throw budgetRefusal(
        `refused before spending anything: ${what} costs ${tokens(price)}, and ${tokens(this.#spent)} of this session's ${tokens(this.maxTokens)} budget is already spent (${tokens(this.maxTokens - this.#spent)} left)`,
        'The budget is fixed for the server session; the user can restart the server with a larger --max-tokens.',
      );
    }
    return price;
  }

  record(price: number): void {
    this.#spent += price;
  }

  report(): SpendReport {
    return {
      spentTokens: this.#spent,
      maxTokens: this.maxTokens ?? null,
      remainingTokens: this.maxTokens === undefined ? null : this.maxTokens - this.#spent,
      mode: this.mode,
    };
  }

  /** The running spend line every charged tool's result carries. */
  reportLine(): string {
    const report = this.report();
    const budget = report.maxTokens === null ? 'no budget set' : `budget ${tokens(report.maxTokens)}, ${tokens(report.remainingTokens ?? 0)} left`;
    const charged = report.mode === 'live' ? 'charged' : 'at live prices (sandbox key: nothing charged)';
    return `Session spend: ${tokens(report.spentTokens)} ${charged}; ${budget}.`;
  }
}
