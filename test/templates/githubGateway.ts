/**
 * The GitHub API a workflow run sees, in front of test/actions' FakeGitHub (reused, not copied):
 * - every job gets its own GITHUB_TOKEN, carrying the job's `permissions:` (or read-only for a
 *   pull request from a fork); a request its permissions do not allow is answered 403 "Resource
 *   not accessible by integration", as GitHub does, so a template that forgets a permission fails;
 * - the pull request endpoints FakeGitHub lacks (list by head, create, update), kept on FakeGitHub's
 *   issue numbers so pull requests and issues share a sequence as on GitHub;
 * - what github/codeql-action/upload-sarif calls: the workflow run (`actions: read`, as on a private
 *   repository) and the SARIF upload (`security-events: write`), kept decoded in `sarifUploads`;
 * - everything else is forwarded to FakeGitHub with its token, and Link headers are rewritten so
 *   pagination comes back through here.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import type { FakeGitHub } from '../actions/fakeGitHub.js';

export type Access = 'none' | 'read' | 'write';
export type Permissions = Record<string, Access>;

export const PERMISSION_SCOPES = [
  'actions', 'attestations', 'checks', 'contents', 'deployments', 'discussions', 'id-token', 'issues', 'models',
  'packages', 'pages', 'pull-requests', 'repository-projects', 'security-events', 'statuses',
] as const;

export interface FakePullRequest {
  number: number;
  title: string;
  body: string;
  head: string;
  base: string;
  state: 'open' | 'closed';
}

/** One SARIF upload to code scanning (PUT /code-scanning/analysis), its `sarif` gunzipped and parsed. */
export interface SarifUpload {
  job: string;
  ref: string;
  commitOid: string;
  analysisKey: string;
  sarif: unknown;
}

export interface GatewayRequest {
  method: string;
  path: string;
  job: string;
  status: number;
  body: unknown;
}

const RANK: Record<Access, number> = { none: 0, read: 1, write: 2 };

export class GitHubGateway {
  readonly pulls = new Map<number, FakePullRequest>();
  readonly requests: GatewayRequest[] = [];
  readonly sarifUploads: SarifUpload[] = [];
  /** Off, as on a repository where Actions may not open pull requests. */
  allowActionsToCreatePullRequests = true;
  readonly #tokens = new Map<string, { job: string; permissions: Permissions }>();
  readonly #server = createServer((request, response) => void this.#handle(request, response));
  url = '';

  constructor(readonly fake: FakeGitHub) {}

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  /** A fresh installation token for one job, with that job's permissions. */
  issueToken(job: string, permissions: Permissions): string {
    const token = `ghs_${randomBytes(18).toString('hex')}`;
    this.#tokens.set(token, { job, permissions });
    return token;
  }

