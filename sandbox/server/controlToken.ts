/**
 * Who may use the `/_sandbox/*` control endpoints (clock, outbox, checkout pages). On a loopback
 * address only this machine can reach them, so they stay open; on any other address they need the
 * control token printed at start-up, in `X-Sandbox-Token` or `Authorization: Bearer`. A checkout
 * link the sandbox hands out carries its own signature (`?sig=`), which opens that one checkout
 * page and its pay button and nothing else, as a payment processor's link would.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { HttpError } from './httpError.js';

const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

/** Whether a bound address is reachable from this machine only (127.0.0.0/8, ::1, ::ffff:127.x). */
export function isLoopbackAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  if (bare === '::1') return true;
  const v4 = bare.startsWith('::ffff:') ? bare.slice(7) : bare;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

export function newControlToken(): string {
  return `cst_${randomBytes(24).toString('base64url')}`;
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Signature of one checkout session's link under the control token. */
export function checkoutSignature(token: string, sessionId: string): string {
  return createHmac('sha256', token).update(`checkout:${sessionId}`).digest('base64url').slice(0, 32);
}

function presentedToken(req: IncomingMessage): string | undefined {
  const header = req.headers[CONTROL_TOKEN_HEADER];
  if (typeof header === 'string' && header) return header.trim();
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(String(req.headers.authorization ?? ''));
  return bearer?.[1];
}

/**
 * Throws 401 unless the request may use a control endpoint. `token` undefined: loopback, open.
 * `sessionId`: a checkout path, which its link's signature also opens.
 */
export function requireControl(req: IncomingMessage, token: string | undefined, query: URLSearchParams, sessionId?: string): void {
  if (token === undefined) return;
  const presented = presentedToken(req);
  if (presented !== undefined && sameSecret(presented, token)) return;
  const signature = query.get('sig');
  if (sessionId !== undefined && signature && sameSecret(signature, checkoutSignature(token, sessionId))) return;
  const hint = `This sandbox listens on a non-loopback address, so its control endpoints need the control token printed at start-up (--json: controlToken): send it as ${CONTROL_TOKEN_HEADER}: <token>.`;
  if (presented === undefined) throw new HttpError(401, 'control_token_required', 'The /_sandbox control endpoints need the control token on this address.', hint);
  throw new HttpError(401, 'invalid_control_token', 'The control token is not the one this sandbox printed at start-up.', hint);
}
