/**
 * A JSON request body read as the sandbox reads every one, on the main thread (small bodies) or in a
 * JSON body parser worker (large ones): strict UTF-8, then JSON.parse. Its refusals name the fix.
 */

/** A body that is not UTF-8 JSON: answered 400 `invalid_json`. */
export class JsonBodyError extends Error {
  override readonly name = 'JsonBodyError';
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
  }
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export function decodeJsonBody(body: Uint8Array): unknown {
  return body.length === 0 ? {} : parseJsonText(decodeUtf8(body));
}

/** JSON is UTF-8 (RFC 8259): bytes that are not are refused, never silently replaced by U+FFFD. */
export function decodeUtf8(body: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(body);
  } catch {
    throw new JsonBodyError('The request body is not valid UTF-8.', 'Send the JSON encoded as UTF-8 with Content-Type: application/json.');
  }
}

export function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new JsonBodyError(`The request body is not valid JSON: ${(error as Error).message}.`, 'Send a JSON object with Content-Type: application/json.');
  }
}
