/**
 * The actions' GitHub client: the one adapter (review/node/octokit.ts: Octokit with routes,
 * pagination, retry and throttling, over the compliance client's transport, api/node/transport.ts),
 * so a bundle carries one HTTP stack.
 * GITHUB_API_URL is honoured (GitHub Enterprise Server). Octokit is imported on first use.
 */
import { log } from '../runtime/log.js';
import { createGitHub as createAdapter, type GitHub } from '../../../review/node/octokit.js';

export type { GitHub } from '../../../review/node/octokit.js';

export function createGitHub(token: string): Promise<GitHub> {
  return createAdapter({
    token,
    baseUrl: process.env.GITHUB_API_URL || undefined,
    userAgent: 'compliance-github-action',
    log: { debug: log.debug, info: log.info, warning: log.warning },
  });
}
