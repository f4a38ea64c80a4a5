/**
 * One sticky pull request comment per report: found again by the hidden marker on its first line,
 * created when missing, edited in place when its body changed, left alone when it did not. A create
 * is never blindly retried: after a failure without an answer the comments are listed again, so a
 * re-run or a retry never leaves a second comment.
 */
import { log } from '../runtime/log.js';
import type { RepositoryRef } from './context.js';
import type { GitHub } from './octokit.js';
import { httpStatus, isRefusedWrite, RefusedWrite } from './permissions.js';

/** GitHub refuses comment bodies over 65,536 characters. */
export const MAX_COMMENT_CHARS = 65_536;

export function commentMarker(id: string): string {
  return `<!-- compliance-report:${id.replace(/[^A-Za-z0-9_.:/-]/g, '-')} -->`;
}

interface StickyCommentRequest {
  repository: RepositoryRef;
  issueNumber: number;
  /** From commentMarker: the comment's first line. */
  marker: string;
  /** The body without the marker. */
  body: string;
  /** When no comment exists yet: create one (true) or leave it (false). */
  createIfMissing: boolean;
}

type StickyCommentResult =
  | { action: 'created' | 'updated' | 'unchanged'; id: number; url: string }
  | { action: 'not-needed' };

interface CommentLike {
  id: number;
  body?: string | null;
  html_url: string;
}

const isOurs = (marker: string) => (comment: CommentLike) => (comment.body ?? '').split('\n', 1)[0]?.trim() === marker;

async function findComments(github: GitHub, request: StickyCommentRequest): Promise<CommentLike[]> {
  const comments = await github.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
    ...request.repository,
    issue_number: request.issueNumber,
    per_page: 100,
  });
  return comments.filter(isOurs(request.marker)).sort((a, b) => a.id - b.id);
}

/** The route types allow a bigint id (ids past 2^53); comment ids are far below it. */
const written = (action: 'created' | 'updated', data: { id: number | bigint; html_url: string }): StickyCommentResult => ({ action, id: Number(data.id), url: data.html_url });

/** Errors with no answer from GitHub, or a server fault: the write may have happened. */
function mayHaveLanded(error: unknown): boolean {
  const status = httpStatus(error);
  return status === undefined || status >= 500;
}

export async function upsertStickyComment(github: GitHub, request: StickyCommentRequest): Promise<StickyCommentResult> {
  const body = `${request.marker}\n${request.body}`;
  const permission = 'pull-requests: write' as const;
  try {
    const [first, ...extra] = await findComments(github, request);
    if (first) {
      // Copies left by an earlier race are ours (same marker): keep one.
      for (const duplicate of extra) {
        await github.request('DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...request.repository, comment_id: duplicate.id }).catch((error: unknown) => {
          log.debug(`could not delete duplicate comment ${duplicate.id}: ${String(error)}`);
        });
      }
      if ((first.body ?? '') === body) return { action: 'unchanged', id: first.id, url: first.html_url };
      const { data } = await github.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...request.repository, comment_id: first.id, body });
      return written('updated', data);
    }
    if (!request.createIfMissing) return { action: 'not-needed' };
    const create = () =>
      github.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...request.repository, issue_number: request.issueNumber, body, request: { retries: 0 } });
    try {
      return written('created', (await create()).data);
    } catch (error) {
      if (!mayHaveLanded(error)) throw error;
      const [landed] = await findComments(github, request);
      if (landed) return { action: 'created', id: landed.id, url: landed.html_url };
      return written('created', (await create()).data);
    }
  } catch (error) {
    if (isRefusedWrite(error)) throw new RefusedWrite(`write the pull request comment on #${request.issueNumber}`, permission, error);
    throw error;
  }
}
