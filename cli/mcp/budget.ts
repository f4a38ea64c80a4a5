/**
 * The server session's token budget: one SpendLedger (review/'s money rule) for the whole session.
 * Every charged tool call is priced (GET /billing's list, else the operation table), and its price
 * reserved before the confirmation prompt and the call, so concurrent calls (over stdio, over --http,
 * waiting for a confirmation) can never together pass --max-tokens. An assistant cannot talk its way
 * past it: the cap is a process flag, not a tool argument.
 */
import type { ComplianceClient } from '../../api/client.js';
import type { OperationId } from '../../api/operations.js';
import type { KeyMode } from '../../api/schemas/common.js';
import { priceCalls, priceOf, SpendLedger } from '../../review/budget.js';
import { chargedStep } from '../../review/chargedStep.js';
import { ReviewError } from '../../review/errors.js';
import { tokens, usd } from '../lib/format.js';

/** The client's answer to a confirmation (elicitation), or why it could not be had. */
type ConfirmAnswer = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> } | { action: 'unreadable'; error: unknown };

/**
 * Nothing is sent until the user says yes. A decline or a cancel is `declined`; an answer that cannot
 * be read (the request failed, or `confirm` is not a yes or no) is `confirmation_unreadable`. Both
 * are ReviewErrors: the reservation is released, nothing counts as spent.
 */
export function assertConfirmed(what: string, answer: ConfirmAnswer): void {
  const confirm = answer.action === 'accept' ? answer.content?.confirm : undefined;
  if (answer.action === 'unreadable' || (answer.action === 'accept' && typeof confirm !== 'boolean')) {
    const why = answer.action === 'unreadable' ? (answer.error instanceof Error ? answer.error.message : String(answer.error)) : `confirm was ${JSON.stringify(confirm) ?? 'missing'}, not true or false`;
    throw new ReviewError('confirmation_unreadable', `the answer to the confirmation of ${what} could not be read (${why}): nothing was sent or spent`, 'Ask the user again; if their client cannot answer confirmations, the server can be started with a higher --confirm-above.');
  }
  if (confirm !== true) {
    const said = answer.action === 'cancel' ? 'cancelled the confirmation of' : 'declined';
    throw new ReviewError('declined', `the user ${said} ${what}: nothing was sent or spent`, 'Ask the user before trying again.');
  }
}

interface SpendReport {
  /** Live-price tokens this server session has spent (sandbox keys: counted, never charged). */
  spentTokens: number;
  /** Live-price tokens held by charged calls still running. */
  reservedTokens: number;
  maxTokens: number | null;
  remainingTokens: number | null;
  mode: KeyMode;
}

export class SessionBudget {
  #prices: Promise<Record<string, number>> | undefined;
  readonly #ledger: SpendLedger;
  readonly #client: ComplianceClient;

  constructor(client: ComplianceClient, mode: KeyMode, maxTokens: number | undefined) {
    this.#client = client;
    // A live key without --max-tokens charges nothing: an assistant must not spend unasked.
    this.#ledger = new SpendLedger({ mode, ...(maxTokens !== undefined ? { maxTokens } : {}), capRequired: true });
  }

  get mode(): KeyMode {
    return this.#ledger.mode;
  }

  get maxTokens(): number | undefined {
    return this.#ledger.maxTokens;
  }

  /** The service's price list (free, read once per server session). */
  prices(): Promise<Record<string, number>> {
    this.#prices ??= this.#client.getBilling().then((billing) => billing.prices);
    return this.#prices;
  }

  /** Live-mode price of one call of `id`; undefined when neither the service nor the table prices it. */
  async priceOf(id: OperationId): Promise<number | undefined> {
    return priceOf(id, await this.prices());
  }

  /** One line for a charged tool's description, read from the price list. */
  async costLine(ids: readonly OperationId[]): Promise<string> {
    const estimate = priceCalls(ids.map((id) => ({ operationId: id, count: 1 })), await this.prices());
    if (estimate.unpriced.length > 0) return `Cost: ${estimate.unpriced.join(', ')} is charged in live mode at a price the service does not list; this server refuses it under a budget.`;
    const parts = ids.length > 1 ? ` (${estimate.lines.map((line) => `${line.operationId} ${tokens(line.tokensEach ?? 0)}`).join(' + ')})` : '';
    const total = estimate.totalTokens;
    return `Cost: ${tokens(total)} (about ${usd(total)}) per call in live mode${parts}; sandbox keys are never charged. Counted against this server's --max-tokens budget.`;
  }

  /** The session's cap: a dry run (planReview) is checked against it as a charged call would be. */
  get ledger(): SpendLedger {
    return this.#ledger;
  }

  /**
   * One charged tool call as review/'s charged step: one call of each of `ids` priced (GET /billing,
   * free) and reserved under the session's cap, `confirm` asked with the price (a decline or an
   * unreadable answer releases it: nothing was sent), then `work`, settled as the ledger says.
   * Refused (nothing sent): budget_exceeded, with what the user can do about it.
   */
  async spend<T>(what: string, ids: readonly OperationId[], confirm: (price: number) => Promise<void>, work: (admitted: () => void) => Promise<T>): Promise<T> {
    const calls = ids.map((id) => ({ operationId: id, count: 1 }));
    const step = await chargedStep(this.#client, calls, { ledger: this.#ledger, label: what, capLabel: '--max-tokens' }, async ({ reservation }) => {
      await confirm(reservation.tokens);
      // Once the service has admitted the call its price is spent, whatever fails after (the wait, the download).
      return work(() => reservation.commit());
    });
    if (step.status === 'completed') return step.value;
    const hint = step.budget.suggestedPack
      ? step.refusal?.hint
      : this.maxTokens === undefined
        ? 'Ask the user to restart the server with --max-tokens N (for example --max-tokens 500000) to allow charged calls.'
        : step.estimate.unpriced.length > 0
          ? 'Use the CLI for this call, where you can see the price first.'
          : 'The budget is fixed for the server session; the user can restart the server with a larger --max-tokens.';
    throw new ReviewError('budget_exceeded', step.refusal?.message ?? 'refused before spending anything', hint);
  }

  report(): SpendReport {
    const remaining = this.#ledger.remainingTokens;
    return {
      spentTokens: this.#ledger.spentTokens,
      reservedTokens: this.#ledger.reservedTokens,
      maxTokens: this.maxTokens ?? null,
      remainingTokens: remaining ?? null,
      mode: this.mode,
    };
  }

  /** The running spend line every charged tool's result carries. */
  reportLine(): string {
    const report = this.report();
    const held = report.reservedTokens > 0 ? `, ${tokens(report.reservedTokens)} held by calls still running` : '';
    const budget = report.maxTokens === null ? 'no budget set' : `budget ${tokens(report.maxTokens)}, ${tokens(report.remainingTokens ?? 0)} left${held}`;
    const charged = report.mode === 'live' ? 'charged' : 'at live prices (sandbox key: nothing charged)';
    return `Session spend: ${tokens(report.spentTokens)} ${charged}; ${budget}.`;
  }
}
