/** What a review run says to machines: its exit code and the --json document of review and map. */
import type { ReviewReport } from '../../review/reportDocument.js';
import type { ReviewResult } from '../../review/review.js';
import { decideVerdict, isUnknownFramework } from '../../review/verdict.js';
import { EXIT, type ExitCode } from './errors.js';

/**
 * review/'s verdict as an exit code: 1 for a dry run of a gated run (nothing evaluated); 3 for a refused plan; a framework that could not be evaluated
 * 2 when it is one the service does not know (a usage mistake: a misspelt --framework or
 * compliance.yml entry), else 3; 1 when a gate failed; else 0.
 */
export function reviewExitCode(result: ReviewResult): ExitCode {
  const verdict = decideVerdict(result);
  // A dry run evaluated nothing: on a gated run (a pull or merge request) that is never a pass.
  if (result.status === 'dry-run' && result.policy.gateFromBaseBranch) return EXIT.gateFailed;
  if (verdict.status === 'refused') return EXIT.service;
  if (verdict.errors.length > 0) return verdict.errors.every((entry) => isUnknownFramework(entry.code)) ? EXIT.usage : EXIT.service;
  if (result.frameworks.some((framework) => !framework.passed)) return EXIT.gateFailed;
  if (result.sync?.run && !result.sync.run.dryRun && !result.sync.run.complete) return EXIT.service;
  return EXIT.ok;
}

/** The --json document of review and map: the review report (usable as a --baseline) plus the run. */
export function reviewJson(result: ReviewResult, exitCode: ExitCode, reportFiles: string[], baseline?: ReviewReport): Record<string, unknown> {
  return {
    ...result.report,
    status: result.status,
    verdict: decideVerdict(result, { baseline }),
    exitCode,
    mode: result.mode,
    tokensSpent: result.tokensSpent,
    reused: result.reused,
    estimate: result.estimate,
    budget: result.budget,
    sync: result.sync ? { counts: result.sync.plan.counts, plannedTokens: result.sync.plan.totalTokens, ...(result.sync.run ?? {}) } : null,
    frameworkErrors: result.frameworkErrors,
    frameworkUpdates: result.frameworkUpdates,
    drift: result.drift ?? null,
    gapPlan: result.gapPlan ?? null,
    reportFiles,
  };
}
