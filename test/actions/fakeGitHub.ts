/**
 * A local fake of the GitHub REST endpoints the actions use (issues, labels, issue comments, pulls),
 * on loopback. It keeps state like GitHub does (issue numbers shared with pull requests, labels,
 * state_reason), paginates with Link headers (a small page size, so pagination is exercised),
 * checks the token, records every request, and can refuse writes the way GitHub does for a
 * read-only token (403 "Resource not accessible by integration").
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeLabel {
  name: string;
  color: string;
  description: string | null;
}

export interface FakeIssue {
  number: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  state_reason: string | null;
  labels: string[];
  assignees: string[];
  isPullRequest: boolean;
}

export interface FakeComment {
  id: number;
  issueNumber: number;
  body: string;
  login: string;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  authorization: string | undefined;
}

export interface FakeGitHubOptions {
  token: string;
  /** owner/name served. */
  repository: string;
  /** Page size cap: per_page above it is lowered, as GitHub caps at 100. */
  pageSize?: number;
}

export class FakeGitHub {
  readonly requests: RecordedRequest[] = [];
  readonly issues = new Map<number, FakeIssue>();
  readonly comments = new Map<number, FakeComment>();
  readonly labels = new Map<string, FakeLabel>();
  /** Status answered to every write (POST/PATCH/DELETE) while set: 403 for a read-only token. */
  refuseWrites: 403 | 404 | undefined;
  /** Creates (issues, comments) that are carried out but answered 502, as when a response is lost. */
  lostCreateResponses = 0;
  #nextNumber = 1;
  #nextCommentId = 1000;
  #server = createServer((request, response) => void this.#handle(request, response));
  url = '';

  constructor(readonly options: FakeGitHubOptions) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** A pull request (it takes an issue number, as on GitHub). */
  addPullRequest(title = 'Update policies'): number {
    const number = this.#nextNumber++;
    this.issues.set(number, { number, title, body: '', state: 'open', state_reason: null, labels: [], assignees: [], isPullRequest: true });
    return number;
  }

  addComment(issueNumber: number, body: string, login = 'someone'): FakeComment {
    const comment = { id: this.#nextCommentId++, issueNumber, body, login };
    this.comments.set(comment.id, comment);
    return comment;
  }

  commentsOn(issueNumber: number): FakeComment[] {
    return [...this.comments.values()].filter((comment) => comment.issueNumber === issueNumber);
  }

  /** Issues, not pull requests. */
  issueList(): FakeIssue[] {
    return [...this.issues.values()].filter((issue) => !issue.isPullRequest);
  }

  writes(): RecordedRequest[] {
    return this.requests.filter((request) => request.method !== 'GET');
  }

  #base(): string {
    return `/repos/${this.options.repository}`;
  }

