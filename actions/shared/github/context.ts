/**
 * What the run is about: the repository, the pull request (from the event or an input), whether it
 * comes from a fork, and links back to the run. Read from the runner's environment and event file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { InputError } from '../runtime/inputs.js';
import { isForkPullRequestPayload, type PullRequestHeads } from '../../../review/events.js';

export interface RepositoryRef {
  owner: string;
  repo: string;
}

export function currentRepository(): RepositoryRef {
  const full = process.env.GITHUB_REPOSITORY?.trim();
  const match = full ? /^([^/\s]+)\/([^/\s]+)$/.exec(full) : null;
  if (!match) {
    throw new InputError('GITHUB_REPOSITORY', `is ${full ? `not owner/name (${JSON.stringify(full)})` : 'not set'}`, 'The runner sets it; outside GitHub Actions set GITHUB_REPOSITORY=owner/name.');
  }
  return { owner: match[1] as string, repo: match[2] as string };
}

export function repositoryName(ref: RepositoryRef): string {
  return `${ref.owner}/${ref.repo}`;
}

interface PullRequestPayload extends PullRequestHeads {
  number?: number;
  base?: { ref?: string; repo?: { full_name?: string } };
}

let eventPayload: unknown;

/**
 * The webhook payload the runner wrote to GITHUB_EVENT_PATH (read as @actions/github's context
 * does, without loading Octokit); {} when there is none.
 */
function eventPayloadOf(): unknown {
  if (eventPayload === undefined) {
    const path = process.env.GITHUB_EVENT_PATH;
    eventPayload = path && existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) ?? {}) : {};
  }
  return eventPayload;
}

function eventPullRequest(): PullRequestPayload | undefined {
  const payload = eventPayloadOf() as { pull_request?: PullRequestPayload; issue?: { number?: number; pull_request?: unknown } };
  if (payload.pull_request && typeof payload.pull_request.number === 'number') return payload.pull_request;
  // issue_comment on a pull request
  if (payload.issue?.pull_request && typeof payload.issue.number === 'number') return { number: payload.issue.number };
  return undefined;
}

/** The pull request to report on: the `pull-request` input when given, else the triggering one. */
export function pullRequestNumber(override: number | undefined): number | undefined {
  return override ?? eventPullRequest()?.number;
}

/**
 * A pull request from a fork: GitHub gives it no secrets and a read-only GITHUB_TOKEN
 * (Dependabot's pull requests are treated the same way).
 */
export function isForkPullRequest(): boolean {
  return isForkPullRequestPayload(eventPullRequest(), process.env.GITHUB_REPOSITORY);
}

export function isDependabotRun(): boolean {
  return process.env.GITHUB_ACTOR === 'dependabot[bot]';
}

/** The link to this workflow run, when the runner says where it is. */
export function runUrl(): string | undefined {
  const server = process.env.GITHUB_SERVER_URL ?? 'https://github.com';
  const repository = process.env.GITHUB_REPOSITORY;
  const runId = process.env.GITHUB_RUN_ID;
  return repository && runId ? `${server}/${repository}/actions/runs/${runId}` : undefined;
}

/** The workspace: where the repository is checked out. */
export function workspaceRoot(): string {
  return process.env.GITHUB_WORKSPACE || process.cwd();
}

/**
 * The repository the run is in (GITHUB_REPOSITORY), the commit it checked out (GITHUB_SHA) and where
 * it is browsed: the report's evidence links, whatever compliance.yml calls the document set.
 */
export function currentRevision(): { runRepository?: string; commit?: string; serverUrl?: string } {
  const runRepository = process.env.GITHUB_REPOSITORY?.trim();
  const commit = process.env.GITHUB_SHA?.trim();
  const serverUrl = process.env.GITHUB_SERVER_URL?.trim();
  return {
    ...(runRepository && /^[^/\s]+\/[^/\s]+$/.test(runRepository) ? { runRepository } : {}),
    ...(commit && /^[0-9a-f]{40,64}$/i.test(commit) ? { commit } : {}),
    ...(serverUrl ? { serverUrl } : {}),
  };
}
