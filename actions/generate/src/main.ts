// Entry of actions/generate (bundled into ../dist/index.js); the implementation is in actions/shared.
import { generateAction } from '../../shared/generate.js';
import { runAction } from '../../shared/runtime/run.js';

/** The action's one run (the bundle calls it when run as `node dist/index.js`; @github/local-action calls it itself). */
export function run(): Promise<void> {
  return runAction(generateAction);
}