  #issueJson(issue: FakeIssue) {
    const html = `https://github.example/${this.options.repository}/${issue.isPullRequest ? 'pull' : 'issues'}/${issue.number}`;
    return {
      id: 100_000 + issue.number,
      number: issue.number,
      title: issue.title,
      body: issue.body,
      state: issue.state,
      state_reason: issue.state_reason,
      labels: issue.labels.map((name) => ({ name, color: this.labels.get(name)?.color ?? 'ededed' })),
      assignees: issue.assignees.map((login) => ({ login })),
      html_url: html,
      user: { login: 'github-actions[bot]', type: 'Bot' },
      ...(issue.isPullRequest ? { pull_request: { url: `${this.url}${this.#base()}/pulls/${issue.number}` } } : {}),
    };
  }

  #commentJson(comment: FakeComment) {
    return {
      id: comment.id,
      body: comment.body,
      html_url: `https://github.example/${this.options.repository}/issues/${comment.issueNumber}#issuecomment-${comment.id}`,
      user: { login: comment.login, type: comment.login.endsWith('[bot]') ? 'Bot' : 'User' },
    };
  }

  #page<T>(items: T[], url: URL, response: ServerResponse): T[] {
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30), this.options.pageSize ?? 100);
    const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
    const last = Math.max(1, Math.ceil(items.length / perPage));
    const link = (n: number, rel: string) => {
      const next = new URL(url.toString());
      next.searchParams.set('page', String(n));
      next.searchParams.set('per_page', String(perPage));
      return `<${next.toString()}>; rel="${rel}"`;
    };
    const links = [];
    if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
    if (page > 1) links.push(link(1, 'first'), link(page - 1, 'prev'));
    if (links.length) response.setHeader('link', links.join(', '));
    return items.slice((page - 1) * perPage, page * perPage);
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const url = new URL(request.url ?? '/', this.url);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const method = request.method ?? 'GET';
    this.requests.push({ method, path: url.pathname, query: url.searchParams, body, authorization: request.headers.authorization });
    const send = (status: number, json: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '4999', 'x-ratelimit-limit': '5000' });
      response.end(json === undefined ? '' : JSON.stringify(json));
    };
    // GitHub takes a token under either scheme: `token` (Octokit, the actions) or `Bearer` (the CLI).
    if (request.headers.authorization !== `token ${this.options.token}` && request.headers.authorization !== `Bearer ${this.options.token}`) {
      send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      return;
    }
    if (method !== 'GET' && this.refuseWrites) {
      send(this.refuseWrites, { message: this.refuseWrites === 403 ? 'Resource not accessible by integration' : 'Not Found', documentation_url: 'https://docs.github.com/rest', status: String(this.refuseWrites) });
      return;
    }
    const base = this.#base();
    if (!url.pathname.startsWith(`${base}/`)) return send(404, { message: 'Not Found' });
    const rest = url.pathname.slice(base.length);
    const input = (body ?? {}) as Record<string, unknown>;
    let match: RegExpExecArray | null;

    if (rest === '/issues' && method === 'GET') {
      const wanted = (url.searchParams.get('labels') ?? '').split(',').map((label) => label.trim()).filter(Boolean);
      const state = url.searchParams.get('state') ?? 'open';
      const items = [...this.issues.values()]
        .filter((issue) => state === 'all' || issue.state === state)
        .filter((issue) => wanted.every((label) => issue.labels.includes(label)))
        .sort((a, b) => b.number - a.number)
        .map((issue) => this.#issueJson(issue));
      return send(200, this.#page(items, url, response));
    }
    if (rest === '/issues' && method === 'POST') {
      if (typeof input.title !== 'string' || input.title === '') return send(422, { message: 'Validation Failed' });
      const labels = ((input.labels as string[] | undefined) ?? []).map(String);
      for (const name of labels) if (!this.labels.has(name)) this.labels.set(name, { name, color: 'ededed', description: null });
      const issue: FakeIssue = {
        number: this.#nextNumber++,
        title: input.title,
        body: typeof input.body === 'string' ? input.body : null,
        state: 'open',
        state_reason: null,
        labels,
        assignees: ((input.assignees as string[] | undefined) ?? []).map(String),
        isPullRequest: false,
      };
      this.issues.set(issue.number, issue);
      if (this.lostCreateResponses > 0 && this.lostCreateResponses--) return send(502, { message: 'Server Error' });
      return send(201, this.#issueJson(issue));
    }
    if ((match = /^\/issues\/(\d+)$/.exec(rest))) {
      const issue = this.issues.get(Number(match[1]));
      if (!issue) return send(404, { message: 'Not Found' });
      if (method === 'GET') return send(200, this.#issueJson(issue));
      if (method === 'PATCH') {
        if (typeof input.title === 'string') issue.title = input.title;
        if (typeof input.body === 'string') issue.body = input.body;
        if (input.state === 'closed') {
          issue.state = 'closed';
          issue.state_reason = typeof input.state_reason === 'string' ? input.state_reason : 'completed';
        } else if (input.state === 'open') {
          issue.state = 'open';
          issue.state_reason = 'reopened';
        }
        if (Array.isArray(input.labels)) issue.labels = input.labels.map(String);
        return send(200, this.#issueJson(issue));
      }
    }
    if ((match = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      const number = Number(match[1]);
      if (!this.issues.has(number)) return send(404, { message: 'Not Found' });
      if (method === 'GET') return send(200, this.#page(this.commentsOn(number).map((comment) => this.#commentJson(comment)), url, response));
      if (method === 'POST') {
        if (typeof input.body !== 'string' || input.body === '') return send(422, { message: 'Validation Failed' });
        const comment = this.addComment(number, input.body, 'github-actions[bot]');
        if (this.lostCreateResponses > 0 && this.lostCreateResponses--) return send(502, { message: 'Server Error' });
        return send(201, this.#commentJson(comment));
      }
    }
    if ((match = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const comment = this.comments.get(Number(match[1]));
      if (!comment) return send(404, { message: 'Not Found' });
      if (method === 'PATCH') {
        if (typeof input.body === 'string') comment.body = input.body;
        return send(200, this.#commentJson(comment));
      }
      if (method === 'DELETE') {
        this.comments.delete(comment.id);
        response.writeHead(204).end();
        return;
      }
    }
    if ((match = /^\/labels\/([^/]+)$/.exec(rest)) && method === 'GET') {
      const label = this.labels.get(decodeURIComponent(match[1] as string));
      return label ? send(200, label) : send(404, { message: 'Not Found' });
    }
    if (rest === '/labels' && method === 'POST') {
      const name = String(input.name ?? '');
      if (this.labels.has(name)) return send(422, { message: 'Validation Failed', errors: [{ code: 'already_exists' }] });
      const label = { name, color: String(input.color ?? 'ededed'), description: typeof input.description === 'string' ? input.description : null };
      this.labels.set(name, label);
      return send(201, label);
    }
    if ((match = /^\/pulls\/(\d+)$/.exec(rest)) && method === 'GET') {
      const issue = this.issues.get(Number(match[1]));
      if (!issue?.isPullRequest) return send(404, { message: 'Not Found' });
      return send(200, { number: issue.number, title: issue.title, state: issue.state, base: { ref: 'main', repo: { full_name: this.options.repository } }, head: { ref: 'feature', repo: { full_name: this.options.repository, fork: false } } });
    }
    send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  }
}
