/** Every keyed operation's handler; the type makes a missing one a compile error. */
import { accountHandlers } from './account.js';
import { billingHandlers } from './billing.js';
import { documentHandlers } from './documents.js';
import { frameworkHandlers } from './frameworks.js';
import { libraryHandlers } from './library.js';
import type { HandlerTable } from './types.js';

export const handlers: HandlerTable = {
  ...accountHandlers,
  ...frameworkHandlers,
  ...documentHandlers,
  ...libraryHandlers,
  ...billingHandlers,
};

export type { HandlerContext, Reply } from './types.js';
