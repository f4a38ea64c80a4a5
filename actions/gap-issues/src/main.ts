// Entry of actions/gap-issues (bundled into ../dist/index.js); the implementation is in actions/shared.
import { gapIssuesAction } from '../../shared/gapIssues.js';
import { runAction } from '../../shared/runtime/run.js';

void runAction(gapIssuesAction);
