/**
 * `compliance mcp --http PORT`: the Streamable HTTP transport on loopback only, one MCP session
 * per client (Mcp-Session-Id), the Host header checked against the loopback names so a web page
 * cannot reach the server through DNS rebinding.
 *
 * Its state is bounded, whatever a client does: sessions are capped (a new one beyond the cap
 * closes the least recently used idle one) and closed after a quiet spell (a minute for a session
 * that never sent a request after its initialize, 30 minutes otherwise); a body is refused at its
 * Content-Length or as soon as it crosses the limit (64 KB without a session: an initialize, whose
 * client information a session keeps; 4 MB in one), and the bytes of bodies being read at once are
 * capped too (503 with Retry-After beyond that), so a flood of large requests cannot hold memory.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const MCP_PATH = '/mcp';

interface HttpLimits {
  /** Open sessions at most; one more closes the least recently used session with no request in flight. */
  maxSessions: number;
  /** A session with no request for this long is closed (its client must initialize again). */
  idleMs: number;
  /**
   * A session that has sent nothing but its initialize (and the initialized notification) for this
   * long is closed: the trace of a client that walked away, or of a flood of initializes.
   */
  unusedIdleMs: number;
  /** One request body at most (map_text's pasted text is the largest input). */
  maxBodyBytes: number;
  /** The body of a request without a session (an initialize, which a session keeps): small. */
  maxInitializeBytes: number;
  /** Bytes of request bodies being read at once, all clients together. */
  maxBodyBytesInFlight: number;
  /** The clock idleness is judged by (tests move it by hand). */
  now: () => number;
}

const DEFAULT_HTTP_LIMITS: HttpLimits = {
  maxSessions: 64,
  idleMs: 30 * 60_000,
  unusedIdleMs: 60_000,
  maxBodyBytes: 4 * 1024 * 1024,
  maxInitializeBytes: 64 * 1024,
  maxBodyBytesInFlight: 16 * 1024 * 1024,
  now: () => Date.now(),
};

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastActive: number;
  /** Requests not yet answered (an open GET stream among them): such a session is never idle. */
  inFlight: number;
  /** Whether it has sent a request beyond initialize and the initialized notification. */
  used: boolean;
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

export async function serveHttp(
  port: number,
  newServer: () => Server,
  options: Partial<HttpLimits> = {},
): Promise<{ server: HttpServer; url: string; sessionCount(): number; bodyBytesInFlight(): number; close(): Promise<void> }> {
  const limits: HttpLimits = { ...DEFAULT_HTTP_LIMITS, ...options };
  const sessions = new Map<string, Session>();
  let bodyBytesInFlight = 0;
  let allowedHosts: string[] = [];

  const closeSession = (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    void session.server.close().catch(() => undefined);
  };
  const closeIdle = () => {
    const now = limits.now();
    for (const [id, session] of sessions) if (session.inFlight === 0 && now - session.lastActive >= (session.used ? limits.idleMs : limits.unusedIdleMs)) closeSession(id);
  };
  /** Room for one more session: the least recently used one without a request in flight goes. */
  const makeRoom = (): boolean => {
    if (sessions.size < limits.maxSessions) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of sessions) if (entry[1].inFlight === 0 && (!oldest || entry[1].lastActive < oldest[1].lastActive)) oldest = entry;
    if (!oldest) return false;
    closeSession(oldest[0]);
    return true;
  };

  async function readJson(req: IncomingMessage, maxBytes: number): Promise<unknown> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBytes) throw new RequestRefused(413, `request body of ${declared} bytes is over the limit of ${maxBytes}`);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of req) {
        const bytes = (chunk as Buffer).length;
        size += bytes;
        bodyBytesInFlight += bytes;
        if (size > maxBytes) throw new RequestRefused(413, `request body is over the limit of ${maxBytes} bytes`);
        if (bodyBytesInFlight > limits.maxBodyBytesInFlight) throw new RequestRefused(503, 'the server is reading too many request bodies at once; retry shortly', { 'retry-after': '1' });
        chunks.push(chunk as Buffer);
      }
    } finally {
      bodyBytesInFlight -= size;
    }
    try {
      return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch (error) {
      throw new RequestRefused(400, `parse error: ${(error as Error).message}`);
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (!allowedHosts.includes(req.headers.host ?? '')) return jsonRpcError(res, 403, -32000, `host ${JSON.stringify(req.headers.host ?? '')} is not allowed: this server answers on loopback only`);
    if (url.pathname !== MCP_PATH) return jsonRpcError(res, 404, -32000, `not found: the MCP endpoint is ${MCP_PATH}`);
    closeIdle();
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) {
      existing.lastActive = limits.now();
      existing.inFlight++;
      res.once('close', () => {
        existing.inFlight--;
        existing.lastActive = limits.now();
      });
    }
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = await readJson(req, existing ? limits.maxBodyBytes : limits.maxInitializeBytes);
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
      if (!makeRoom()) return jsonRpcError(res, 503, -32000, `every one of the ${limits.maxSessions} sessions has a request in flight; retry shortly`, { 'retry-after': '1' });
      const server = newServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => void sessions.set(id, { transport, server, lastActive: limits.now(), inFlight: 0, used: false }),
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'missing or unknown Mcp-Session-Id');
      existing.used = true;
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
  const sweep = setInterval(closeIdle, Math.max(1_000, Math.min(limits.idleMs, limits.unusedIdleMs, 60_000)));
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
      await Promise.all([...sessions.values()].map((session) => session.server.close()));
      await new Promise<void>((resolvePromise) => http.close(() => resolvePromise()));
    },
  };
}
