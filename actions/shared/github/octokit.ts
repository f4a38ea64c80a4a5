/**
 * The GitHub REST client: @actions/github's Octokit (REST methods, pagination, the runner's proxy
 * settings, GITHUB_API_URL for GitHub Enterprise Server) with the retry and throttling plugins, so
 * transient errors are retried and primary and secondary rate limits are waited out rather than
 * hammered. The token comes from the `github-token` input (default `${{ github.token }}`) or
 * GITHUB_TOKEN and is masked at once.
 */
import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import { textInput } from '../runtime/inputs.js';

export const GITHUB_TOKEN_INPUT = 'github-token';

export type GitHub = ReturnType<typeof getOctokit>;

/** Waits longer than this are not worth holding a runner for: the write is given up with a warning. */
const MAX_RATE_LIMIT_WAIT_SECONDS = 120;
const MAX_RATE_LIMIT_RETRIES = 2;

/** The token, masked; undefined when there is none. */
export function readGitHubToken(): string | undefined {
  const token = textInput(GITHUB_TOKEN_INPUT) ?? process.env.GITHUB_TOKEN?.trim();
  if (token) core.setSecret(token);
  return token || undefined;
}

export function createGitHub(token: string): GitHub {
  const onLimit = (kind: string) => (retryAfter: number, options: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const request = `${options.method ?? ''} ${options.url ?? ''}`.trim();
    if (retryCount < MAX_RATE_LIMIT_RETRIES && retryAfter <= MAX_RATE_LIMIT_WAIT_SECONDS) {
      core.info(`GitHub ${kind} rate limit on ${request}: retrying in ${retryAfter} s`);
      return true;
    }
    core.warning(`GitHub ${kind} rate limit on ${request}: giving up (retry after ${retryAfter} s)`);
    return false;
  };
  return getOctokit(
    token,
    {
      userAgent: 'compliance-github-action',
      throttle: { onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
      // Octokit's own log would print request failures we handle ourselves.
      log: { debug: core.debug, info: core.debug, warn: core.debug, error: core.debug },
    },
    retry,
    throttling,
  );
}
