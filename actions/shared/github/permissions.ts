/**
 * Writes GitHub refuses. A 403 (not a rate limit) or 404 on a comment or issue write means the
 * token may not write there: a pull request from a fork (read-only token), or a workflow whose
 * `permissions:` leave the scope out. That is a warning naming the missing permission; it never
 * fails the step or hides the result, which is already in the job summary.
 */
import * as core from '@actions/core';
import { isForkPullRequest } from './context.js';

export type WritePermission = 'issues: write' | 'pull-requests: write';

interface HttpError {
  status: number;
  message: string;
  response?: { headers?: Record<string, string | number | undefined> };
}

function asHttpError(error: unknown): HttpError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, message } = error as { status?: unknown; message?: unknown };
  return typeof status === 'number' && typeof message === 'string' ? (error as HttpError) : undefined;
}

export function httpStatus(error: unknown): number | undefined {
  return asHttpError(error)?.status;
}

/** A write refused for lack of permission (not a rate limit, which the throttling plugin handles). */
export function isRefusedWrite(error: unknown): boolean {
  const http = asHttpError(error);
  if (!http) return false;
  if (http.status === 404) return true;
  if (http.status !== 403) return false;
  const remaining = http.response?.headers?.['x-ratelimit-remaining'];
  return String(remaining) !== '0' && !/rate limit/i.test(http.message);
}

/** The GitHub message of an error, first line only and without any URL query (no token ever is in one). */
export function describeGitHubError(error: unknown): string {
  const http = asHttpError(error);
  const message = (http?.message ?? (error instanceof Error ? error.message : String(error))).split('\n')[0]?.trim() ?? '';
  return http ? `${http.status} ${message}` : message;
}

export class RefusedWrite extends Error {
  readonly permission: WritePermission;

  constructor(what: string, permission: WritePermission, cause: unknown) {
    super(refusedWriteMessage(what, permission, cause), { cause });
    this.name = 'RefusedWrite';
    this.permission = permission;
  }
}

export function refusedWriteMessage(what: string, permission: WritePermission, cause: unknown): string {
  const why = isForkPullRequest()
    ? 'this run is for a pull request from a fork, whose token is read-only'
    : `the token lacks \`${permission}\` (add \`permissions: ${permission.replace(': ', ': ')}\` to the job, or pass a token that has it as github-token)`;
  return `Could not ${what}: GitHub refused the write (${describeGitHubError(cause)}); ${why}. The result is in the job summary and the step's outputs.`;
}

export function warnRefused(refused: RefusedWrite): void {
  core.warning(refused.message, { title: `Missing permission: ${refused.permission}` });
}
