/**
 * The whole review loop as one call: sync what changed, map each framework, gate, plan the gap
 * issues, pull framework updates, detect drift. No I/O beyond the client it is given; the caller
 * supplies files, clock and existing issues, and applies what comes back.
 */
import type { ReviewInput, ReviewResult } from './reviewTypes.js';
import { finishReview, gapsUpdatesAndDrift, planReview, syncAndMap, type Progress } from './reviewSteps.js';
import type { ComplianceApi } from '../api/clientTypes.js';
import { chargedStep } from './chargedStep.js';
import { runSync } from './syncRun.js';

export type { ReviewInput, ReviewResult } from './reviewTypes.js';

/** What follows the charged step in a full review: the gap-issue plan, framework updates and drift. */
type AfterMapping = typeof gapsUpdatesAndDrift;

export function runReview(client: ComplianceApi, input: ReviewInput): Promise<ReviewResult> {
  return reviewLoop(client, input, gapsUpdatesAndDrift);
}

/** A review's input without what only follows the gate (gap issues, framework updates, drift). */
export type ReviewUpToGateInput = Omit<ReviewInput, 'existingIssues' | 'checkUpdates' | 'lastReviewDate' | 'manifest' | 'generatedFiles'>;

/**
 * The loop up to the gate: plan, the money rule, the sync and the mappings, the report. The map
 * check (review/pullRequest.ts) runs this: it plans no gap issue, reads no framework update and
 * checks no drift, so neither it nor the n8n node that runs it carries that code (the node's size target).
 */
export function runReviewUpToGate(client: ComplianceApi, input: ReviewUpToGateInput): Promise<ReviewResult> {
  return reviewLoop(client, { ...input, checkUpdates: false }, undefined);
}

async function reviewLoop(client: ComplianceApi, input: ReviewInput, after: AfterMapping | undefined): Promise<ReviewResult> {
  const progress: Progress = (phase, message) => input.onProgress?.({ phase, message });
  const planned = await planReview(client, input, progress);
  const { mode, plan, toSync, unchanged } = planned;

  // The money rule: priced, checked and reserved before the first charged call; a dry run (or an
  // unchanged pull request) sends nothing and says what the cap would refuse.
  const step = await chargedStep(
    client,
    planned.calls,
    { mode, billing: planned.billing, ledger: planned.ledger, dryRun: input.dryRun === true || unchanged, signal: input.signal, settle: (done) => done.pricedTokens },
    () => syncAndMap(client, input, planned, progress),
  );
  const finish = (status: ReviewResult['status'], parts: Partial<ReviewResult>) => finishReview(input, planned, step, status, parts);
  if (step.status === 'refused') return finish('refused', {});
  if (step.status === 'dry-run') {
    if (unchanged) return finish('unchanged', {});
    // A dry run is never refused: what the cap would refuse is in its budget (and its verdict).
    const run = toSync ? await runSync(client, toSync, { mode, dryRun: true }) : undefined;
    return finish('dry-run', { sync: plan ? { plan, run } : undefined });
  }
  const { sync: run, frameworks, frameworkErrors, reused, stored, tokensSpent } = step.value;
  const afterParts = after ? await after(client, input, planned, frameworks, progress) : {};
  return finish('completed', { sync: plan ? { plan, run } : undefined, frameworks, frameworkErrors, ...afterParts, tokensSpent, reused, mappings: stored });
}
