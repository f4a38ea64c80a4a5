/**
 * Entry of a mapping worker (a `node:worker_threads` thread of the sandbox): maps one document per
 * message with mapText. Bundled as dist/workers/mapping.cjs; from the TypeScript sources it is loaded
 * through the worker pool's source loader.
 */
import { serveTasks } from '../threads/serveTasks.js';
import { mapText } from './mapText.js';

serveTasks(mapText, (error) => (error instanceof Error ? error.message : String(error)));
