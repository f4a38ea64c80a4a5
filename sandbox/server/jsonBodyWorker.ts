/**
 * Entry of a JSON body parser (a `node:worker_threads` thread of the sandbox, owned by
 * jsonBodyPool.ts): one request body per message, decoded as strict UTF-8 and parsed; the value goes
 * back by structured clone. Bundled as dist/workers/json-body.cjs.
 */
import { serveTasks } from '../threads/serveTasks.js';
import { decodeUtf8, JsonBodyError, parseJsonText } from './jsonText.js';
import { MAX_CLONED_DEPTH, type JsonBodyRefusal, type ParsedBody } from './jsonBodyPool.js';

/** Whether `value` nests deeper than `limit` (arrays and objects), walked without recursion. */
function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth >= limit) return true;
    for (const child of Object.values(item)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

serveTasks(
  (body: Uint8Array): ParsedBody => {
    if (body.length === 0) return { value: {} };
    const text = decodeUtf8(body);
    const value = parseJsonText(text);
    // Structured clone recurses: a value nested too deep for it goes back as its text.
    return nestsDeeperThan(value, MAX_CLONED_DEPTH) ? { text } : { value };
  },
  (error): JsonBodyRefusal =>
    error instanceof JsonBodyError ? { message: error.message, hint: error.hint } : { message: `The request body could not be parsed: ${String(error)}.`, hint: 'Send a JSON object with Content-Type: application/json.' },
);
