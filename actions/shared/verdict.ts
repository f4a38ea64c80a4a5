/**
 * The verdict as map and review publish it: the outputs documented in their action.yml (from
 * review/'s decideVerdict, never recomputed here), the refusal section of the summary and the pull
 * request comment, and the step's end.
 */
import { log } from './runtime/log.js';
import { formatTokens, neutralise, tableCell, verdictFailsStep, type ReviewResult, type StepOptions, type Verdict } from '../../review/index.js';
import { renderCosts } from './reportRender.js';

export { setVerdictOutputs } from './stepOutputs.js';

/** A refusal, for the job summary and the pull request comment: what was planned, the cap, the balance, what to do. */
export function renderRefusal(action: string, result: Pick<ReviewResult, 'mode' | 'estimate' | 'budget'>, verdict: Verdict, failOnRefusal: boolean): string {
  const { figures } = verdict;
  const lines = [`## Compliance ${action}: refused, nothing spent`, ''];
  for (const reason of result.budget.reasons) lines.push(`- ${neutralise(reason)}`);
  lines.push('');
  const cap = figures.maxTokens === undefined ? 'no cap (max-tokens)' : `a cap of ${formatTokens(figures.maxTokens)} (max-tokens)`;
  lines.push(`The plan costs **${formatTokens(figures.plannedTokens)}** at live prices, against ${cap}${figures.mode === 'live' && figures.balanceTokens !== undefined ? ` and a balance of ${formatTokens(figures.balanceTokens)}` : ''}.`);
  const fixes: string[] = [];
  if (figures.maxTokens !== undefined && figures.plannedTokens > figures.maxTokens) fixes.push(`raise max-tokens to at least ${figures.plannedTokens.toLocaleString('en-US')}`);
  if (figures.suggestedPack) fixes.push(`buy ${figures.suggestedPack.code} (US$${figures.suggestedPack.priceUsd}, ${formatTokens(figures.suggestedPack.tokens)}): \`compliance checkout ${figures.suggestedPack.code}\``);
  if (fixes.length) lines.push(`To run it: ${fixes.join(', or ')}.`);
  lines.push(failOnRefusal ? 'The step fails: nothing was evaluated (fail-on-refusal: false reports this and passes).' : 'fail-on-refusal is false, so the step passes; nothing was evaluated.', '');
  return `${lines.join('\n')}\n${renderCosts({ mode: result.mode, estimate: result.estimate, budget: result.budget, tokensSpent: 0 })}`;
}

/** Ends the step as the verdict says: failed gate (unless fail-below is false), refusal (unless fail-on-refusal is false), unjudged frameworks. */
export function finishStep(verdict: Verdict, options: StepOptions): void {
  const reasons = verdict.reasons.join('; ');
  if (verdictFailsStep(verdict, options)) {
    if (verdict.status === 'refused') log.setFailed(reasons);
    else if (verdict.errors.length > 0) log.setFailed(`not evaluated, so not passed: ${verdict.errors.map((entry) => `${entry.framework}: ${entry.message}`).join('; ')}`);
    else if (verdict.status === 'not-evaluated' || verdict.status === 'skipped') log.setFailed(`not evaluated, so not passed: ${reasons}`);
    else log.setFailed(`compliance gate failed: ${reasons}`);
    return;
  }
  if (verdict.status === 'failed') log.warning(`compliance gate failed (fail-below is false, so the step passes): ${reasons}`);
  if (verdict.status === 'refused') log.warning(`${reasons} (fail-on-refusal is false, so the step passes)`);
}

/** One line for summaries and comments: the status and the figures it rests on. */
export function verdictLine(verdict: Verdict): string {
  const { figures } = verdict;
  const coverage = figures.coverage === undefined ? '' : `, coverage ${figures.coverage}%`;
  const gaps = `${figures.gaps} gap${figures.gaps === 1 ? '' : 's'}${figures.waivedGaps ? ` (+${figures.waivedGaps} waived)` : ''}`;
  switch (verdict.status) {
    case 'unchanged':
      return `**Status: unchanged.** No document in scope nor compliance.yml differs from the default branch: nothing was mapped, nothing spent. ${figures.source === 'baseline' ? `The default branch's result stands: ${verdict.passed ? 'passed' : 'failed'}${coverage}, ${gaps}.` : 'No figures are shown (no confirmed report of the default branch at hand).'}`;
    case 'refused':
      return `**Status: refused.** ${tableCell(verdict.reasons.join('; '))}`;
    case 'skipped':
      return `**Status: skipped.** ${tableCell(verdict.reasons.join('; '))}`;
    case 'not-evaluated':
      return `**Status: not evaluated, so not passed.** ${tableCell(verdict.reasons.join('; '))}`;
    default:
      return `**Status: ${verdict.status}**${coverage}, ${gaps}, ${figures.newGaps} new; ${formatTokens(figures.tokensSpent)} spent.`;
  }
}
