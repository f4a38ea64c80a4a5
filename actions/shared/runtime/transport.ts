/**
 * The actions' one HTTP stack: Node's own node:http / node:https over keep-alive agents, for the
 * compliance client and (through `transportFetch`) for Octokit. Bundling undici instead would cost
 * about 750 KB per action and most of its start-up time. Proxies: the agents take Node's built-in
 * proxy support (`proxyEnv`, Node 24.5+), which honours HTTPS_PROXY / HTTP_PROXY / NO_PROXY as the
 * undici transport in api/node does. Failures are classified by the same rules (api/node/errors).
 */
import http from 'node:http';
import https from 'node:https';
import { classifyNodeError, flattenHeaders } from '../../../api/node/errors.js';
import { proxySettings } from '../../../api/node/proxy.js';
import { TransportError, type Transport, type TransportRequest } from '../../../api/transport.js';

/** Node's agents honour `proxyEnv` from 24.5 on; older ones would silently connect directly. */
const PROXY_SUPPORT = [24, 5] as const;

function proxySupported(version = process.versions.node): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > PROXY_SUPPORT[0] || (major === PROXY_SUPPORT[0] && minor >= PROXY_SUPPORT[1]);
}

function createActionTransport(env: Record<string, string | undefined> = process.env): Transport {
  // Node's `proxyEnv` reads the same variables as proxySettings; that one decides whether any is set.
  const proxied = proxySettings(env) !== undefined;
  // `proxyEnv` is newer than the @types/node in use.
  const options = { keepAlive: true, ...(proxied ? { proxyEnv: env } : {}) } as http.AgentOptions;
  let agents: { http: http.Agent; https: https.Agent } | undefined;
  return (request) => {
    if (proxied && !proxySupported()) {
      const message = `HTTPS_PROXY / HTTP_PROXY is set, but Node.js ${process.version} cannot use a proxy here (Node.js ${PROXY_SUPPORT.join('.')} or newer can)`;
      return Promise.reject(new TransportError('connect', false, message));
    }
    // Created on first use so that merely constructing a client opens nothing.
    agents ??= { http: new http.Agent(options), https: new https.Agent(options) };
    return send(request, agents);
  };
}

let shared: Transport | undefined;

/** The transport every client of this process uses (one set of keep-alive agents). */
export function actionTransport(): Transport {
  return (shared ??= createActionTransport());
}

function send(request: TransportRequest, agents: { http: http.Agent; https: https.Agent }): ReturnType<Transport> {
  const url = new URL(request.url);
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
  let connected = false;
  return new Promise((resolve, reject) => {
    const fail = (error: unknown) => {
      const callerAborted = request.signal?.aborted === true;
      const timedOut = timeout.aborted && !callerAborted;
      // A timeout before the connection came up wrote nothing (undici says UND_ERR_CONNECT_TIMEOUT).
      if (timedOut && !connected) reject(new TransportError('connect', false, `connect timeout after ${request.timeoutMs} ms`, error));
      else reject(classifyNodeError(error, { callerAborted, timedOut }));
    };
    const secure = url.protocol === 'https:';
    const outgoing = (secure ? https : http).request(url, { method: request.method, headers: request.headers, agent: secure ? agents.https : agents.http, signal }, (response) => {
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

/** Responses that carry no body by definition (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for Octokit over a Transport, so GitHub calls share the agents and the proxy settings.
 * Octokit passes a method, plain-object headers, a string body and a signal, and reads status,
 * headers and the body; redirects are not followed (GitHub's REST API answers directly).
 */
export function transportFetch(transport: Transport, timeoutMs = 60_000): typeof fetch {
  return async (input, init) => {
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
    const response = await transport({
      method: (init?.method ?? 'GET').toUpperCase() as TransportRequest['method'],
      url: String(input),
      headers,
      body: typeof init?.body === 'string' ? init.body : init?.body == null ? undefined : new Uint8Array(await new Response(init.body).arrayBuffer()),
      timeoutMs,
      signal: init?.signal ?? undefined,
    });
    return new Response(NULL_BODY_STATUS.has(response.status) ? null : response.body, { status: response.status, headers: response.headers });
  };
}
