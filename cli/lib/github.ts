/**
 * Applying a gap-issue plan through the GitHub REST API (fetch; GITHUB_API_URL for GitHub
 * Enterprise). The token is sent only as a header and is registered as a secret, so it is never
 * printed.
 */
import type { ExistingIssue, GapIssuePlan } from '../../review/gapIssues.js';
import { ExternalServiceError } from './errors.js';

export interface GitHubTarget {
  token: string;
  /** owner/name */
  repository: string;
  apiUrl: string;
}

interface Answer {
  status: number;
  body: unknown;
  link: string | null;
}

async function request(target: GitHubTarget, method: string, url: string, body?: unknown): Promise<Answer> {
  let response: Response;
  try {
    response = await fetch(url.startsWith('http') ? url : `${target.apiUrl}${url}`, {
      method,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${target.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'compliance-cli',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
  } catch (error) {
    throw new ExternalServiceError('github_unreachable', `GitHub ${method} ${url}: ${(error as Error).message}`, 'Check GITHUB_API_URL and the network.');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message = (parsed as { message?: string } | undefined)?.message ?? text.slice(0, 200);
    const hint =
      response.status === 401 ? 'The token is invalid or expired.'
        : response.status === 403 || response.status === 404 ? 'The token needs issues: write on this repository (in Actions: permissions: issues: write).'
          : undefined;
    throw new ExternalServiceError(`github_${response.status}`, `GitHub ${method} ${url.replace(target.apiUrl, '')}: ${response.status} ${message}`, hint);
  }
  return { status: response.status, body: parsed, link: response.headers.get('link') };
}

function nextLink(link: string | null): string | undefined {
  return link?.split(',').map((part) => /<([^>]+)>;\s*rel="next"/.exec(part)?.[1]).find(Boolean);
}

/** Every issue (open and closed, pull requests left out) carrying `label`, following pagination. */
export async function listIssuesByLabel(target: GitHubTarget, label: string): Promise<ExistingIssue[]> {
  const issues: ExistingIssue[] = [];
  let url: string | undefined = `/repos/${target.repository}/issues?labels=${encodeURIComponent(label)}&state=all&per_page=100`;
  for (let page = 0; url && page < 100; page++) {
    const answer = await request(target, 'GET', url);
    for (const raw of (answer.body as Array<Record<string, unknown>>) ?? []) {
      if (raw.pull_request) continue;
      issues.push({
        number: raw.number as number,
        title: String(raw.title ?? ''),
        body: (raw.body as string | null) ?? null,
        state: raw.state === 'closed' ? 'closed' : 'open',
        labels: (raw.labels as ExistingIssue['labels']) ?? [],
      });
    }
    url = nextLink(answer.link);
  }
  return issues;
}

export interface AppliedPlan {
  created: Array<{ number: number; key: string; url: string | undefined }>;
  updated: Array<{ number: number; key: string; reopened: boolean }>;
  closed: Array<{ number: number; key: string }>;
}

export async function applyGapPlan(target: GitHubTarget, plan: GapIssuePlan, onProgress?: (line: string) => void): Promise<AppliedPlan> {
  const applied: AppliedPlan = { created: [], updated: [], closed: [] };
  const base = `/repos/${target.repository}/issues`;
  for (const draft of plan.create) {
    const answer = await request(target, 'POST', base, { title: draft.title, body: draft.body, labels: draft.labels, ...(draft.assignees.length ? { assignees: draft.assignees } : {}) });
    const created = answer.body as { number: number; html_url?: string };
    applied.created.push({ number: created.number, key: draft.key, url: created.html_url });
    onProgress?.(`created #${created.number} ${draft.title}`);
  }
  for (const draft of plan.update) {
    await request(target, 'PATCH', `${base}/${draft.number}`, { title: draft.title, body: draft.body, ...(draft.reopen ? { state: 'open' } : {}) });
    applied.updated.push({ number: draft.number, key: draft.key, reopened: draft.reopen });
    onProgress?.(`${draft.reopen ? 'reopened' : 'updated'} #${draft.number}`);
  }
  for (const entry of plan.close) {
    await request(target, 'POST', `${base}/${entry.number}/comments`, { body: entry.comment });
    await request(target, 'PATCH', `${base}/${entry.number}`, { state: 'closed', state_reason: entry.stateReason });
    applied.closed.push({ number: entry.number, key: entry.key });
    onProgress?.(`closed #${entry.number}`);
  }
  return applied;
}
