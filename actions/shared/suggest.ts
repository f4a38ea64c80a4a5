/**
 * actions/suggest: framework discovery. A plain-language query (plus optional jurisdiction,
 * domain, regulator, description) returns ranked frameworks: the candidates as a JSON output and a
 * ranked table in the job summary. A query is charged for live keys: priced by the money rule first,
 * refused over `max-tokens` or the balance, nothing sent on `dry-run`; `tokens-spent` says what it drew.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import { chargedStep, chargedStepSentence, formatTokens, neutralise, tableCell, truncate } from '../../review/index.js';
import { booleanInput, InputError, numberInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';

const CRITERIA = ['query', 'jurisdiction', 'domain', 'regulator', 'description'] as const;

/** A link only when it is http(s): a service text never becomes a javascript: or data: link. */
function safeLink(text: string, url: string): string {
  return /^https?:\/\//i.test(url) ? `[${tableCell(text)}](${url.replace(/[()\s]/g, encodeURIComponent)})` : tableCell(text);
}

export const suggestAction: ActionDefinition = {
  name: 'suggest',
  async run({ apiKey }) {
    const input: Partial<Record<(typeof CRITERIA)[number], string>> = {};
    for (const name of CRITERIA) {
      const value = textInput(name);
      if (value !== undefined) input[name] = value;
    }
    if (Object.keys(input).length === 0) {
      throw new InputError('query', 'is required (or at least one of jurisdiction, domain, regulator, description)', 'For example query: "health data privacy for a US telehealth app".');
    }
    const limit = numberInput('limit', { min: 1, integer: true });
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const dryRun = booleanInput('dry-run', false);
    const client = createClient(apiKey, 'suggest');

    const step = await chargedStep(client, [{ operationId: 'suggestFrameworks', count: 1 }], { ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun, label: 'one discovery query', capLabel: 'max-tokens' }, () =>
      client.suggestFrameworks(input),
    );
    const price = step.estimate.unpriced.length > 0 ? 'a price the service does not list' : formatTokens(step.estimate.totalTokens);
    const priced = `The query costs ${price} at live prices${step.mode === 'sandbox' ? ' (sandbox key: never charged)' : ''}.`;
    core.setOutput('planned-tokens', step.estimate.unpriced.length > 0 ? '' : String(step.estimate.totalTokens));
    if (step.status !== 'completed') {
      core.setOutput('tokens-spent', '0');
      appendSummary(`## Framework suggestions\n\n${chargedStepSentence(step)}\n\nTokens spent: **0**.\n`);
      // A dry run never fails the step: what the cap would refuse is in its summary.
      if (step.status === 'refused') log.setFailed(step.refusal.message);
      return;
    }
    const result = step.value;
    const tokensSpent = step.tokensSpent;
    const candidates = limit === undefined ? result.candidates : result.candidates.slice(0, limit);

    const lines = ['## Framework suggestions', '', `For: ${tableCell(input.query ?? Object.values(input).join(', '))}${result.mode === 'sandbox' ? ' (sandbox key: sample output)' : ''}`, ''];
    if (candidates.length === 0) lines.push('No framework matched.');
    else {
      lines.push('| # | Framework | Regulator | Jurisdiction | Sector | Confidence | Why |', '|---|---|---|---|---|---|---|');
      for (const candidate of candidates) {
        lines.push(
          `| ${candidate.rank} | ${safeLink(candidate.name, candidate.sourceUrl)}${candidate.slug ? ` \`${tableCell(candidate.slug)}\`` : ''}${candidate.verified ? ' ✔︎ verified' : ''} | ${tableCell(candidate.regulator)} | ${tableCell(candidate.jurisdiction)} | ${tableCell(candidate.sector)} | ${Math.round(candidate.confidence * 100)}% | ${tableCell(truncate(candidate.reasoning, 300))} |`,
        );
      }
    }
    for (const warning of result.warnings ?? []) lines.push('', `> ⚠️ ${neutralise(warning)}`);
    lines.push('', `${priced} Tokens spent: **${formatTokens(tokensSpent)}**.`);
    appendSummary(`${lines.join('\n')}\n`);
    core.setOutput('tokens-spent', String(tokensSpent));

    core.setOutput('candidates', JSON.stringify(candidates));
    core.setOutput('count', String(candidates.length));
    core.setOutput('top', candidates[0]?.slug ?? candidates[0]?.name ?? '');
    core.setOutput('top-name', candidates[0]?.name ?? '');
    log.info(candidates.length ? `Top candidate: ${candidates[0]?.name} (${Math.round((candidates[0]?.confidence ?? 0) * 100)}%)` : 'No framework matched.');
  },
};
