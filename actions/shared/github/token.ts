/**
 * The GitHub token: the `github-token` input (default `${{ github.token }}`) or GITHUB_TOKEN,
 * masked at once. Kept apart from octokit.ts so that reading it loads no GitHub client.
 */
import * as core from '@actions/core';
import { textInput } from '../runtime/inputs.js';

export const GITHUB_TOKEN_INPUT = 'github-token';

/** The token, masked; undefined when there is none. */
export function readGitHubToken(): string | undefined {
  const token = textInput(GITHUB_TOKEN_INPUT) ?? process.env.GITHUB_TOKEN?.trim();
  if (token) core.setSecret(token);
  return token || undefined;
}
