/**
 * The money rule for the node's single charged calls (Framework → Suggest, Document → Generate and
 * Map, Library → Ingest, Refresh and Search), as review/'s charged step runs it for every surface:
 * priced from GET /billing and the operation table (free), capped by Max Tokens, reserved before the
 * call, or a dry run (never an error: it says what the cap would refuse). One cap per node execution: all items of one execute() draw on one SpendLedger,
 * so the items beyond the cap are refused, not charged (without Continue On Fail, all of them are
 * refused before the first is sent).
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../api/client.js';
import { operations, type OperationId } from '../../../../api/operations.js';
import { validateInput } from '../../../../api/validation.js';
import { budgetRefusal, SpendLedger, type BudgetCheck } from '../../../../review/budget.js';
import { chargedStep, chargedStepSentence } from '../../../../review/chargedStep.js';
import { jsonItems } from './utils.js';

/** Max Tokens and Dry Run for one charged call per item; `call` names it (e.g. 'the generation'). */
export function spendProperties(call: string): INodeProperties[] {
  return [
    {
      displayName: 'Max Tokens',
      name: 'maxTokens',
      type: 'number',
      typeOptions: { minValue: 0 },
      default: 0,
      description: 'The most this node execution may spend, over all its items, at live prices: an item whose call would pass it is refused before anything is sent. 0: no cap (the balance still applies).',
    },
    {
      displayName: 'Dry Run',
      name: 'dryRun',
      type: 'boolean',
      default: false,
      description: `Whether to only price ${call} (status skipped, with its planned tokens), sending nothing`,
    },
  ];
}

/** One ledger per execute() call: the context n8n gives one execution is the key. */
const ledgers = new WeakMap<object, Promise<SpendLedger>>();

/** Max Tokens of the node (0: no cap), refused unless a whole number of tokens; `hint` says what to set. */
export function readMaxTokens(context: IExecuteFunctions, label: string, hint: string): number {
  const cap = context.getNodeParameter('maxTokens', 0, 0) as number;
  if (typeof cap !== 'number' || !Number.isInteger(cap) || cap < 0) {
    throw new NodeOperationError(context.getNode(), `Max Tokens in ${label} must be a whole number of tokens, 0 or more (got ${String(cap)})`, {
      description: hint,
    });
  }
  return cap;
}

/**
 * The refusal of a plan as the node's error: the label, what the cap allows and how high to set it;
 * `plan` (a sentence on what the plan holds) goes before that fix.
 */
export function refusalError(context: IExecuteFunctions, label: string, budget: BudgetCheck, options: { itemIndex?: number; plan?: string } = {}): NodeOperationError {
  const refusal = budgetRefusal(budget, 'Max Tokens');
  const description = [options.plan, refusal.hint].filter(Boolean).join(' ');
  return new NodeOperationError(context.getNode(), `${label} ${refusal.message}`, { ...(options.itemIndex !== undefined ? { itemIndex: options.itemIndex } : {}), ...(description ? { description } : {}) });
}

/**
 * The error fields of a refused Continue On Fail item, as the service's answer would carry them, so
 * a workflow routes a refusal for the balance as it routes the service's own 402 (insufficient_balance).
 */
export function refusalFields(budget: BudgetCheck): IDataObject {
  const refusal = budgetRefusal(budget, 'Max Tokens');
  return { error: refusal.message, code: budget.shortfall === undefined ? refusal.code : 'insufficient_balance', hint: refusal.hint ?? null };
}

/**
 * This execution's ledger, made at its first item. Without Continue On Fail an item refused halfway
 * would fail the node after the earlier items were charged and lose their output, so the items'
 * calls together are checked first, and refused whole before anything is sent.
 */
function ledgerOf(context: IExecuteFunctions, client: ComplianceClient, operationId: OperationId, label: string): Promise<SpendLedger> {
  let ledger = ledgers.get(context);
  if (!ledger) {
    const cap = readMaxTokens(context, label, 'Set it to the most this node execution may spend, or 0 for no cap.');
    const signal = context.getExecutionCancelSignal?.();
    const calls = context.getInputData().filter((_, index) => !(context.getNodeParameter('dryRun', index, false) as boolean)).length;
    ledger = (async () => {
      const { mode } = await client.ping(undefined, signal ? { signal } : {});
      const made = new SpendLedger({ mode, ...(cap > 0 ? { maxTokens: cap } : {}) });
      if (calls > 1 && !context.continueOnFail()) {
        const whole = await chargedStep(client, [{ operationId, count: calls }], { ledger: made, dryRun: true, ...(signal ? { signal } : {}) }, async () => undefined);
        if (!whole.budget.allowed) throw refusalError(context, label, whole.budget);
      }
      return made;
    })();
    ledgers.set(context, ledger);
  }
  return ledger;
}

/**
 * Runs one item's charged call under the money rule, once `input` is valid (a bad field is named
 * before anything is priced or sent). Refused (over Max Tokens or the balance): a
 * NodeOperationError naming the cap and what it allows, or with Continue On Fail an item of status
 * refused; Dry Run: an item of status skipped. Otherwise `call`'s items, each with tokensSpent.
 */
export async function spendOnce(
  this: IExecuteFunctions,
  itemIndex: number,
  client: ComplianceClient,
  operationId: OperationId,
  label: string,
  input: object,
  call: () => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[]> {
  validateInput(operationId, operations[operationId].input, input);
  const ledger = await ledgerOf(this, client, operationId, label);
  const dryRun = this.getNodeParameter('dryRun', itemIndex, false) as boolean;
  const signal = this.getExecutionCancelSignal?.();
  // The reservation settles either way: kept against the cap when the call may have been charged, else freed.
  const step = await chargedStep(client, [{ operationId, count: 1 }], { ledger, dryRun, capLabel: 'Max Tokens', ...(signal ? { signal } : {}) }, call);
  if (step.status === 'completed') return step.value.map((item) => ({ ...item, json: { ...item.json, tokensSpent: step.tokensSpent } }));
  const refused = step.status === 'refused';
  if (refused && !this.continueOnFail()) throw refusalError(this, label, step.budget, { itemIndex });
  const { budget } = step;
  const outcome: IDataObject = {
    status: refused ? 'refused' : 'skipped',
    dryRun,
    plan: budget.plan,
    plannedTokens: budget.plannedTokens,
    tokensSpent: 0,
    maxTokens: budget.maxTokens ?? null,
    capRemainingTokens: budget.capRemainingTokens ?? null,
    mode: budget.mode,
    // A dry run says what it priced and what the cap would refuse; a refusal says why, as the service's error would.
    reasons: [chargedStepSentence(step)],
    ...(refused ? refusalFields(budget) : {}),
  };
  return jsonItems(outcome, itemIndex);
}