  tokens(): string[] {
    return [...this.#tokens.keys()];
  }

  /** What a request needs: [scope, access] alternatives (any one suffices). */
  #needs(method: string, rest: string): Array<[string, Access]> {
    const access: Access = method === 'GET' ? 'read' : 'write';
    let match: RegExpExecArray | null;
    if (/^\/pulls(\/\d+)?$/.test(rest)) return [['pull-requests', access]];
    if (/^\/actions\//.test(rest)) return [['actions', access]];
    if (/^\/code-scanning\//.test(rest)) return [['security-events', access]];
    if ((match = /^\/issues\/(\d+)\/comments$/.exec(rest))) {
      return this.fake.issues.get(Number(match[1]))?.isPullRequest ? [['pull-requests', access], ['issues', access]] : [['issues', access]];
    }
    if ((match = /^\/issues\/comments\/(\d+)$/.exec(rest))) {
      const comment = this.fake.comments.get(Number(match[1]));
      return comment && this.fake.issues.get(comment.issueNumber)?.isPullRequest ? [['pull-requests', access], ['issues', access]] : [['issues', access]];
    }
    if ((match = /^\/issues\/(\d+)$/.exec(rest)) && this.fake.issues.get(Number(match[1]))?.isPullRequest) return [['pull-requests', access], ['issues', access]];
    if (/^\/(issues|labels)(\/.*)?$/.test(rest)) return [['issues', access]];
    return [['metadata', 'read']];
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const url = new URL(request.url ?? '/', this.url);
    const method = request.method ?? 'GET';
    let body: unknown;
    try {
      body = raw.length ? JSON.parse(raw.toString('utf8')) : undefined;
    } catch {
      body = raw.toString('utf8');
    }
    const token = /^(?:token|bearer)\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const grant = token ? this.#tokens.get(token) : undefined;
    const send = (status: number, json: unknown, headers: Record<string, string> = {}) => {
      this.requests.push({ method, path: url.pathname, job: grant?.job ?? '?', status, body });
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(json === undefined ? '' : JSON.stringify(json));
    };
    if (!grant) return send(401, { message: 'Bad credentials' });
    const base = `/repos/${this.fake.options.repository}`;
    if (!url.pathname.startsWith(`${base}/`)) return send(404, { message: 'Not Found' });
    const rest = url.pathname.slice(base.length);
    const needs = this.#needs(method, rest);
    const allowed = needs.some(([scope, access]) => scope === 'metadata' || RANK[grant.permissions[scope] ?? 'none'] >= RANK[access]);
    if (!allowed) return send(403, { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest' });

    const input = (body ?? {}) as Record<string, unknown>;
    if (rest === '/pulls' && method === 'GET') {
      const head = url.searchParams.get('head');
      const state = url.searchParams.get('state') ?? 'open';
      const owner = this.fake.options.repository.split('/')[0];
      const list = [...this.pulls.values()]
        .filter((pull) => state === 'all' || pull.state === state)
        .filter((pull) => head === null || head === `${owner}:${pull.head}`)
        .map((pull) => this.#pullJson(pull));
      return send(200, list);
    }
    if (rest === '/pulls' && method === 'POST') {
      if (!this.allowActionsToCreatePullRequests) return send(403, { message: 'GitHub Actions is not permitted to create or approve pull requests.' });
      if (typeof input.title !== 'string' || typeof input.head !== 'string' || typeof input.base !== 'string') return send(422, { message: 'Validation Failed' });
      if ([...this.pulls.values()].some((pull) => pull.state === 'open' && pull.head === input.head)) {
        return send(422, { message: 'Validation Failed', errors: [{ message: `A pull request already exists for ${input.head}.` }] });
      }
      const number = this.fake.addPullRequest(input.title);
      const pull: FakePullRequest = { number, title: input.title, body: typeof input.body === 'string' ? input.body : '', head: input.head, base: input.base, state: 'open' };
      this.pulls.set(number, pull);
      return send(201, this.#pullJson(pull));
    }
    const pullMatch = /^\/pulls\/(\d+)$/.exec(rest);
    if (pullMatch && method === 'PATCH') {
      const pull = this.pulls.get(Number(pullMatch[1]));
      if (!pull) return send(404, { message: 'Not Found' });
      if (typeof input.body === 'string') pull.body = input.body;
      if (typeof input.title === 'string') pull.title = input.title;
      return send(200, this.#pullJson(pull));
    }

    const runMatch = /^\/actions\/runs\/(\d+)$/.exec(rest);
    if (runMatch && method === 'GET') return send(200, { id: Number(runMatch[1]) });
    if (rest === '/code-scanning/analysis' && method === 'PUT') {
      if (typeof input.sarif !== 'string' || typeof input.commit_oid !== 'string' || typeof input.ref !== 'string') return send(422, { message: 'Validation Failed' });
      let sarif: unknown;
      try {
        sarif = JSON.parse(gunzipSync(Buffer.from(input.sarif, 'base64')).toString('utf8'));
      } catch {
        return send(400, { message: 'Invalid SARIF: not gzipped, base64-encoded JSON' });
      }
      this.sarifUploads.push({ job: grant.job, ref: input.ref, commitOid: input.commit_oid, analysisKey: String(input.analysis_key ?? ''), sarif });
      const id = `sarif-${this.sarifUploads.length}`;
      return send(202, { id, url: `${this.url}${base}/code-scanning/sarifs/${id}` });
    }

    // Everything else: FakeGitHub, with its own token.
    const forwarded = await fetch(`${this.fake.url}${url.pathname}${url.search}`, {
      method,
      headers: { authorization: `token ${this.fake.options.token}`, 'content-type': 'application/json', accept: 'application/vnd.github+json' },
      ...(raw.length && method !== 'GET' ? { body: raw } : {}),
    });
    const headers: Record<string, string> = {};
    for (const name of ['link', 'x-ratelimit-remaining', 'x-ratelimit-limit']) {
      const value = forwarded.headers.get(name);
      if (value) headers[name] = value.split(this.fake.url).join(this.url);
    }
    const text = await forwarded.text();
    this.requests.push({ method, path: url.pathname, job: grant.job, status: forwarded.status, body });
    response.writeHead(forwarded.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    response.end(text);
  }

  #pullJson(pull: FakePullRequest) {
    const repository = this.fake.options.repository;
    return {
      number: pull.number,
      title: pull.title,
      body: pull.body,
      state: pull.state,
      html_url: `https://github.example/${repository}/pull/${pull.number}`,
      head: { ref: pull.head, repo: { full_name: repository } },
      base: { ref: pull.base, repo: { full_name: repository } },
    };
  }
}
