// Entry of actions/call (bundled into ../dist/index.js); the implementation is in actions/shared.
import { callAction } from '../../shared/call.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(callAction);
