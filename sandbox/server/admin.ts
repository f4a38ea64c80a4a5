/**
 * Admin paths outside the public API (no API key; on a non-loopback address the control token, see
 * controlToken.ts): the email outbox, the sandbox payment page that
 * stands in for the external checkout, and a clock tests can advance.
 *   GET  /_sandbox/outbox[?keyId=&kind=]     emails the service would have sent
 *   GET  /_sandbox/checkout/{sessionId}      the payment page (HTML)
 *   POST /_sandbox/checkout/{sessionId}/pay  completes the payment: credits the pack once
 *   POST /_sandbox/clock {"advanceSeconds"}  moves the sandbox clock forward (meters, quotas, jobs, reminders), at most 100 years ahead
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PACKS } from '../../api/schemas/common.js';
import { readBody } from './body.js';
import { checkoutSignature, requireControl } from './controlToken.js';
import { HttpError } from './httpError.js';
import { sendBytes, sendJson } from './respond.js';
import { MAX_CLOCK_LEAD_YEARS, type Services } from './services.js';

export const ADMIN_PREFIX = '/_sandbox';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function wantsHtml(req: IncomingMessage): boolean {
  const accept = String(req.headers.accept ?? '');
  return accept.includes('text/html') || String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded');
}

function checkoutPage(sessionId: string, services: Services): string {
  const session = services.billing.checkoutSession(sessionId)!;
  const pack = PACKS[session.pack];
  const id = escapeHtml(sessionId);
  const token = services.controlToken();
  const signature = token ? `?sig=${checkoutSignature(token, sessionId)}` : '';
  const body =
    session.paidAt === null
      ? `<p>${escapeHtml(session.pack)}: US$${pack.priceUsd} for ${pack.tokens.toLocaleString('en-US')} tokens.</p>
<form method="post" action="${ADMIN_PREFIX}/checkout/${id}/pay${signature}"><button type="submit">Pay (sandbox, no card)</button></form>`
      : `<p>Paid on ${new Date(session.paidAt).toISOString()}: the credits are on the balance.</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Sandbox checkout ${id}</title></head>
<body><h1>Sandbox checkout</h1><p><strong>SANDBOX: no real payment is taken.</strong></p>${body}</body></html>`;
}

export async function handleAdmin(req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams, services: Services, headers: Record<string, string>): Promise<void> {
  const method = req.method ?? 'GET';
  const now = services.clock.now();
  const route = (expected: string) => {
    if (method !== expected) throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${path}.`, `Use ${expected}.`, { headers: { allow: expected } });
  };
  const checkout = /^\/_sandbox\/checkout\/([A-Za-z0-9_]+)(\/pay)?$/.exec(path);
  requireControl(req, services.controlToken(), query, checkout?.[1]);
  if (path === `${ADMIN_PREFIX}/outbox`) {
    route('GET');
    const messages = services.outbox.list({ ...(query.get('keyId') ? { keyId: query.get('keyId')! } : {}), ...(query.get('kind') ? { kind: query.get('kind')! } : {}) });
    return sendJson(res, 200, { messages }, headers);
  }
  if (path === `${ADMIN_PREFIX}/clock`) {
    route('POST');
    const body = (await readBody(req, 4096)).toString('utf8');
    let advanceSeconds: unknown;
    try {
      advanceSeconds = (JSON.parse(body || '{}') as { advanceSeconds?: unknown }).advanceSeconds;
    } catch {
      throw new HttpError(400, 'invalid_json', 'The request body is not valid JSON.', 'Send {"advanceSeconds": 86400}.');
    }
    const room = Math.floor(services.clock.roomMs / 1000);
    if (typeof advanceSeconds !== 'number' || !Number.isFinite(advanceSeconds) || advanceSeconds < 0 || !services.clock.advance(advanceSeconds * 1000)) {
      throw new HttpError(
        400,
        'invalid_request',
        `advanceSeconds must be a number from 0 to ${room.toLocaleString('en-US')}: the sandbox clock moves at most ${MAX_CLOCK_LEAD_YEARS} years ahead of the real time.`,
        'Send {"advanceSeconds": 86400} to move one day; restart the sandbox to start the clock again.',
      );
    }
    return sendJson(res, 200, { now: new Date(services.clock.now()).toISOString() }, headers);
  }
  if (checkout) {
    const sessionId = checkout[1]!;
    if (!services.billing.checkoutSession(sessionId)) {
      throw new HttpError(404, 'checkout_not_found', 'No such checkout session.', 'Create one with POST /billing/checkout.');
    }
    if (!checkout[2]) {
      route('GET');
      return sendBytes(res, 200, checkoutPage(sessionId, services), 'text/html; charset=utf-8', headers);
    }
    route('POST');
    await readBody(req, 4096);
    const paid = services.tx(() => services.billing.pay(sessionId, now));
    if (wantsHtml(req)) return sendBytes(res, 200, checkoutPage(sessionId, services), 'text/html; charset=utf-8', headers);
    return sendJson(res, 200, { sessionId, paid: true, ...paid }, headers);
  }
  throw new HttpError(404, 'not_found', `No admin endpoint at ${path}.`, `Admin paths: ${ADMIN_PREFIX}/outbox, ${ADMIN_PREFIX}/checkout/{sessionId}, ${ADMIN_PREFIX}/clock.`);
}
