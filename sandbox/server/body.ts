/**
 * Request input in the `call` convention: path parameters, plus the query (GET, DELETE) or the body
 * (POST, PUT: JSON, or multipart for operations that take an upload). Bodies are size-limited; a
 * body over the limit is drained and answered 413 with the envelope.
 */
import type { IncomingMessage } from 'node:http';
import { z } from 'zod/v4/mini';
import { operations, type OperationId, type OperationSpec } from '../../api/operations.js';
import { LIMITS } from '../../api/schemas/common.js';
import { bodyBytesRead } from './bodyMemory.js';
import { HttpError } from './httpError.js';
import { LARGE_JSON_BODY_BYTES, parseLargeJson } from './jsonBodyPool.js';
import { decodeJsonBody, JsonBodyError } from './jsonText.js';

/** JSON bodies: library content is at most 300,000 characters, which JSON escaping can double. */
const JSON_BODY_LIMIT = 2 * 1024 * 1024;
/** Multipart uploads (and JSON content for mapping): the 10 MB file plus room for the form's framing and fields. */
const UPLOAD_BODY_LIMIT = LIMITS.uploadMaxBytes + 256 * 1024;
/** A body this far over the limit is not drained any further: the connection is closed. */
const DRAIN_CAP = 64 * 1024 * 1024;

function bodyLimitFor(operation: OperationSpec): number {
  return operation.multipart ? UPLOAD_BODY_LIMIT : JSON_BODY_LIMIT;
}

