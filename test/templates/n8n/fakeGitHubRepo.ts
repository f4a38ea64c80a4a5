/**
 * The repository contents API (`GET /repos/{owner}/{repo}/contents/{path}`: a folder listing or a
 * file with base64 content, as GitHub answers) in front of the fake GitHub of the actions tests
 * (issues, labels, comments, pagination, token check), which serves every other path.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeGitHub } from '../../actions/fakeGitHub.js';

export class FakeGitHubRepo {
  /** Path in the repository → file content. Folders are implied by the paths. */
  readonly files = new Map<string, string>();
  readonly contentRequests: string[] = [];
  readonly github: FakeGitHub;
  url = '';
  #server = createServer((request, response) => void this.#handle(request, response));

  constructor(readonly options: { token: string; repository: string }) {
    this.github = new FakeGitHub({ token: options.token, repository: options.repository });
  }

  async start(): Promise<this> {
    await this.github.start();
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
    await this.github.close();
  }

  #entry(path: string, type: 'file' | 'dir') {
    const name = path.split('/').pop()!;
    const content = this.files.get(path) ?? '';
    const sha = createHash('sha1').update(type === 'file' ? `blob ${Buffer.byteLength(content)}\0${content}` : `tree ${path}`).digest('hex');
    return {
      name,
      path,
      sha,
      size: type === 'file' ? Buffer.byteLength(content) : 0,
      url: `${this.url}/repos/${this.options.repository}/contents/${path}`,
      html_url: `https://github.example/${this.options.repository}/blob/main/${path}`,
      download_url: type === 'file' ? `https://raw.github.example/${this.options.repository}/main/${path}` : null,
      type,
    };
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.url);
    const prefix = `/repos/${this.options.repository}/contents/`;
    if (request.method === 'GET' && url.pathname.startsWith(prefix)) {
      const send = (status: number, json: unknown): void => {
        response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(json));
      };
      if (request.headers.authorization !== `token ${this.options.token}`) return send(401, { message: 'Bad credentials' });
      const path = decodeURIComponent(url.pathname.slice(prefix.length)).replace(/\/+$/, '');
      this.contentRequests.push(path);
      const content = this.files.get(path);
      if (content !== undefined) {
        // GitHub wraps the base64 content at 60 characters.
        const base64 = Buffer.from(content, 'utf8').toString('base64').replace(/(.{60})/g, '$1\n');
        return send(200, { ...this.#entry(path, 'file'), encoding: 'base64', content: base64 });
      }
      const children = new Map<string, 'file' | 'dir'>();
      for (const file of this.files.keys()) {
        if (!file.startsWith(`${path}/`)) continue;
        const rest = file.slice(path.length + 1);
        const slash = rest.indexOf('/');
        children.set(slash < 0 ? file : `${path}/${rest.slice(0, slash)}`, slash < 0 ? 'file' : 'dir');
      }
      if (!children.size) return send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest/repos/contents' });
      return send(200, [...children].sort(([a], [b]) => a.localeCompare(b)).map(([child, type]) => this.#entry(child, type)));
    }
    // Everything else: the fake GitHub of the actions tests.
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && !['host', 'content-length', 'connection'].includes(name)) headers[name] = value;
    }
    const answer = await fetch(`${this.github.url}${url.pathname}${url.search}`, {
      method: request.method ?? 'GET',
      headers,
      ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
    });
    const outHeaders: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(name)) outHeaders[name] = value.replaceAll(this.github.url, this.url);
    });
    response.writeHead(answer.status, outHeaders).end(Buffer.from(await answer.arrayBuffer()));
  }
}
