/** What every tool, resource and prompt handler of one MCP connection works with. */
import { isAbsolute, resolve } from 'node:path';
import type { ComplianceClient } from '../../api/client.js';
import type { SessionBudget } from './budget.js';

export interface McpContext {
  client: ComplianceClient;
  budget: SessionBudget;
  /** Mapping reports this server session produced (report://{jobId}), newest last. */
  reports: Map<string, { title: string }>;
  /** The last few charged answers of this connection, by tool and arguments: their next parts are read from here, free. */
  kept: Map<string, unknown>;
  /** Asks the user (elicitation) before a charged call above the threshold; throws when declined. */
  confirm(what: string, tokens: number): Promise<void>;
  resolveDirectory(directory: string): string;
}

export function resolveFrom(base: string, directory: string): string {
  return isAbsolute(directory) ? directory : resolve(base, directory);
}
