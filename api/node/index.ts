// The main export of the compliance-engine-cli package: the client with Node adapters, its errors and
// its types. Here the client's transport, sleep and clock default to the Node ones:
//   new ComplianceClient({ apiKey, baseUrl })
import { ComplianceClient as CoreComplianceClient, type ComplianceClientOptions } from '../client.js';
import { envClient } from './env.js';
import { nodeSleep } from './sleep.js';
import { createNodeTransport } from './transport.js';

// The client, its errors and its types; the operation table and the lists the types come from. The
// request, retry and normalising machinery stays inside (api/index.ts), not part of what users import.
export { DEFAULT_TIMEOUT_MS, DEFAULT_USER_AGENT, type AuthHeader, type ComplianceClientOptions } from '../client.js';
export * from '../errors.js';
export type * from '../clientTypes.js';
export type { UploadFile } from '../schemas/requests.js';
export type { BinaryDownload, TextDownload } from '../schemas/responses.js';
export * from '../schemas/common.js';
export { operations, operationIds, isOperationId, type OperationId, type OperationInput, type OperationSpec, type Operations, type Cost, type RetryClass } from '../operations.js';
export { pollDelayMs } from '../jobs.js';
export type { LibraryFilter } from '../library.js';
export type { NodeTransportOptions } from './transport.js';

export type NodeClientOptions = Omit<ComplianceClientOptions, 'transport' | 'sleep'> &
  Partial<Pick<ComplianceClientOptions, 'transport' | 'sleep'>>;

export class ComplianceClient extends CoreComplianceClient {
  constructor(options: NodeClientOptions) {
    super({
      ...options,
      transport: options?.transport ?? createNodeTransport(),
      sleep: options?.sleep ?? nodeSleep,
      now: options?.now ?? Date.now,
    });
  }
}

/**
 * A client from COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL (`env` defaults to process.env);
 * `overrides` win over the environment. The rule is envClient's (api/node/env.ts), shared with the actions.
 */
export function clientFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<NodeClientOptions> = {},
): ComplianceClient {
  return envClient(env, { ...overrides, transport: overrides.transport ?? createNodeTransport() }, (options) => new ComplianceClient(options));
}
