/**
 * The HTTP server: one pipeline for every request.
 *   request id → injected fault (with --faults) → admin paths → route (404/405) → public operations
 *   → key (401, bad-key block 429) → rate limit (429, headers on every keyed answer) → meter and
 *   reminders → input (413/415/400) and validation against the served OpenAPI document by Ajv (400
 *   with the service's codes; requestValidation.ts) → read-only gate for live keys at zero (402) → handler.
 * Every error is the JSON envelope with the request id; nothing thrown leaks a stack trace.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { API_PREFIX } from '../../api/schemas/common.js';
import type { OperationId } from '../../api/operations.js';
import { ADMIN_PREFIX, handleAdmin } from './admin.js';
import { readInput } from './body.js';
import { FAULT_HEADER, faultError, HTML_502, parseFault, type Fault } from './faults.js';
import { handlers, type HandlerContext, type Reply } from './handlers/index.js';
import { refuseBusyMappings } from './handlers/documents.js';
import type { KeyedOperationId } from './handlers/types.js';
import { HttpError } from './httpError.js';
import { buildOpenApi } from './openapi.js';
import { headersOf } from './rateLimiter.js';
import { errorBody, internalError, sendBytes, sendError, sendJson } from './respond.js';
import { compileRequestValidators } from './requestValidation.js';
import { normalizeInput } from './normalizeInput.js';
import { matchRoute } from './routes.js';
import { buildServiceCard } from './serviceCard.js';
import type { Services } from './services.js';

/** Answers to requests Node refuses before they reach the pipeline, by Node's error code. */
const CLIENT_ERRORS: Record<string, [status: string, code: string, message: string, hint: string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['408 Request Timeout', 'request_timeout', 'The request did not arrive in time: its headers or body stalled.', 'Send the whole request at once; the connection is closed.'],
  HPE_HEADER_OVERFLOW: ['431 Request Header Fields Too Large', 'headers_too_large', 'The request headers are too large.', 'Send smaller headers.'],
  default: ['400 Bad Request', 'bad_request', 'Malformed HTTP request.', 'Send a valid HTTP/1.1 request.'],
};

