/**
 * Large JSON bodies parsed off the server's event loop (issue 25): decoding and parsing 2 MB of JSON
 * takes the main thread about 12 ms, time every other key's request waits for, and a key sending
 * such bodies back to back would hold it. Bodies over LARGE_JSON_BODY_BYTES are parsed in a
 * WorkerPool (sandbox/threads) of two workers, at most one per key at a time and seven more of a key
 * waiting; beyond that the key is refused at once (429 `rate_limited`), before anything is parsed.
 * Seven: twice a key's 4 pending mappings (handlers/documents.ts), so concurrent mappings meet the
 * mapping admission, whose `mappings_busy` says why, and this bound only stops a key from stacking
 * bodies without end.
 * Smaller bodies are parsed where they arrive: a worker round trip would cost them more than it saves.
 */
import { WorkerPool, WorkerPoolBusy, type WorkerKind } from '../threads/workerPool.js';
import { HttpError, tooManyRequests } from './httpError.js';
import { JsonBodyError, parseJsonText } from './jsonText.js';

/** From this size a JSON body is parsed in a worker. */
export const LARGE_JSON_BODY_BYTES = 256 * 1024;

/** Nesting the worker sends back by structured clone, which recurses; deeper values come back as text. */
export const MAX_CLONED_DEPTH = 1_000;

/**
 * The worker's answer: the parsed value, or the decoded text of a value nested deeper than
 * MAX_CLONED_DEPTH (parsed again here: JSON.parse takes any depth; such bodies are rare and hostile).
 */
export type ParsedBody = { value: unknown } | { text: string };

/** What the worker answers for a body it cannot read (read back as a JsonBodyError: 400 `invalid_json`). */
export interface JsonBodyRefusal {
  message: string;
  hint: string;
}

const JSON_BODY_PARSER: WorkerKind<Uint8Array> = {
  name: 'JSON body parser',
  sourceEntry: 'server/jsonBodyWorker.ts',
  bundledFile: 'workers/json-body.cjs',
  // A 10 MB body (the largest a mapping's JSON may be) parses in well under 64 MB of heap.
  resourceLimits: { maxOldGenerationSizeMb: 128, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  transfer: (body) => [body.buffer as ArrayBuffer],
  refusal: (refusal) => {
    const { message, hint } = refusal as JsonBodyRefusal;
    return { error: new JsonBodyError(message, hint), retire: false };
  },
  timeLimit: () => new HttpError(413, 'payload_too_large', 'The request body took too long to parse.', 'Send a smaller JSON body; split the document.'),
  memoryLimit: () => new HttpError(413, 'payload_too_large', 'The request body needed too much memory to parse.', 'Send a smaller JSON body; split the document.'),
  busyMessage: (queued) => `This key already has a large request body being parsed and ${queued} more waiting. Nothing was charged.`,
};

let pool: WorkerPool<Uint8Array, ParsedBody> | undefined;

/**
 * The JSON value of `body`, parsed in a worker for `owner` (an API key's hash). The pool is shared
 * by every sandbox server of the process and started on first use; its workers do not keep the
 * process alive (the pool unrefs them).
 */
/** Rejects with JsonBodyError (not UTF-8 JSON), HttpError (429 busy; 413 over the worker's time or memory) or Error. */
export async function parseLargeJson(body: Buffer, owner: string): Promise<unknown> {
  pool ??= new WorkerPool(JSON_BODY_PARSER, { maxSeconds: 10, maxWorkerMemoryBytes: 256 * 1024 * 1024 }, { size: 2, perOwner: 1, queue: 7 });
  // The worker gets the bytes moved, not copied; a Buffer may share its memory with others, so it gets its own.
  const bytes = body.byteOffset === 0 && body.byteLength === body.buffer.byteLength ? new Uint8Array(body.buffer, 0, body.byteLength) : new Uint8Array(body);
  let parsed: ParsedBody;
  try {
    parsed = await pool.run(bytes, owner);
  } catch (error) {
    if (error instanceof WorkerPoolBusy) throw tooManyRequests('rate_limited', error.message, error.retryAfterSeconds * 1000, 'or send smaller bodies one at a time');
    throw error;
  }
  return 'value' in parsed ? parsed.value : parseJsonText(parsed.text);
}
