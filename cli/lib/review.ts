/**
 * The review loop as the commands run it: read the inputs (reviewInputs.ts), connect, call review's
 * runReview or its map check with a progress display, and hand the result back for rendering.
 * `review`, `sync`, `map` and `gaps` are views of this one run with different parts switched on.
 */
import { readDeclarations } from '../../review/declarations.js';
import type { RepoFile } from '../../review/documents.js';
import type { GateConfiguration } from '../../review/gateConfig.js';
import { gateNotes } from '../../review/gateConfig.js';
import { writeRepoFile } from '../../review/node/files.js';
import { baselineThatCounts, runMapCheck } from '../../review/pullRequest.js';
import type { ReportFormat } from '../../review/publish.js';
import type { HistoryPoint } from '../../review/reportHistory.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import { runReview, type ReviewResult } from '../../review/review.js';
import type { Parsed } from './args.js';
import { today } from './format.js';
import { refuseKeylessForkPullRequest } from './gatedRun.js';
import type { Output } from './output.js';
import type { Repo } from './repo.js';
import { readReviewInputs, warnGate, type ReviewRunOptions } from './reviewInputs.js';
import { openSession, type Session } from './session.js';

export interface ReviewRun {
  result: ReviewResult;
  session: Session;
  files: RepoFile[];
  repo: Repo;
  /** --history's earlier reports and --formats, read and checked before anything was spent. */
  history: HistoryPoint[] | undefined;
  formats: readonly ReportFormat[];
  /** The --baseline report, when it is one: an `unchanged` map check carries its figures. */
  baselineReport: ReviewReport | undefined;
  /** What the gate the run was judged by says (gateNotes), for report.md. */
  gateNotes: string[];
  /** The frameworks the run's mapping cost lines price, in order (the itemised dry run). */
  mappedFrameworks: string[];
}

export async function executeReview(parsed: Parsed, out: Output, repo: Repo, options: ReviewRunOptions, files?: RepoFile[]): Promise<ReviewRun> {
  const inputs = await readReviewInputs(parsed, out, repo, options, files);
  const { policy, gate, baseline } = inputs;
  refuseKeylessForkPullRequest(parsed);
  const session = await openSession(parsed, out);
  try {
    const common = {
      today: today(),
      now: new Date().toISOString(),
      readDeclarations,
      ...inputs.common,
      onProgress: (event: { message: string }) => out.progress(event.message),
    };
    let result: ReviewResult;
    let judged: GateConfiguration;
    if (gate) {
      // On a gated run a cached baseline counts only once the service confirms it against the base commit.
      const counted = await baselineThatCounts(session.client, baseline, inputs.base, undefined);
      if (counted.rejected) out.warn(counted.rejected);
      result = await runReview(session.client, {
        ...common,
        config: inputs.config,
        files: inputs.documents,
        event: policy.event,
        sync: options.sync ?? 'run',
        failOn: gate.failOn,
        ...(counted.value ? { baseline: counted.value.gapKeys } : {}),
      });
      out.done();
      judged = gate;
    } else {
      const check = await runMapCheck(session.client, {
        policy,
        head: { config: options.config, text: repo.configText ?? '', path: repo.configPath },
        base: inputs.base,
        request: inputs.request,
        files: inputs.documents,
        ...(baseline ? { baseline } : {}),
        mappingStore: inputs.stored?.text,
        review: common,
      });
      out.done();
      warnGate(out, policy, check.gate);
      if (check.baselineRejected) out.warn(check.baselineRejected);
      if (check.mappingStore !== undefined) await writeRepoFile(repo.root, inputs.storePath, check.mappingStore);
      result = check.result;
      judged = check.gate;
    }
    // A dry run is never refused (review/ decides): a plan the balance or --max-tokens would refuse is
    // a dry run whose budget says so (exit 0, per-file plan and shortfall).
    if (result.status === 'dry-run' && policy.gateFromBaseBranch) out.warn(`--dry-run evaluates nothing: on a ${policy.changeRequest} the check is not evaluated, so not passed (exit 1)`);
    return {
      result,
      session,
      files: inputs.documents,
      repo,
      history: inputs.history,
      formats: inputs.formats,
      baselineReport: baseline?.report,
      gateNotes: gateNotes(judged, policy.changeRequest),
      mappedFrameworks: judged.config.frameworks.map((framework) => framework.framework),
    };
  } catch (error) {
    out.done();
    await session.close();
    throw error;
  }
}
