/** `compliance review`: the whole loop per compliance.yml: sync, map, gate, updates, drift. */
import { CONNECTION_OPTIONS, REPO_OPTIONS, booleanFlag, parseCommand, type OptionSpecs } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { spentLine } from '../lib/spend.js';
import type { Output } from '../lib/output.js';
import { loadRepo } from '../lib/repo.js';
import { nextStep } from '../../review/gate.js';
import { reportVerdict } from '../../review/reportDocument.js';
import { answerKeylessForkPullRequest } from '../lib/gatedRun.js';
import { budgetLines, renderCoverage, renderDrift, renderGaps, renderSync, renderUpdates } from '../lib/render.js';
import { maybeWriteReports } from '../lib/reports.js';
import { executeReview, type ReviewRun } from '../lib/review.js';
import { GATE_OPTIONS, SPEND_OPTIONS, SYNC_OPTIONS } from '../lib/reviewOptions.js';
import { reviewExitCode, reviewJson } from '../lib/reviewOutcome.js';

const OPTIONS = {
  ...REPO_OPTIONS,
  ...SYNC_OPTIONS,
  ...GATE_OPTIONS,
  ...SPEND_OPTIONS,
  'skip-sync': { type: 'boolean', description: 'do not sync the library; only map the repo files' },
  since: { type: 'string', valueName: 'DATE', description: 'report framework updates after DATE (YYYY-MM-DD; default: all)' },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const reviewCommand: Command = {
  options: OPTIONS,
  async run(argv, out: Output) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance review [options]',
      gate: true,
      description:
        'Syncs the documents compliance.yml selects into the library (only what changed is charged), maps them against each\n' +
        'framework, gates on the thresholds and waivers, lists the gaps, framework updates and drifted generated documents.',
      notes: [
        'Money: new files are ingested and changed files refreshed (400,000 tokens each in live mode); unchanged files cost',
        'nothing. Each framework mapping is charged as GET /billing lists it. A plan over --max-tokens or the balance is',
        'refused before anything is spent; --dry-run prints the plan and its price.',
      ],
      examples: [
        'compliance review                                  # in the repo root, embedded sandbox without a key',
        'compliance review -C examples                      # what `npm start` runs',
        'compliance review --dry-run --json                 # plan and price only',
        'compliance review --max-tokens 2000000 --report-dir out --formats md,json,pdf',
        'compliance review --fail-on new-gaps --baseline main-report.json',
      ],
    });
    if (!parsed) return 0;
    const notEvaluated = answerKeylessForkPullRequest(parsed, out);
    if (notEvaluated !== undefined) return notEvaluated;
    const repo = await loadRepo(parsed);
    const run = await executeReview(parsed, out, repo, { config: repo.config, sync: booleanFlag(parsed.values, 'skip-sync') ? 'skip' : 'run', checkDrift: true });
    try {
      const { result } = run;
      const reportFiles = await maybeWriteReports(parsed, out, run);
      const exitCode = reviewExitCode(result);
      out.result(() => renderReview(out, run, reportFiles, repo.configPath), () => reviewJson(result, exitCode, reportFiles));
      return exitCode;
    } finally {
      await run.session.close();
    }
  },
};

export function renderReview(out: Output, run: Pick<ReviewRun, 'result' | 'mappedFrameworks'>, reportFiles: string[], configPath?: string): string {
  const { result } = run;
  const sections: string[] = [];
  if (result.sync) sections.push(renderSync(out, result.sync.plan, result.sync.run));
  const budget = budgetLines(out, result, run.mappedFrameworks);
  if (budget.length) sections.push(budget.join('\n'));
  if (result.frameworks.length) {
    sections.push(renderCoverage(out, result.frameworks));
    for (const framework of result.frameworks) sections.push(renderGaps(out, framework));
  }
  for (const error of result.frameworkErrors) sections.push(out.style(`${error.framework}: not evaluated (${error.code}): ${error.message}`, 'red'));
  const updates = renderUpdates(result.frameworkUpdates);
  if (updates) sections.push(updates);
  const drift = result.drift ? renderDrift(result.drift.documents) : undefined;
  if (drift) sections.push(drift);
  if (reportFiles.length) sections.push(`Reports written:\n${reportFiles.map((file) => `  ${file}`).join('\n')}`);
  if (result.status === 'completed') {
    const said = reportVerdict(result.report);
    const verdict = said === 'passed' ? out.style('Review passed.', 'green', 'bold') : out.style(said === 'failed' ? 'Review FAILED.' : 'Review NOT EVALUATED, so not passed.', 'red', 'bold');
    sections.push(`${verdict} ${spentLine(result.mode, result.tokensSpent)}`);
    const next = nextStep(result.frameworks, configPath);
    if (next) sections.push(next);
  }
  if (result.status === 'unchanged') {
    sections.push(`${out.style('Unchanged:', 'green', 'bold')} no document in scope nor compliance.yml differs from the default branch, so nothing was mapped; its report stands. ${spentLine(result.mode, result.tokensSpent)}`);
  }
  if (result.reused.length > 0) sections.push(`Mapping of ${result.reused.join(', ')} reused from this change's earlier run (same framework and documents): 0 tokens.`);
  return sections.join('\n\n');
}
