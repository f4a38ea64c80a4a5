// Entry of actions/suggest (bundled into ../dist/index.js); the implementation is in actions/shared.
import { suggestAction } from '../../shared/suggest.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(suggestAction);
