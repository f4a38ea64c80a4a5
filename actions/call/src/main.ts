// Entry of actions/call (bundled into ../dist/index.js); the implementation is in actions/shared.
import { callAction } from '../../shared/call.js';
import { runAction } from '../../shared/runtime/run.js';

/** The action's one run (the bundle calls it when run as `node dist/index.js`; @github/local-action calls it itself). */
export function run(): Promise<void> {
  return runAction(callAction);
}
