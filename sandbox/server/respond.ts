/** Writing responses: JSON bodies, downloads and the error envelope. */
import type { ServerResponse } from 'node:http';
import { HttpError } from './httpError.js';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(data),
    'cache-control': 'no-store',
  });
  res.end(data);
}

export function sendBytes(
  res: ServerResponse,
  status: number,
  body: Uint8Array | string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  const data = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  res.writeHead(status, { ...headers, 'content-type': contentType, 'content-length': data.byteLength, 'cache-control': 'no-store' });
  res.end(data);
}

export function errorBody(error: HttpError, requestId: string) {
  return { error: { code: error.code, message: error.message, hint: error.hint, requestId, ...error.details } };
}

export function sendError(res: ServerResponse, error: HttpError, requestId: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, error.status, errorBody(error, requestId), { ...headers, ...error.headers });
}

export function internalError(): HttpError {
  return new HttpError(500, 'internal_error', 'The sandbox failed to handle this request.', 'Retry; if it persists, quote the request id in a bug report.');
}
