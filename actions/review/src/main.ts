// Entry of actions/review (bundled into ../dist/index.js); the implementation is in actions/shared.
import { reviewAction } from '../../shared/review.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(reviewAction);
