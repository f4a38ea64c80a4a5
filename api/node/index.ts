// The main export of the compliance-engine-cli package: the core plus Node adapters. Here the
// client's transport, sleep and clock default to the Node ones:
//   new ComplianceClient({ apiKey, baseUrl })
import { ComplianceClient as CoreComplianceClient, type ComplianceClientOptions } from '../client.js';
import { envClient } from './env.js';
import { nodeSleep } from './sleep.js';
import { createNodeTransport } from './transport.js';

export * from '../index.js';
export { createNodeTransport, createDefaultDispatcher, classifyNodeError, type NodeTransportOptions } from './transport.js';
export { nodeSleep } from './sleep.js';
export { envClient, type EnvClientOptions } from './env.js';

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
