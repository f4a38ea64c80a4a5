/**
 * The one Node transport, for every Node surface (the CLI, its MCP server, the actions and their
 * Octokit through `transportFetch`): Node's own node:http / node:https over keep-alive agents, so
 * no bundle carries an HTTP library (undici cost the actions about 750 KB each and most of their
 * start-up time). Proxies: the agents take Node's built-in proxy support (`proxyEnv`, Node 24.5+),
 * which honours HTTPS_PROXY / HTTP_PROXY (either case) and NO_PROXY; proxySettings decides whether
 * any is set. Failures without a response are classified into TransportError kinds, with `sent`
 * telling the retry policy whether the service may have received the request. Retries are the
 * api client's, not this module's.
 */
import http from 'node:http';
import type https from 'node:https';
import { TransportError, type Transport, type TransportRequest } from '../transport.js';
import { classifyNodeError, flattenHeaders } from './errors.js';
import { proxySettings } from './proxy.js';

export { classifyNodeError } from './errors.js';

export interface NodeTransportOptions {
  /** Where proxy variables are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** The Node.js version checked for proxy support; defaults to this process's. */
  nodeVersion?: string;
}

/** Node's agents honour `proxyEnv` from 24.5 on; older ones would silently connect directly. */
const PROXY_SUPPORT = [24, 5] as const;

function proxySupported(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > PROXY_SUPPORT[0] || (major === PROXY_SUPPORT[0] && minor >= PROXY_SUPPORT[1]);
}

export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  const env = options.env ?? process.env;
  const proxied = proxySettings(env) !== undefined;
  // `proxyEnv` is newer than the @types/node in use.
  const agentOptions = { keepAlive: true, ...(proxied ? { proxyEnv: env } : {}) } as http.AgentOptions;
  const version = options.nodeVersion ?? process.versions.node;
  const agents: Agents = { options: agentOptions };
  return (request) => {
    if (proxied && !proxySupported(version)) {
      const message = `HTTPS_PROXY / HTTP_PROXY is set, but Node.js ${version} cannot use a proxy here (Node.js ${PROXY_SUPPORT.join('.')} or newer can)`;
      return Promise.reject(new TransportError('connect', false, message));
    }
    return send(request, agents);
  };
}

let shared: Transport | undefined;

/** The transport every client of this process shares (one set of keep-alive agents), from process.env. */
export function sharedNodeTransport(): Transport {
  return (shared ??= createNodeTransport());
}

/**
 * The keep-alive agents, each created on first use so that merely constructing a client opens
 * nothing; node:https (TLS and node:crypto, milliseconds of every start-up) is loaded only by the
 * first https:// request.
 */
interface Agents {
  options: http.AgentOptions;
  http?: http.Agent;
  https?: https.Agent;
}

function agentFor(agents: Agents, secure: boolean): { module: typeof http | typeof https; agent: http.Agent } {
  if (!secure) return { module: http, agent: (agents.http ??= new http.Agent(agents.options)) };
  const module = process.getBuiltinModule('node:https');
  return { module, agent: (agents.https ??= new module.Agent(agents.options)) };
}

function send(request: TransportRequest, agents: Agents): ReturnType<Transport> {
  const url = new URL(request.url);
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let connected = false;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      const callerAborted = request.signal?.aborted === true;
      const timedOut = timeout.aborted && !callerAborted;
      // A timeout before the connection came up wrote nothing.
      if (timedOut && !connected) reject(new TransportError('connect', false, `connect timeout after ${request.timeoutMs} ms`, error));
      else reject(classifyNodeError(error, { callerAborted, timedOut }));
    };
    const secure = url.protocol === 'https:';
    const { module, agent } = agentFor(agents, secure);
    const outgoing = module.request(url, { method: request.method, headers: request.headers, agent, signal }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', fail);
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: flattenHeaders(response.headers), body: new Uint8Array(Buffer.concat(chunks)) }));
    });
    outgoing.on('socket', (socket) => {
      if (!socket.connecting) connected = true;
      else socket.once(secure ? 'secureConnect' : 'connect', () => (connected = true));
    });
    outgoing.on('error', fail);
    outgoing.end(request.body);
  });
}

/**
 * Header names lower-cased and repeated names joined with ", ", as `new Headers()` would give. Octokit
 * passes a plain object, which is read directly: the first `Headers` of a process loads Node's fetch
 * implementation (undici), about 50 ms of an action's start before its first GitHub request.
 */
function headerRecord(init: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
  const pairs: Iterable<readonly [string, string]> =
    init === undefined ? [] : Array.isArray(init) ? (init as Array<[string, string]>) : isPlainRecord(init) ? Object.entries(init) : new Headers(init);
  const headers = new Map<string, string>();
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    const earlier = headers.get(key);
    headers.set(key, earlier === undefined ? String(value) : `${earlier}, ${value}`);
  }
  return Object.fromEntries(headers);
}

function isPlainRecord(value: object): value is Record<string, string> {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The part of a fetch Response that Octokit reads (@octokit/request: status, url, the headers by
 * iteration and `get`, then `text()` or `arrayBuffer()`; `json()` for anyone else), over the
 * transport's answer. Not Node's Response: the first one of a process loads Node's fetch
 * implementation (undici), 35 ms and more of every GitHub-calling run's CPU, for a body already
 * in memory. Headers are lower-cased, repeated ones joined (flattenHeaders), as a Response has them.
 */
class TransportResponse {
  readonly url: string;
  readonly status: number;
  readonly ok: boolean;
  readonly statusText = '';
  readonly headers: ResponseHeaders;
  readonly #body: Uint8Array;
  constructor(url: string, status: number, headers: Record<string, string>, body: Uint8Array) {
    this.url = url;
    this.status = status;
    this.ok = status >= 200 && status < 300;
    this.headers = new ResponseHeaders(headers);
    this.#body = body;
  }
  async text(): Promise<string> {
    return new TextDecoder().decode(this.#body);
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#body.slice().buffer;
  }
}

/** Headers' reading side, over names already lower-cased. */
class ResponseHeaders {
  readonly #values: Map<string, string>;
  constructor(headers: Record<string, string>) {
    this.#values = new Map(Object.entries(headers));
  }
  get(name: string): string | null {
    return this.#values.get(name.toLowerCase()) ?? null;
  }
  has(name: string): boolean {
    return this.#values.has(name.toLowerCase());
  }
  entries(): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.#values.entries();
  }
}

/**
 * A `fetch` over a Transport (Octokit's), so GitHub calls share the agents and the proxy settings.
 * Octokit passes a method, plain-object headers, a string body and a signal, and reads status,
 * headers and the body (TransportResponse); redirects are not followed (GitHub's REST API answers directly).
 */
export function transportFetch(transport: Transport, timeoutMs = 60_000): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    const headers = headerRecord(init?.headers);
    const response = await transport({
      method: (init?.method ?? 'GET').toUpperCase() as TransportRequest['method'],
      url,
      headers,
      body: typeof init?.body === 'string' ? init.body : init?.body == null ? undefined : new Uint8Array(await new Response(init.body).arrayBuffer()),
      timeoutMs,
      signal: init?.signal ?? undefined,
    });
    return new TransportResponse(url, response.status, response.headers, response.body) as unknown as Response;
  };
}
