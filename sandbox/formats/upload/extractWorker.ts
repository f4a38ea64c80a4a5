/**
 * Entry of an extraction worker (a `node:worker_threads` thread of the sandbox). It reads one upload
 * per message with extractText and posts back the text or the refusal; the pool that owns it
 * enforces time and memory by terminating it. Bundled as its own file (dist/workers/upload-extraction.cjs);
 * from the TypeScript sources it is loaded through the worker pool's source loader.
 */
import { serveTasks } from '../../threads/serveTasks.js';
import { extractText } from './extractText.js';
import type { ExtractionRefusal, ExtractionTask } from './extractionPool.js';
import { UploadRejection } from './uploadRejection.js';

// Loaded while the worker waits for its first upload, so reading a PDF does not pay for loading pdf.js.
void import('unpdf').catch(() => undefined);

serveTasks(
  (task: ExtractionTask) => extractText({ data: task.data, filename: task.filename, ...(task.contentType ? { contentType: task.contentType } : {}) }, task.limits),
  (error): ExtractionRefusal =>
    error instanceof UploadRejection
      ? { rejection: { code: error.code, message: error.message, hint: error.hint, ...(error.limit ? { limit: error.limit } : {}) } }
      : { failure: error instanceof Error ? error.message : String(error) },
);
