/**
 * `compliance mcp --http PORT`: the Streamable HTTP transport on loopback only, one MCP session
 * per client (Mcp-Session-Id), the Host header checked against the loopback names so a web page
 * cannot reach the server through DNS rebinding.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';

const MCP_PATH = '/mcp';
const MAX_BODY_BYTES = 4 * 1024 * 1024;

function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(chunk as Buffer);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

export async function serveHttp(port: number, newServer: () => Server): Promise<{ server: HttpServer; url: string; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] = [];
  const http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (!allowedHosts.includes(req.headers.host ?? '')) return jsonRpcError(res, 403, -32000, `host ${JSON.stringify(req.headers.host ?? '')} is not allowed: this server answers on loopback only`);
      if (url.pathname !== MCP_PATH) return jsonRpcError(res, 404, -32000, `not found: the MCP endpoint is ${MCP_PATH}`);
      const sessionId = req.headers['mcp-session-id'];
      const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
      if (req.method === 'POST') {
        let body: unknown;
        try {
          body = await readJson(req);
        } catch (error) {
          return jsonRpcError(res, 400, -32700, `parse error: ${(error as Error).message}`);
        }
        if (existing) return existing.handleRequest(req, res, body);
        if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'session not found: initialize a new session');
        if (!isInitializeRequest(body)) return jsonRpcError(res, 400, -32000, 'bad request: no Mcp-Session-Id, and not an initialize request');
        const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) sessions.delete(transport.sessionId);
        };
        await newServer().connect(transport);
        return transport.handleRequest(req, res, body);
      }
      if (req.method === 'GET' || req.method === 'DELETE') {
        if (!existing) return jsonRpcError(res, sessionId === undefined ? 400 : 404, -32000, 'missing or unknown Mcp-Session-Id');
        return existing.handleRequest(req, res);
      }
      res.setHeader('allow', 'GET, POST, DELETE');
      return jsonRpcError(res, 405, -32000, 'method not allowed');
    })().catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `internal error: ${(error as Error).message}`);
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', () => resolvePromise());
  });
  const bound = (http.address() as { port: number }).port;
  allowedHosts = [`127.0.0.1:${bound}`, `localhost:${bound}`];
  return {
    server: http,
    url: `http://127.0.0.1:${bound}${MCP_PATH}`,
    async close() {
      await Promise.all([...sessions.values()].map((transport) => transport.close()));
      await new Promise<void>((resolvePromise) => http.close(() => resolvePromise()));
    },
  };
}
