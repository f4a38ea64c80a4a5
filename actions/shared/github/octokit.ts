/**
 * The GitHub REST client: Octokit core with the REST methods, pagination, and the retry and
 * throttling plugins, so transient errors are retried and primary and secondary rate limits are
 * waited out rather than hammered. GITHUB_API_URL is honoured (GitHub Enterprise Server).
 *
 * Requests go through the compliance client's transport (runtime/transport.ts: node:http(s),
 * HTTPS_PROXY / HTTP_PROXY / NO_PROXY honoured), so a bundle carries one HTTP stack. The Octokit
 * modules are imported on first use: runs that never call GitHub do not load them.
 */
import * as core from '@actions/core';
import type { Octokit } from '@octokit/core';
import type { PaginateInterface } from '@octokit/plugin-paginate-rest';
import type { Api } from '@octokit/plugin-rest-endpoint-methods';
import { actionTransport, transportFetch } from '../runtime/transport.js';

export { GITHUB_TOKEN_INPUT, readGitHubToken } from './token.js';

export type GitHub = Octokit & Api & { paginate: PaginateInterface };

/** Waits longer than this are not worth holding a runner for: the write is given up with a warning. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 120;
const MAX_RATE_LIMIT_RETRIES = 2;

export async function createGitHub(token: string): Promise<GitHub> {
  const [{ Octokit }, { restEndpointMethods }, { paginateRest }, { retry }, { throttling }] = await Promise.all([
    import('@octokit/core'),
    import('@octokit/plugin-rest-endpoint-methods'),
    import('@octokit/plugin-paginate-rest'),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
  ]);
  const onLimit = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const request = `${options.method ?? ''} ${options.url ?? ''}`.trim();
    if (retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS) {
      core.info(`GitHub ${kind} rate limit on ${request}: retrying in ${retryAfter} s`);
      return true;
    }
    core.warning(`GitHub ${kind} rate limit on ${request}: giving up (retry after ${retryAfter} s)`);
    return false;
  };
  const GitHubClient = Octokit.plugin(restEndpointMethods, paginateRest, retry, throttling);
  return new GitHubClient({
    auth: token,
    baseUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
    userAgent: 'compliance-github-action',
    request: { fetch: transportFetch(actionTransport()) },
    throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
    // Octokit's own log would print request failures we handle ourselves.
    log: { debug: core.debug, info: core.debug, warn: core.debug, error: core.debug },
  }) as unknown as GitHub;
}
