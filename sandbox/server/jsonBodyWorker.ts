/**
 * Entry of a JSON body parser (a `node:worker_threads` thread of the sandbox, owned by
 * jsonBodyPool.ts): one request body per message, decoded as strict UTF-8 and parsed; the value goes
 * back by structured clone. Bundled as dist/workers/json-body.cjs.
 */
import { serveTasks } from '../threads/serveTasks.js';
import { decodeJsonBody, JsonBodyError } from './jsonText.js';
import type { JsonBodyRefusal } from './jsonBodyPool.js';

serveTasks(
  (body: Uint8Array) => decodeJsonBody(body),
  (error): JsonBodyRefusal =>
    error instanceof JsonBodyError ? { message: error.message, hint: error.hint } : { message: `The request body could not be parsed: ${String(error)}.`, hint: 'Send a JSON object with Content-Type: application/json.' },
);
