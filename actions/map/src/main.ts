// Entry of actions/map (bundled into ../dist/index.js); the implementation is in actions/shared.
import { mapAction } from '../../shared/map.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(mapAction);
