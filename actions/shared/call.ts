/**
 * actions/call: any operation of the API by its id, with a JSON input (path parameters plus query
 * or body fields, the same convention as `compliance call` and the n8n node). The result is the
 * `result` output as JSON; a download (md, pdf, docx) is written to `output-path`. With `wait`, a
 * job-creating operation waits for its job and outputs the final status as well.
 *
 * An operation that spends is priced first (the operation table's fixed price, else GET /billing's
 * price list): refused before anything is sent over `max-tokens` or the balance; `dry-run` prices
 * it and sends nothing. `tokens-spent` says what the call drew from the balance.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import { isOperationId, operationIds, operations } from '../../api/operations.js';
import { assertMayCall } from '../../review/events.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import type { Download } from '../../api/clientTypes.js';
import { chargedStep, chargedStepSentence, formatTokens } from '../../review/index.js';
import { writeRepoFile } from '../../review/node/index.js';
import { workspaceRoot } from './github/context.js';
import { booleanInput, InputError, jsonObjectInput, numberInput, requiredTextInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { createClient } from './runtime/service.js';
import { appendSummary, cutToBytes } from './runtime/summary.js';

const SUMMARY_JSON_BYTES = 16 * 1024;

function isDownload(value: unknown): value is Download {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return (kind === 'binary' || kind === 'text' || kind === 'json') && typeof (value as { contentType?: unknown }).contentType === 'string';
}

export const callAction: ActionDefinition = {
  name: 'call',
  async run({ apiKey }) {
    const operationId = requiredTextInput('operation', `One of: ${operationIds.join(', ')}.`);
    if (!isOperationId(operationId)) throw new InputError('operation', `unknown operation ${JSON.stringify(operationId)}`, `Use one of: ${operationIds.join(', ')}.`);
    const input = jsonObjectInput('input');
    const wait = booleanInput('wait', false);
    const outputPath = textInput('output-path');
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const dryRun = booleanInput('dry-run', false);
    if (!dryRun) assertMayCall(currentEventPolicy(), operationId, 'Write the library from the default branch (templates/github/compliance-library-sync.yml); elsewhere give dry-run: true.');
    const operation = operations[operationId];
    const client = createClient(apiKey, 'call');

    const send = () => client.call(operationId, input as never) as Promise<unknown>;
    let result: unknown;
    let tokensSpent = 0;
    if (operation.cost.kind !== 'free') {
      const step = await chargedStep(client, [{ operationId, count: 1 }], { ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun, capLabel: 'max-tokens' }, send);
      const tokensEach = step.estimate.lines[0]?.tokensEach;
      core.setOutput('planned-tokens', tokensEach === undefined ? '' : String(tokensEach));
      if (step.status !== 'completed') {
        core.setOutput('tokens-spent', '0');
        appendSummary(`## compliance call ${operationId}\n\n${chargedStepSentence(step)}\n\nTokens spent: **0**.\n`);
        // A dry run never fails the step: what the cap would refuse is in its summary.
        if (step.status === 'refused') log.setFailed(step.refusal.message);
        return;
      }
      result = step.value;
      tokensSpent = step.tokensSpent;
    } else if (dryRun) {
      core.setOutput('tokens-spent', '0');
      appendSummary(`## compliance call ${operationId}\n\nDry run, nothing sent: ${operationId} is free.\n\nTokens spent: **0**.\n`);
      return;
    } else result = await send();

    let json: unknown = result;
    let written: string | undefined;
    if (isDownload(result)) {
      if (result.kind === 'json') json = result.data;
      else {
        written = await writeRepoFile(workspaceRoot(), outputPath ?? result.filename, result.kind === 'binary' ? result.data : result.text);
        json = { kind: result.kind, contentType: result.contentType, filename: result.filename, path: written, bytes: result.kind === 'binary' ? result.data.byteLength : Buffer.byteLength(result.text) };
      }
      if (result.kind === 'json' && outputPath) {
        written = await writeRepoFile(workspaceRoot(), outputPath, `${JSON.stringify(result.data, null, 2)}\n`);
      }
    } else if (outputPath) {
      written = await writeRepoFile(workspaceRoot(), outputPath, `${JSON.stringify(result, null, 2)}\n`);
    }

    const jobId = operation.createsJob ? (result as { jobId?: string }).jobId : undefined;
    let job: unknown;
    if (jobId && wait) {
      log.info(`Waiting for job ${jobId}…`);
      job = await client.waitForJob(jobId, { estimatedSeconds: (result as { estimatedSeconds?: number }).estimatedSeconds });
    }

    core.setOutput('result', JSON.stringify(json));
    core.setOutput('path', written ?? '');
    core.setOutput('job-id', jobId ?? '');
    core.setOutput('job', job === undefined ? '' : JSON.stringify(job));
    core.setOutput('tokens-spent', String(tokensSpent));
    const shown = JSON.stringify(job ?? json, null, 2);
    const excerpt = cutToBytes(shown, SUMMARY_JSON_BYTES);
    appendSummary(
      [
        `## compliance call ${operationId}`,
        '',
        `${operation.method} ${operation.path}: ${operation.summary}.${written ? ` Written to \`${written}\`.` : ''}`,
        '',
        '```json',
        excerpt.replace(/```/g, '`\u200b``').trimEnd(),
        excerpt.length < shown.length ? '… (cut; the full result is in the `result` output)' : '',
        '```',
        '',
        `Tokens spent: **${formatTokens(tokensSpent)}**.`,
        '',
      ].join('\n'),
    );
  },
};
