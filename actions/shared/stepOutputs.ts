/**
 * The step outputs of map and review, as action.yml documents them: the verdict's (status, passed,
 * coverage, gaps, new-gaps, frameworks, tokens-spent) and the report files' paths. Its own module so
 * the runtime can set them on a skip without loading the report writers.
 */
import * as core from '@actions/core';
import type { Verdict } from '../../review/verdict.js';
import type { WrittenReport } from './reportFiles.js';

/** status, passed, coverage, gaps, new-gaps, frameworks, tokens-spent: the verdict's figures. */
export function setVerdictOutputs(verdict: Verdict): void {
  const { figures } = verdict;
  core.setOutput('status', verdict.status);
  core.setOutput('passed', String(verdict.passed));
  core.setOutput('coverage', figures.coverage === undefined ? '' : String(figures.coverage));
  // Nothing evaluated has no figures: empty, never a 0 a later step would read as "no gaps".
  const evaluated = figures.source !== 'none';
  core.setOutput('gaps', evaluated ? String(figures.gaps) : '');
  core.setOutput('new-gaps', evaluated ? String(figures.newGaps) : '');
  // A framework that could not be evaluated is listed too, never left out of the figures.
  const notEvaluated = verdict.errors.map((entry) => ({ key: entry.framework, name: entry.framework, evaluated: false, reason: `${entry.code}: ${entry.message}`, passed: false }));
  core.setOutput('frameworks', JSON.stringify([...figures.frameworks, ...notEvaluated]));
  core.setOutput('tokens-spent', String(figures.tokensSpent));
}

/** The report file outputs shared by map and review (the verdict's figures are set by setVerdictOutputs). */
export function setReportPathOutputs(written: WrittenReport | undefined): void {
  if (!written) return;
  core.setOutput('report-path', written.dir);
  core.setOutput('report-json', written.json);
  core.setOutput('report-markdown', written.markdown);
}
