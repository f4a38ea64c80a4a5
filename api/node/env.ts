/**
 * The one client-from-environment: COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL (or overrides), with
 * the missing and malformed cases named by the variable the user sets. Free of any transport, so each
 * Node surface passes its own (the CLI's undici one, the actions' node:http one) and nothing more is
 * bundled than it uses.
 */
import { ComplianceClient, type ComplianceClientOptions } from '../client.js';
import { ComplianceValidationError } from '../errors.js';
import { nodeSleep } from './sleep.js';

type EnvClientOptions = Partial<ComplianceClientOptions> & Pick<ComplianceClientOptions, 'transport'>;

/** A client from `env` (overrides win); Node's sleep and clock unless given. */
export function envClient<C extends ComplianceClient>(
  env: Record<string, string | undefined>,
  overrides: EnvClientOptions,
  create: (options: ComplianceClientOptions) => C = (options) => new ComplianceClient(options) as C,
): C {
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
    return create({ sleep: nodeSleep, now: Date.now, ...overrides, apiKey, baseUrl });
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
