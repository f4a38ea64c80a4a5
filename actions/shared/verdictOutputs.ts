/**
 * The verdict's step outputs (status, passed, coverage, gaps, new-gaps, frameworks, tokens-spent),
 * as action.yml documents them. Its own module so the runtime can set them on a skip without
 * loading the report writers.
 */
import * as core from '@actions/core';
import type { Verdict } from '../../review/verdict.js';

/** status, passed, coverage, gaps, new-gaps, frameworks, tokens-spent: the verdict's figures. */
export function setVerdictOutputs(verdict: Verdict): void {
  const { figures } = verdict;
  core.setOutput('status', verdict.status);
  core.setOutput('passed', String(verdict.passed));
  core.setOutput('coverage', figures.coverage === undefined ? '' : String(figures.coverage));
  core.setOutput('gaps', String(figures.gaps));
  core.setOutput('new-gaps', String(figures.newGaps));
  core.setOutput('frameworks', JSON.stringify(figures.frameworks));
  core.setOutput('tokens-spent', String(figures.tokensSpent));
}
