// The main export of the compliance-engine-cli package: the core plus Node adapters. Here the
// client's transport, sleep and clock default to the Node ones:
//   new ComplianceClient({ apiKey, baseUrl })
import { ComplianceClient as CoreComplianceClient, type ComplianceClientOptions } from '../client.js';
import { ComplianceValidationError } from '../errors.js';
import { nodeSleep } from './sleep.js';
import { createNodeTransport } from './transport.js';

export * from '../index.js';
export { createNodeTransport, createDefaultDispatcher, classifyNodeError, type NodeTransportOptions } from './transport.js';
export { nodeSleep } from './sleep.js';

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
 * `overrides` win over the environment.
 */
export function clientFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<NodeClientOptions> = {},
): ComplianceClient {
  const apiKey = overrides.apiKey ?? env.COMPLIANCE_API_KEY?.trim();
  const baseUrl = overrides.baseUrl ?? env.COMPLIANCE_BASE_URL?.trim();
  if (!apiKey) {
    throw new ComplianceValidationError({
      code: 'missing_api_key',
      field: 'COMPLIANCE_API_KEY',
      message: 'COMPLIANCE_API_KEY is not set',
      hint: 'Set COMPLIANCE_API_KEY to your API key (shown once when issued); in GitHub Actions pass it from a secret.',
    });
  }
  if (!baseUrl) {
    throw new ComplianceValidationError({
      code: 'missing_base_url',
      field: 'COMPLIANCE_BASE_URL',
      message: 'COMPLIANCE_BASE_URL is not set',
      hint: 'Set COMPLIANCE_BASE_URL to https://<host>/api/public/v1, or to http://127.0.0.1:<port> for the local sandbox (compliance sandbox).',
    });
  }
  try {
    return new ComplianceClient({ ...overrides, apiKey, baseUrl });
  } catch (error) {
    if (error instanceof ComplianceValidationError && error.field === 'baseUrl' && overrides.baseUrl === undefined) {
      throw new ComplianceValidationError({
        code: error.code,
        field: 'COMPLIANCE_BASE_URL',
        message: `COMPLIANCE_BASE_URL: ${error.message}`,
        hint: error.hint,
        cause: error,
      });
    }
    throw error;
  }
}
