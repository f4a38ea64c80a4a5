// Entry of actions/generate (bundled into ../dist/index.js); the implementation is in actions/shared.
import { generateAction } from '../../shared/generate.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(generateAction);