function tooLarge(limit: number): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body exceeds ${limit.toLocaleString('en-US')} bytes.`,
    `Uploads are limited to ${(LIMITS.uploadMaxBytes / 1024 / 1024).toFixed(0)} MB and JSON bodies to ${(JSON_BODY_LIMIT / 1024 / 1024).toFixed(0)} MB; split the document.`,
    { headers: { connection: 'close' } },
  );
}

function stalled(): HttpError {
  return new HttpError(408, 'request_timeout', 'The request body stalled: no bytes arrived within the time limit.', 'Send the whole request without pausing; the connection is closed.', {
    headers: { connection: 'close' },
  });
}

/**
 * The body, read to its end. A body that stops arriving is refused 408 once the socket's
 * inactivity timer fires (the server arms it per request with the body-stall limit): time counts
 * from the last byte, so a slow body that keeps coming is read whatever its total time.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  const chunks: Buffer[] = [];
  let received = 0;
  let over = declared > limit;
  return new Promise((resolve, reject) => {
    const settle = (error?: Error) => {
      req.off('data', onData).off('end', onEnd).off('error', settle).off('close', onClose).off('timeout', onStall);
      // Read (or refused): the handler's own time is not the client's stall.
      req.setTimeout(0);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      bodyBytesRead(chunk.length);
      if (received > limit) over = true;
      // Over the limit, keep reading so the client can finish sending and read the 413, up to a cap.
      if (over && received > DRAIN_CAP) {
        req.destroy();
        settle(tooLarge(limit));
      } else if (!over) chunks.push(chunk);
    };
    const onEnd = () => settle(over ? tooLarge(limit) : undefined);
    const onClose = () => settle(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    const onStall = () => settle(stalled());
    req.on('data', onData).once('end', onEnd).once('error', settle).once('close', onClose).once('timeout', onStall);
  });
}

/** Reads and drops the rest of a body refused unread, so the client, done sending, reads the answer. */
export function drain(req: IncomingMessage): void {
  req.on('data', (chunk: Buffer) => bodyBytesRead(chunk.length)).resume();
}

/** Which query fields are numbers or booleans, from the input schema (query values arrive as strings). */
const queryFieldTypes = new Map<OperationId, Record<string, string>>(
  (Object.values(operations) as Array<OperationSpec & { id: OperationId }>)
    .filter((op) => op.method === 'GET' || op.method === 'DELETE')
    .map((op) => {
      const schema = z.toJSONSchema(op.input, { io: 'input', unrepresentable: 'any' }) as {
        properties?: Record<string, { type?: string }>;
      };
      const types = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, prop]) => [name, prop.type ?? 'string']));
      return [op.id, types];
    }),
);

/** Query fields by name, as own properties (a field named `__proto__` is a field, not the object's prototype). */
function coerceQuery(operationId: OperationId, query: URLSearchParams): Record<string, unknown> {
  const types = queryFieldTypes.get(operationId) ?? {};
  const input = new Map<string, unknown>();
  for (const [name, value] of query) {
    const type = Object.hasOwn(types, name) ? types[name] : undefined;
    if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) input.set(name, Number(value));
    else if (type === 'boolean' && (value === 'true' || value === 'false')) input.set(name, value === 'true');
    else input.set(name, value);
  }
  return Object.fromEntries(input);
}

/** Small bodies are parsed here; large ones in a worker (jsonBodyPool.ts), so they never hold the event loop. */
async function parseJson(body: Buffer, owner: string): Promise<unknown> {
  try {
    return body.length >= LARGE_JSON_BODY_BYTES ? await parseLargeJson(body, owner) : decodeJsonBody(body);
  } catch (error) {
    if (error instanceof JsonBodyError) throw new HttpError(400, 'invalid_json', error.message, error.hint);
    throw error;
  }
}

async function parseMultipart(body: Buffer, contentType: string): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Request('http://sandbox.invalid/', { method: 'POST', headers: { 'content-type': contentType }, body }).formData();
  } catch {
    throw new HttpError(400, 'invalid_multipart', 'The multipart body could not be parsed.', 'Send multipart/form-data with the file in the field "file".');
  }
  // Own properties by field name, as JSON.parse makes them: a field named `__proto__` stays a field.
  const input = new Map<string, unknown>();
  for (const [name, value] of form) {
    if (typeof value === 'string') {
      input.set(name, value);
    } else if (name === 'file') {
      input.set('file', { data: new Uint8Array(await value.arrayBuffer()), filename: value.name || 'upload', contentType: value.type || undefined });
    } else {
      throw new HttpError(400, 'invalid_multipart', `Unexpected file in field "${name}".`, 'Send the file in the field "file".');
    }
  }
  return Object.fromEntries(input);
}

/** Assembles the raw input of an operation; validation follows with the table's schema. */
export async function readInput(
  req: IncomingMessage,
  operation: OperationSpec & { id: OperationId },
  pathParams: Record<string, string>,
  query: URLSearchParams,
  /** Whose request it is (an API key's hash): large bodies are parsed in that key's turn. */
  owner = '',
): Promise<unknown> {
  if (operation.method === 'GET' || operation.method === 'DELETE') {
    return { ...coerceQuery(operation.id, query), ...pathParams };
  }
  const body = await readBody(req, bodyLimitFor(operation));
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  let input: unknown;
  if (contentType.startsWith('multipart/form-data')) {
    if (!operation.multipart) {
      throw new HttpError(415, 'unsupported_media_type', `${operation.id} takes a JSON body, not multipart.`, 'Send Content-Type: application/json.');
    }
    input = await parseMultipart(body, String(req.headers['content-type']));
  } else if (
    contentType === '' ||
    contentType.startsWith('application/json') ||
    contentType.includes('+json') ||
    // curl -d sends this by default; the body is still the JSON the user typed.
    contentType.startsWith('application/x-www-form-urlencoded')
  ) {
    input = await parseJson(body, owner);
  } else {
    throw new HttpError(
      415,
      'unsupported_media_type',
      `Content-Type ${contentType.split(';')[0]} is not accepted here.`,
      operation.multipart ? 'Send application/json, or multipart/form-data with the file in the field "file".' : 'Send Content-Type: application/json.',
    );
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new HttpError(400, 'invalid_request', 'The request body must be a JSON object.', 'Send an object such as {"query": "…"}.');
  }
  return { ...(input as Record<string, unknown>), ...pathParams };
}
