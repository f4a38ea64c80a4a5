/**
 * One thread's scheduling priority (Linux: its nice value; a thread is a task of its own there, with
 * an id from /proc/thread-self). Elsewhere there is no id, and a thread keeps the process's priority.
 */
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { basename } from 'node:path';

/** The calling thread's kernel id ("<pid>/task/<tid>" → tid), or undefined where there is none. */
export function kernelThreadId(): number | undefined {
  try {
    return Number(basename(readlinkSync('/proc/thread-self'))) || undefined;
  } catch {
    return undefined;
  }
}

/** Lowers thread `thread` to the lowest priority; a thread that has ended, or a refusal, leaves it as it is. */
export function lowestPriority(thread: number): void {
  try {
    setPriority(thread, constants.priority.PRIORITY_LOW);
  } catch {
    // The thread has just ended, or the system refuses: it runs on at its priority.
  }
}
