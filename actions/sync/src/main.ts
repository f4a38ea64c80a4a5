// Entry of actions/sync (bundled into ../dist/index.js); the implementation is in actions/shared.
import { syncAction } from '../../shared/sync.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(syncAction);
