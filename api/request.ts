/**
 * Turning a `call` input into an HTTP request, by the convention every caller shares (client, CLI
 * `compliance call`, n8n node): path parameters are top-level keys, encoded into the path; the other
 * keys become the query for GET and DELETE and the JSON body for POST and PUT. A mapping input
 * with `file` becomes a multipart upload.
 */
import type { OperationSpec } from './operations.js';
import type { UploadFile } from './schemas/requests.js';
import { buildMultipart } from './upload.js';

export interface PreparedRequest {
  method: OperationSpec['method'];
  /** Path relative to the base URL, parameters encoded, query included. */
  path: string;
  /** Content type of `body`, when there is one. */
  contentType?: string;
  body?: string | Uint8Array;
}

function queryValue(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function isUploadFile(value: unknown): value is UploadFile {
  return typeof value === 'object' && value !== null && 'data' in value && 'filename' in value;
}

/** Builds the request of an operation from its already validated input. */
export async function prepareRequest(
  operation: OperationSpec,
  input: Record<string, unknown>,
  random: () => number,
): Promise<PreparedRequest> {
  const rest: Record<string, unknown> = { ...input };
  const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = rest[name];
    delete rest[name];
    return encodeURIComponent(String(value));
  });
  for (const [key, value] of Object.entries(rest)) if (value === undefined) delete rest[key];

  if (operation.method === 'GET' || operation.method === 'DELETE') {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(rest)) {
      for (const item of Array.isArray(value) ? value : [value]) query.append(key, queryValue(item));
    }
    const search = query.toString();
    return { method: operation.method, path: search ? `${path}?${search}` : path };
  }

  if (operation.multipart && isUploadFile(rest.file)) {
    const { file, ...fields } = rest;
    const textFields = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, queryValue(value)]));
    const multipart = await buildMultipart(textFields, file, random);
    return { method: operation.method, path, contentType: multipart.contentType, body: multipart.body };
  }
  return { method: operation.method, path, contentType: 'application/json', body: JSON.stringify(rest) };
}
