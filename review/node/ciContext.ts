/**
 * The run's CI context from this process's environment and, in GitHub Actions, the webhook payload
 * the runner wrote to GITHUB_EVENT_PATH: the one reader the CLI and the actions share.
 */
import { readFileSync } from 'node:fs';
import { readCiContext, type CiContext } from '../ciContext.js';
import { eventPolicy, type EventPolicy } from '../events.js';

let read: { env: NodeJS.ProcessEnv; context: CiContext } | undefined;

/** The payload, or {} when there is none to read (no file, not JSON): the event then names no pull request and no base. */
function eventPayload(path: string | undefined): unknown {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch {
    return {};
  }
}

/** This process's CI context (read once; `env` other than process.env is read afresh, for tests). */
export function currentCiContext(env: NodeJS.ProcessEnv = process.env): CiContext {
  if (read?.env === env) return read.context;
  const context = readCiContext(env, env.GITHUB_ACTIONS === 'true' ? eventPayload(env.GITHUB_EVENT_PATH) : undefined);
  if (env === process.env) read = { env, context };
  return context;
}

/** What this run's event may change (review/events.ts decides). */
export function currentEventPolicy(env: NodeJS.ProcessEnv = process.env): EventPolicy {
  return eventPolicy(currentCiContext(env).event);
}
