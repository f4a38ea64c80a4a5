/**
 * Writes GitHub refuses. A 403 (not a rate limit) or 404 on a comment or issue write means the
 * token may not write there: a pull request from a fork (read-only token), or a workflow whose
 * `permissions:` leave the scope out. That is a warning naming the missing permission; it never
 * fails the step or hides the result, which is already in the job summary.
 */
import { log } from '../runtime/log.js';
import { describeGitHubError } from '../../../review/githubPort.js';
import { isForkPullRequest } from './context.js';

type WritePermission = 'issues: write' | 'pull-requests: write';

// One classification of GitHub errors for every surface (review/githubPort.ts).
export { describeGitHubError, gitHubStatus as httpStatus, isRefusedGitHubWrite as isRefusedWrite } from '../../../review/githubPort.js';

export class RefusedWrite extends Error {
  readonly permission: WritePermission;

  constructor(what: string, permission: WritePermission, cause: unknown) {
    super(refusedWriteMessage(what, permission, cause), { cause });
    this.name = 'RefusedWrite';
    this.permission = permission;
  }
}

function refusedWriteMessage(what: string, permission: WritePermission, cause: unknown): string {
  const why = isForkPullRequest()
    ? 'this run is for a pull request from a fork, whose token is read-only'
    : `the token lacks \`${permission}\` (add \`permissions: ${permission.replace(': ', ': ')}\` to the job, or pass a token that has it as github-token)`;
  return `Could not ${what}: GitHub refused the write (${describeGitHubError(cause)}); ${why}. The result is in the job summary and the step's outputs.`;
}

export function warnRefused(refused: RefusedWrite): void {
  log.warning(refused.message, { title: `Missing permission: ${refused.permission}` });
}
