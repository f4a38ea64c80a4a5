/**
 * Entry of an extraction worker (a `node:worker_threads` thread of the sandbox). It reads one upload
 * per message with extractText and posts back the text or the rejection; the pool that owns it
 * enforces time and memory by terminating it. Bundled as its own file beside the CLI bundle
 * (dist/cli/sandbox-upload-worker.cjs); from the TypeScript sources it is loaded through
 * extractionPool's source loader.
 */
import { parentPort } from 'node:worker_threads';
import { extractText } from './extractText.js';
import type { ExtractionReply, ExtractionRequest } from './extractionPool.js';
import { UploadRejection } from './uploadRejection.js';

// Loaded while the worker waits for its first upload, so reading a PDF does not pay for loading pdf.js.
void import('unpdf').catch(() => undefined);

parentPort!.on('message', async (request: ExtractionRequest) => {
  // The pool's clock for this upload starts now, not while the worker was still starting.
  parentPort!.postMessage({ id: request.id, started: true } satisfies ExtractionReply);
  let reply: ExtractionReply;
  try {
    const extracted = await extractText(
      { data: request.data, filename: request.filename, ...(request.contentType ? { contentType: request.contentType } : {}) },
      request.limits,
    );
    reply = { id: request.id, ok: true, ...extracted };
  } catch (error) {
    reply =
      error instanceof UploadRejection
        ? { id: request.id, ok: false, rejection: { code: error.code, message: error.message, hint: error.hint, ...(error.limit ? { limit: error.limit } : {}) } }
        : { id: request.id, ok: false, failure: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