/** The answer in progress on a connection (Node's own field; none while it is idle between requests). */
const responseOf = (socket: Socket | Duplex) => (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;

/** Operations a read-only (zero balance) live account may still call beside GETs. */
const OPEN_WHEN_READ_ONLY = new Set<OperationId>(['createCheckout']);

export function createSandboxServer(services: Services): Server {
  const openApi = JSON.stringify(buildOpenApi());
  // Requests are checked against the document as served (its JSON), by Ajv rather than the client's zod.
  const validateRequest = compileRequestValidators(JSON.parse(openApi) as Parameters<typeof compileRequestValidators>[0]);
  const serviceCard = buildServiceCard();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = `req_${randomUUID()}`;
    // Headers every answer carries; rate-limit headers join once the key is known.
    const headers: Record<string, string> = { 'x-request-id': requestId };
    let fault: Fault | undefined;
    try {
      const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
      const method = req.method ?? 'GET';
      if (services.options.faults) {
        fault = parseFault(req.headers[FAULT_HEADER]);
        if (fault?.kind === 'reset') return void req.socket.destroy();
        if (fault?.kind === 'html502') return sendBytes(res, 502, HTML_502, 'text/html', headers);
        if (fault?.kind === 'status') throw faultError(fault.status);
        if (fault?.kind === 'slow') await sleep(fault.ms);
      }
      let path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
      if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
        return await handleAdmin(req, res, path, url.searchParams, services, headers);
      }
      if (path !== API_PREFIX && !path.startsWith(`${API_PREFIX}/`)) {
        throw new HttpError(404, 'not_found', `No endpoint at ${path}.`, `The API is served under ${API_PREFIX}; GET ${API_PREFIX}/ lists its endpoints.`);
      }
      path = path.slice(API_PREFIX.length) || '/';
      const { operation, pathParams } = matchRoute(method, path);
      if (operation.id === 'getServiceCard') return sendJson(res, 200, serviceCard, headers);
      if (operation.id === 'getOpenApi') return sendBytes(res, 200, openApi, 'application/json; charset=utf-8', headers);

      const now = services.clock.now();
      let account = services.auth.authenticate(req.headers, req.socket.remoteAddress ?? 'unknown', now);
      // The account row is read once per request, and again only when an account was written since.
      let accountWrites = services.accounts.writeCount;
      const currentAccount = () => {
        if (services.accounts.writeCount !== accountWrites) {
          accountWrites = services.accounts.writeCount;
          account = services.accounts.byHash(account.keyHash)!;
        }
        return account;
      };
      const limits = services.options.limits[account.mode];
      try {
        Object.assign(headers, headersOf(services.rateLimiter.consume(account.keyHash, limits.requestsPerMinute, now)));
      } catch (error) {
        if (error instanceof HttpError) Object.assign(headers, error.headers);
        throw error;
      }
      // Daily meter and review reminders, written only when one is due (most requests read nothing more).
      if (services.billing.meterDue(account, now) || services.calendar.remindersDue(account, now)) {
        services.tx(() => {
          services.billing.settleMeter(account, now);
          services.calendar.sendDueReminders(currentAccount(), now);
        });
      }

      if (operation.id === 'mapDocument') refuseBusyMappings(services, account.keyHash);
      const raw = (await readInput(req, operation, pathParams, url.searchParams, account.keyHash)) as Record<string, unknown>;
      const multipart = String(req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
      validateRequest(operation.id, method === 'GET' || method === 'DELETE' ? 'params' : multipart ? 'multipart' : 'json', raw);
      // The document accepted it: the table's schema only gives it its shape (trims, tag lists, aliases).
      const input = normalizeInput(operation.input, raw);
      // Other requests may have written the account while the body arrived.
      currentAccount();
      if (services.billing.isReadOnly(account) && method !== 'GET' && !OPEN_WHEN_READ_ONLY.has(operation.id)) {
        throw new HttpError(402, 'account_read_only', 'The balance is zero: the account is read-only until it is topped up. Nothing was changed or charged.', 'Buy a credit pack with POST /billing/checkout; reads and GET /billing stay open.');
      }
      const ctx: HandlerContext<unknown> = { services, account, input, now: services.clock.now(), requestId, fault };
      const handler = handlers[operation.id as KeyedOperationId] as (ctx: HandlerContext<unknown>) => Reply | Promise<Reply>;
      const reply = await handler(ctx);
      if (fault?.kind === 'reset-after') return void req.socket.destroy();
      if ('file' in reply) {
        return sendBytes(res, reply.status, reply.file, reply.contentType, {
          ...headers,
          'content-disposition': `attachment; filename="${reply.filename.replace(/[^\w.-]/g, '_')}"`,
        });
      }
      return sendJson(res, reply.status, reply.body, { ...headers, ...reply.headers });
    } catch (error) {
      const httpError = error instanceof HttpError ? error : internalError();
      if (!(error instanceof HttpError)) {
        // Logged for the operator; never in the response (no stack traces, no keys).
        console.error(`[sandbox] ${requestId} ${req.method} ${req.url?.split('?')[0]}: ${error instanceof Error ? error.message : String(error)}`);
      }
      // Drain any unread body so the client can read the answer.
      if (!req.readableEnded && !req.destroyed) req.resume();
      if (fault?.kind === 'reset-after') return void req.socket.destroy();
      sendError(res, httpError, requestId, headers);
    }
  }

  const { headersSeconds, bodyStallSeconds, idleSeconds } = services.options.connectionLimits;
  const server = createServer(
    {
      headersTimeout: headersSeconds * 1000,
      // No deadline for the whole request: a slow body that keeps arriving (a client starved of CPU,
      // a slow link) is read to its end; a body that stops is refused by its stall limit below.
      requestTimeout: 0,
      keepAliveTimeout: idleSeconds * 1000,
      // How often connections are checked against the headers limit (Node's default: 30 s late).
      connectionsCheckingInterval: Math.min(1_000, headersSeconds * 250),
    },
    (req, res) => {
      // The body's stall limit: the socket's inactivity timer, reset by every byte that arrives;
      // readBody answers 408 when it fires, and disarms it once the body is in.
      if (!req.complete) req.setTimeout(bodyStallSeconds * 1000);
      handle(req, res).catch(() => {
        if (!res.headersSent) sendJson(res, 500, errorBody(internalError(), 'unknown'));
      });
    },
  );
  // A socket's inactivity timer fired: the idle limit between requests, or a body's stall (readBody
  // answers that one). With a listener here Node leaves the closing to us: a starved event loop runs
  // its timers before it reads the sockets, so an idle timer can fire late on a connection whose
  // next request has already arrived unread; closing it then cut the client off unanswered. The
  // close waits one turn of the loop, and a connection that received bytes meanwhile is kept.
  server.on('timeout', (socket: Socket) => {
    if (responseOf(socket)) return; // a request in progress: its body's stall is answered 408
    const bytesBefore = socket.bytesRead;
    setImmediate(() => {
      if (socket.bytesRead === bytesBefore && !responseOf(socket)) socket.destroy();
    });
  });
  // A request Node refused (malformed, headers too large, or over a time limit): one answer, then the
  // connection is closed. Ending it only half-closes it (an HTTP server's sockets allow half-open),
  // so a client that never closes its side would hold it for ever.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    const [status, code, message, hint] = CLIENT_ERRORS[error.code ?? ''] ?? CLIENT_ERRORS.default!;
    const body = JSON.stringify({ error: { code, message, hint, requestId: 'none' } });
    // Node's own rule: answer only where no answer has started on this connection.
    const answering = responseOf(socket)?.headersSent === true;
    if (socket.writable && !answering) socket.write(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    socket.destroy();
  });
  return server;
}
