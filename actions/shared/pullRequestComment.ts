/**
 * The report as one sticky pull request comment. `comment`:
 * - `auto` (default): create the comment when there is something to look at (the gate failed, or a
 *   gap is new against the baseline, or there is no baseline and gaps remain); an existing comment
 *   is updated on every run, so it never shows a stale result;
 * - `always`: create or update on every pull request run;
 * - `never`: no comment.
 * Outside pull requests (push, schedule) nothing is commented unless `pull-request` names one.
 */
import { log } from './runtime/log.js';
import { commentTarget, type EventPolicy, type ReviewReport } from '../../review/index.js';
import { currentRepository, pullRequestNumber, runUrl } from './github/context.js';
import { createGitHub } from './github/octokit.js';
import { RefusedWrite, warnRefused } from './github/permissions.js';
import { commentMarker, upsertStickyComment } from './github/stickyComment.js';
import { choiceInput, numberInput, textInput } from './runtime/inputs.js';
import type { Baseline } from './reportInputs.js';
import { renderComment } from './reportRender.js';

const COMMENT_MODES = ['auto', 'always', 'never'] as const;
type CommentMode = (typeof COMMENT_MODES)[number];

interface CommentInputs {
  mode: CommentMode;
  pullRequest: number | undefined;
  /** Distinguishes several reports on one pull request (one comment each). */
  id: string;
}

/** The comment inputs; the event decides which pull request may be commented on (a pull request run: only its own). */
export function readCommentInputs(policy: EventPolicy): CommentInputs {
  const requested = numberInput('pull-request', { min: 1, integer: true });
  const target = commentTarget(policy, pullRequestNumber(requested));
  if (target.refused) log.warning(target.refused);
  return {
    mode: choiceInput('comment', COMMENT_MODES, 'auto'),
    pullRequest: target.pullRequest,
    id: textInput('comment-id') ?? 'map',
  };
}

function worthAComment(report: ReviewReport): boolean {
  return !report.passed || report.frameworks.some((result) => result.gaps.some((gap) => !gap.waived && gap.isNew !== false));
}

/** Creates or updates the comment; returns its URL. A refused write is a warning, never a failure. */
export async function publishReportComment(
  report: ReviewReport | undefined,
  inputs: CommentInputs,
  context: { githubToken: string | undefined; baseline: Baseline | undefined; notes?: string; gateNotes?: readonly string[]; body?: string; createIfMissing?: boolean },
): Promise<string | undefined> {
  if (inputs.mode === 'never') return undefined;
  if (inputs.pullRequest === undefined) {
    log.info('Not a pull request run: no comment (pass pull-request to comment on one).');
    return undefined;
  }
  if (!context.githubToken) {
    log.warning('No GitHub token: the pull request comment was skipped. Pass github-token (the default is the workflow token).');
    return undefined;
  }
  const github = await createGitHub(context.githubToken);
  try {
    const result = await upsertStickyComment(github, {
      repository: currentRepository(),
      issueNumber: inputs.pullRequest,
      marker: commentMarker(inputs.id),
      body: context.body ?? `${report ? renderComment(report, { baseline: context.baseline, runUrl: runUrl(), ...(context.gateNotes ? { gateNotes: context.gateNotes } : {}) }) : ''}${context.notes ? `\n${context.notes}\n` : ''}`,
      // A refusal or a gate change is always worth one; otherwise `auto` waits for a failure or a new gap.
      createIfMissing: inputs.mode === 'always' || context.createIfMissing === true || (report !== undefined && worthAComment(report)),
    });
    if (result.action === 'not-needed') {
      log.info('The gate passed with nothing new: no comment created (comment: always creates one on every run).');
      return undefined;
    }
    log.info(`Pull request comment ${result.action}: ${result.url}`);
    return result.url;
  } catch (error) {
    if (error instanceof RefusedWrite) {
      warnRefused(error);
      return undefined;
    }
    // Any other GitHub failure must not hide the result or decide the gate either.
    log.warning(`Could not write the pull request comment: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}
