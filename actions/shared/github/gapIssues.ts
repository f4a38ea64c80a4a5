/**
 * The actions' side of gap issues: the one implementation (review/githubPort.ts, applied through
 * the one Octokit adapter, review/node/octokit.ts) with the actions' warnings and refusal type.
 */
import { log } from '../runtime/log.js';
import type { GapIssuePlan } from '../../../review/gapIssues.js';
import { applyGapIssuePlan as applyPlan, type AppliedGapIssues as Applied, type ListedIssue } from '../../../review/githubPort.js';
import { gitHubIssues } from '../../../review/node/octokit.js';
import type { RepositoryRef } from './context.js';
import type { GitHub } from './octokit.js';
import { RefusedWrite } from './permissions.js';


export type AppliedGapIssues = Omit<Applied, 'refused'> & { refused: RefusedWrite | undefined };

/** Every issue (not pull request) carrying `label`, open and closed. */
export function listGapIssues(github: GitHub, repository: RepositoryRef, label: string): Promise<ListedIssue[]> {
  return gitHubIssues(github, repository).listIssues(label);
}

export async function applyGapIssuePlan(github: GitHub, repository: RepositoryRef, plan: GapIssuePlan, options: { label: string }): Promise<AppliedGapIssues> {
  const applied = await applyPlan(gitHubIssues(github, repository), plan, {
    label: options.label,
    onFailure: (what, message) => log.warning(`Could not ${what}: ${message}`),
  });
  const { refused } = applied;
  return { ...applied, refused: refused && new RefusedWrite(refused.what, refused.permission, refused.error) };
}
