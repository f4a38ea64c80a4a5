/**
 * `compliance gaps --github`: the review loop's GitHub port through the one Octokit adapter
 * (review/node/octokit.ts, shared with the actions: pagination, retry, throttling, no duplicate
 * after a lost answer). GITHUB_API_URL for GitHub Enterprise. The token travels only in the
 * Authorization header and is registered as a secret by the caller, so it is never printed.
 */
import { describeGitHubError, gitHubStatus, type GitHubIssuesPort } from '../../review/githubPort.js';
import { createGitHub, gitHubIssues, parseRepository } from '../../review/node/octokit.js';
import { ExternalServiceError, UsageError } from './errors.js';
import type { Output } from './output.js';

export interface GitHubTarget {
  token: string;
  /** owner/name */
  repository: string;
  apiUrl: string;
}

export const ISSUES_WRITE_HINT = 'The token needs issues: write on this repository (in Actions: permissions: issues: write).';

export async function connectGitHub(target: GitHubTarget, out: Output): Promise<GitHubIssuesPort> {
  const repository = parseRepository(target.repository);
  if (!repository) throw new UsageError(`--repo ${JSON.stringify(target.repository)} is not owner/name`, 'Pass --repo owner/name.');
  const github = await createGitHub({
    token: target.token,
    baseUrl: target.apiUrl,
    userAgent: 'compliance-cli',
    log: { debug: () => {}, info: (line) => out.notice(line), warning: (line) => out.warn(line) },
  });
  return gitHubIssues(github, repository);
}

/** A GitHub error as the CLI reports it: exit 3, `github_<status>`, what to do. */
export function gitHubFailure(error: unknown, what: string): ExternalServiceError {
  const status = gitHubStatus(error);
  const hint =
    status === 401 ? 'The token is invalid or expired.'
      : status === 403 || status === 404 ? ISSUES_WRITE_HINT
        : status === undefined ? 'Check GITHUB_API_URL and the network.' : undefined;
  return new ExternalServiceError(status === undefined ? 'github_unreachable' : `github_${status}`, `GitHub: could not ${what}: ${describeGitHubError(error)}`, hint);
}
