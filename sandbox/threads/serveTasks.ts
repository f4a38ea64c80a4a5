/**
 * The worker's side of a WorkerPool: answers each task message with `handle`'s value, or with
 * `refusalOf` its error (structured-cloneable; the pool's kind reads it back into an error).
 */
import { parentPort } from 'node:worker_threads';
import { kernelThreadId } from './threadPriority.js';
import type { TaskMessage, TaskReply } from './workerPool.js';

export function serveTasks<Task, Output>(handle: (task: Task) => Output | Promise<Output>, refusalOf: (error: unknown) => unknown): void {
  const thread = kernelThreadId();
  parentPort!.on('message', async ({ id, task }: TaskMessage<Task>) => {
    // The pool's clock for this task starts now, not while the worker was still starting.
    parentPort!.postMessage({ id, started: true, ...(thread === undefined ? {} : { thread }) } satisfies TaskReply<Output>);
    let reply: TaskReply<Output>;
    try {
      reply = { id, ok: true, value: await handle(task) };
    } catch (error) {
      reply = { id, ok: false, refusal: refusalOf(error) };
    }
    parentPort!.postMessage(reply);
  });
}
