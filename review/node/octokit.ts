/**
 * The one GitHub adapter: Octokit (core and pagination) plus the retry and throttling plugins, so
 * transient errors are retried and primary and secondary rate limits are waited out rather than
 * hammered. The CLI (`gaps --github`) and the actions both use it, and every request goes through
 * the one Node transport (api/node/transport.ts: node:http(s) with HTTPS_PROXY / HTTP_PROXY /
 * NO_PROXY honoured), never Node's own fetch, which ignores the proxy variables.
 *
 * Not exported from review/node/index.ts: the Octokit modules are imported on first use, so
 * surfaces that never call GitHub neither bundle nor load them.
 */
import type { Octokit } from '@octokit/core';
import type { PaginateInterface } from '@octokit/plugin-paginate-rest';
import type { RetryOptions } from '@octokit/plugin-retry';
import type { ThrottlingOptions } from '@octokit/plugin-throttling';
import { sharedNodeTransport, transportFetch } from '../../api/node/transport.js';
import { gitHubStatus, type GitHubIssueRef, type GitHubIssuesPort, type ListedIssue } from '../githubPort.js';

/**
 * Endpoints are called by route (`github.request('GET /repos/{owner}/{repo}/issues', …)`), typed
 * by @octokit/types: the REST-methods plugin is a table of every GitHub endpoint (82 kB of each
 * bundle to compile at start-up) for the few routes the review loop uses.
 */
export type GitHub = Octokit & { paginate: PaginateInterface };

interface RepositoryRef {
  owner: string;
  repo: string;
}

export interface GitHubLog {
  debug(message: string): void;
  info(message: string): void;
  warning(message: string): void;
}

interface CreateGitHubOptions {
  token: string;
  /** GITHUB_API_URL; https://api.github.com by default. */
  baseUrl?: string;
  userAgent: string;
  log?: GitHubLog;
  /** Rate-limit waits longer than this are given up (the write fails with a warning). */
  maxRateLimitWaitSeconds?: number;
  maxRateLimitRetries?: number;
  /**
   * Octokit's throttling settings beside ours (the limit handlers stay ours): its pauses between
   * writes (`write`, `notifications` groups) and `retryAfterBaseValue`, the ms per second of a
   * retry-after. Tests pass short ones rather than wait GitHub's real pacing.
   */
  throttle?: Omit<Partial<ThrottlingOptions>, 'onRateLimit' | 'onSecondaryRateLimit' | 'enabled'>;
  /** Octokit's retry settings (back-off base `retryAfterBaseValue`, `retries`, `doNotRetry`). */
  retry?: RetryOptions;
}

const silent: GitHubLog = { debug: () => {}, info: () => {}, warning: () => {} };

export async function createGitHub(options: CreateGitHubOptions): Promise<GitHub> {
  const [{ Octokit }, { paginateRest }, { retry }, { throttling }] = await Promise.all([
    import('@octokit/core'),
    import('@octokit/plugin-paginate-rest'),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
  ]);
  const log = options.log ?? silent;
  const maxWait = options.maxRateLimitWaitSeconds ?? 120;
  const maxRetries = options.maxRateLimitRetries ?? 2;
  const onLimit = (kind: string) => (retryAfter: number, request: { method?: string; url?: string }, _octokit: unknown, retryCount: number) => {
    const what = `${request.method ?? ''} ${request.url ?? ''}`.trim();
    if (retryCount < maxRetries && retryAfter <= maxWait) {
      log.info(`GitHub ${kind} rate limit on ${what}: retrying in ${retryAfter} s`);
      return true;
    }
    log.warning(`GitHub ${kind} rate limit on ${what}: giving up (retry after ${retryAfter} s)`);
    return false;
  };
  const GitHubClient = Octokit.plugin(paginateRest, retry, throttling);
  return new GitHubClient({
    auth: options.token,
    baseUrl: (options.baseUrl || 'https://api.github.com').replace(/\/+$/, ''),
    userAgent: options.userAgent,
    request: { fetch: transportFetch(sharedNodeTransport()) },
    throttle: { ...options.throttle, onRateLimit: onLimit('primary'), onSecondaryRateLimit: onLimit('secondary') },
    ...(options.retry ? { retry: options.retry } : {}),
    // Octokit's own log would print request failures the callers handle themselves.
    log: { debug: log.debug, info: log.debug, warn: log.debug, error: log.debug },
  }) as unknown as GitHub;
}

const LABEL_COLOR = 'd93f0b';
const LABEL_DESCRIPTION = 'Opened by the compliance review loop';

/** The review loop's GitHub port (review/githubPort.ts) on one repository. */
export function gitHubIssues(github: GitHub, repository: RepositoryRef): GitHubIssuesPort {
  const ref = (data: { number: number; html_url: string }): GitHubIssueRef => ({ number: data.number, url: data.html_url });
  return {
    async listIssues(label) {
      const items = await github.paginate('GET /repos/{owner}/{repo}/issues', { ...repository, labels: label, state: 'all', per_page: 100 });
      return items
        .filter((item) => !item.pull_request)
        .map((item): ListedIssue => ({
          number: item.number,
          title: item.title,
          body: item.body,
          state: item.state === 'closed' ? 'closed' : 'open',
          labels: item.labels.map((entry) => (typeof entry === 'string' ? entry : { name: entry.name ?? null })),
          url: item.html_url,
        }));
    },
    async createLabel(name) {
      // Reading first keeps settled runs free of failing writes (they count toward secondary limits).
      try {
        await github.request('GET /repos/{owner}/{repo}/labels/{name}', { ...repository, name });
        return;
      } catch (error) {
        if (gitHubStatus(error) !== 404) throw error;
      }
      try {
        await github.request('POST /repos/{owner}/{repo}/labels', { ...repository, name, color: LABEL_COLOR, description: LABEL_DESCRIPTION });
      } catch (error) {
        // 422 already_exists: another run created it meanwhile.
        if (gitHubStatus(error) !== 422) throw error;
      }
    },
    async createIssue(draft) {
      const { data } = await github.request('POST /repos/{owner}/{repo}/issues', {
        ...repository,
        title: draft.title,
        body: draft.body,
        labels: draft.labels,
        ...(draft.assignees.length ? { assignees: draft.assignees } : {}),
        request: { retries: 0 },
      });
      return ref(data);
    },
    async updateIssue(number, patch) {
      const { data } = await github.request('PATCH /repos/{owner}/{repo}/issues/{issue_number}', {
        ...repository,
        issue_number: number,
        ...(patch.title !== undefined ? { title: patch.title } : {}),
        ...(patch.body !== undefined ? { body: patch.body } : {}),
        ...(patch.state ? { state: patch.state } : {}),
        ...(patch.stateReason ? { state_reason: patch.stateReason } : {}),
      });
      return ref(data);
    },
    async comment(number, body) {
      await github.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...repository, issue_number: number, body });
    },
  };
}

/** `owner/name` as a RepositoryRef; undefined when it is not that shape. */
export function parseRepository(full: string | undefined): RepositoryRef | undefined {
  const match = full ? /^([^/\s]+)\/([^/\s]+)$/.exec(full.trim()) : null;
  return match ? { owner: match[1] as string, repo: match[2] as string } : undefined;
}
