import { setTimeout as delay } from 'node:timers/promises';
import type { Sleep } from '../transport.js';

/** The Node sleep: a timer that rejects early when `signal` aborts. */
export const nodeSleep: Sleep = async (ms, signal) => {
  await delay(ms, undefined, signal ? { signal } : undefined);
};
