/**
 * `compliance mcp --http PORT`: the Streamable HTTP transport on loopback only, one MCP session
 * per client (Mcp-Session-Id). Against DNS rebinding and other web pages, the Host header must name
 * loopback and an Origin header, when a browser sends one, must be an allowed origin (loopback
 * pages by default; `--allow-origin` adds others), as the MCP specification asks.
 *
 * Its state is bounded, whatever a client does: sessions as httpSessions.ts says (capped, per
 * client too, closed when quiet, in-use sessions never closed for new ones, a refusal saying when
 * to retry); a body is refused at its Content-Length or as soon as it crosses the limit (64 KB
 * without a session: an initialize, whose client information a session keeps; 4 MB in one), and
 * the bytes of bodies held at once, from the first byte read until the answer is sent, are capped
 * too (503 with Retry-After beyond that). Bodies are decoded into strings as they arrive, never
 * gathered into one large Buffer: V8 gives a large string's memory back when it is collected,
 * where a freed multi-megabyte Buffer could stay with the allocator and keep the process's
 * resident memory up (bench/mcpSoak.ts).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { DEFAULT_SESSION_LIMITS, SessionTable, type SessionLimits, type TrackedSession } from './httpSessions.js';

const MCP_PATH = '/mcp';
const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

interface HttpLimits extends SessionLimits {
  /** One request body at most (a pasted policy for mapDocument is the largest input). */
  maxBodyBytes: number;
  /** The body of a request without a session (an initialize, which a session keeps): small. */
  maxInitializeBytes: number;
  /** Bytes of request bodies held at once, all clients together. */
  maxBodyBytesInFlight: number;
}

const DEFAULT_HTTP_LIMITS: HttpLimits = {
  ...DEFAULT_SESSION_LIMITS,
  maxBodyBytes: 4 * 1024 * 1024,
  maxInitializeBytes: 64 * 1024,
  maxBodyBytesInFlight: 8 * 1024 * 1024,
};

interface HttpOptions extends Partial<HttpLimits> {
  /** Origins (scheme://host[:port]) a browser page may call from, beside loopback pages. */
  allowedOrigins?: readonly string[];
}

interface Session extends TrackedSession {
  transport: StreamableHTTPServerTransport;
}

const isInitializedNotification = (body: unknown) => typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'notifications/initialized';

class RequestRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** `text` as a web origin (scheme://host[:port], lower case), or undefined when it is not one. */
export function asOrigin(text: string): string | undefined {
  try {
    const { origin } = new URL(text);
    return origin === text.replace(/\/$/, '').toLowerCase() ? origin : undefined;
  } catch {
    return undefined;
  }
}

/** A loopback page's origin, or one the user allowed; a malformed origin (or "null") is never allowed. */
function originAllowed(origin: string, allowed: readonly string[]): boolean {
  const parsed = asOrigin(origin);
  if (parsed === undefined) return false;
  const { protocol, hostname } = new URL(parsed);
  return allowed.includes(parsed) || ((protocol === 'http:' || protocol === 'https:') && LOOPBACK_HOSTNAMES.has(hostname));
}

/** The client a session belongs to: where it connects from and the name its initialize gave. */
function clientOf(req: IncomingMessage, body: unknown): string {
  const name = (body as { params?: { clientInfo?: { name?: unknown } } }).params?.clientInfo?.name;
  return `${req.socket.remoteAddress ?? '?'} ${typeof name === 'string' ? name : '?'}`;
}

export async function serveHttp(
  port: number,
  newServer: () => Server,
  options: HttpOptions = {},
): Promise<{ server: HttpServer; url: string; sessionCount(): number; bodyBytesInFlight(): number; close(): Promise<void> }> {
  const { allowedOrigins = [], ...given } = options;
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...given };
  const sessions = new SessionTable<Session>(limits);
  let bodyBytesInFlight = 0;
  let allowedHosts: string[] = [];

  /** The body as JSON; its bytes count as held until the answer to it is sent. */
  async function readJson(req: IncomingMessage, res: ServerResponse, maxBytes: number): Promise<unknown> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) throw new RequestRefused(413, `request body of ${declared} bytes is over the limit of ${maxBytes}`);
    const decoder = new StringDecoder('utf8');
    const parts: string[] = [];
    let size = 0;
    res.once('close', () => (bodyBytesInFlight -= size));
    for await (const chunk of req) {
      const bytes = (chunk as Buffer).length;
      size += bytes;
      bodyBytesInFlight += bytes;
      if (size > maxBytes) throw new RequestRefused(413, `request body is over the limit of ${maxBytes} bytes`);
      if (bodyBytesInFlight > limits.maxBodyBytesInFlight) throw new RequestRefused(503, 'the server is holding too many request bodies at once; retry in a second', { 'retry-after': '1' });
      parts.push(decoder.write(chunk as Buffer));
    }
    parts.push(decoder.end());
    try {
      return JSON.parse(parts.join(''));
    } catch (error) {
      throw new RequestRefused(400, `parse error: ${(error as Error).message}`);
    }
  }

  async function openSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const client = clientOf(req, body);
    const noRoom = sessions.admit(client);
    if (noRoom) return jsonRpcError(res, noRoom.status, -32000, noRoom.message, { 'retry-after': String(noRoom.retryAfterSeconds) });
    const server = newServer();
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => sessions.add(id, {
        transport, client, lastActive: limits.now(), connections: 0, used: false,
        close: () => void server.close().catch(() => undefined),
      }),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    return transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!allowedHosts.includes(req.headers.host ?? '')) return jsonRpcError(res, 403, -32000, `host ${JSON.stringify(req.headers.host ?? '')} is not allowed: this server answers on loopback only`);
    const origin = req.headers.origin;
    if (origin !== undefined && !originAllowed(origin, allowedOrigins)) {
      return jsonRpcError(res, 403, -32000, `origin ${JSON.stringify(origin)} is not allowed: only loopback pages may call this server, unless it is started with --allow-origin ${JSON.stringify(origin)}`);
    }
    if (url.pathname !== MCP_PATH) return jsonRpcError(res, 404, -32000, `not found: the MCP endpoint is ${MCP_PATH}`);
    sessions.closeIdle();
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      // A request running or a stream held open: the client is connected. Only requests are activity.
      existing.connections++;
      if (req.method !== 'GET') existing.lastActive = limits.now();
      res.once('close', () => {
        existing.connections--;
        if (req.method !== 'GET') existing.lastActive = limits.now();
      });
    }
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = await readJson(req, res, existing ? limits.maxBodyBytes : limits.maxInitializeBytes);
      } catch (error) {
        const refused = error instanceof RequestRefused ? error : new RequestRefused(400, (error as Error).message);
        // An unread body is dropped with the connection rather than read to its end.
        res.once('finish', () => req.destroy());
        return jsonRpcError(res, refused.status, refused.status === 400 ? -32700 : -32000, refused.message, { ...refused.headers, connection: 'close' });
      }
      if (existing) {
        if (!isInitializedNotification(body)) existing.used = true;
        return existing.transport.handleRequest(req, res, body);
      }
      if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'session not found (closed, or idle too long): initialize a new session');
      if (!isInitializeRequest(body)) return jsonRpcError(res, 400, -32000, 'bad request: no Mcp-Session-Id, and not an initialize request');
      return openSession(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'missing or unknown Mcp-Session-Id');
      return existing.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return jsonRpcError(res, 405, -32000, 'method not allowed');
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `internal error: ${(error as Error).message}`);
    });
  });
  // Idle sessions also go without any request arriving to notice them.
  const sweep = setInterval(() => sessions.closeIdle(), Math.max(1_000, Math.min(limits.idleMs, limits.unusedIdleMs, 60_000)));
  sweep.unref();
  await new Promise<void>((resolvePromise, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolvePromise());
  });
  const bound = (http.address() as { port: number }).port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    server: http,
    url: `http://127.0.0.1:${bound}${MCP_PATH}`,
    sessionCount: () => sessions.size,
    bodyBytesInFlight: () => bodyBytesInFlight,
    async close() {
      clearInterval(sweep);
      sessions.closeAll();
      http.closeAllConnections();
      await new Promise<void>((resolvePromise) => http.close(() => resolvePromise()));
    },
  };
}
