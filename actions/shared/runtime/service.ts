/**
 * The connection to the compliance service: the `api-key` and `base-url` inputs (falling back to
 * COMPLIANCE_API_KEY and COMPLIANCE_BASE_URL) and the client built from them. The key is masked
 * before anything else runs, so no later log line, summary or error can show it.
 */
import * as core from '@actions/core';
import type { ComplianceClient } from '../../../api/client.js';
import { envClient } from '../../../api/node/env.js';
import { retryNoticeText } from '../../../api/retry.js';
import { ComplianceValidationError } from '../../../api/errors.js';
import { InputError, textInput } from './inputs.js';
import { log } from './log.js';
import { sharedNodeTransport } from '../../../api/node/transport.js';

const API_KEY_INPUT = 'api-key';
const BASE_URL_INPUT = 'base-url';

/** The key from the input or the environment, masked in the log; undefined when neither is set. */
export function readApiKey(): string | undefined {
  const key = textInput(API_KEY_INPUT) ?? process.env.COMPLIANCE_API_KEY?.trim();
  if (key) core.setSecret(key);
  return key || undefined;
}

export function missingApiKeyError(): InputError {
  return new InputError(
    API_KEY_INPUT,
    'is empty, and COMPLIANCE_API_KEY is not set either',
    'Store the key as a repository secret and pass it: `api-key: ${{ secrets.COMPLIANCE_API_KEY }}`.',
  );
}

/**
 * How long a call may keep waiting out 429s and retries. A CI job has no one waiting at a prompt,
 * and many repositories may share one key, so a run queues for the key's windows (10 minutes)
 * rather than fail as an interactive CLI does after 2.
 */
const ACTION_RETRY_DEADLINE_MS = 600_000;

/** A client for this action; a malformed key or base URL fails here, before any request. */
export function createClient(apiKey: string, actionName: string): ComplianceClient {
  const baseUrl = textInput(BASE_URL_INPUT) ?? process.env.COMPLIANCE_BASE_URL?.trim();
  if (!baseUrl) {
    throw new InputError(BASE_URL_INPUT, 'is empty, and COMPLIANCE_BASE_URL is not set either', 'Pass `base-url: https://<host>/api/public/v1` (the address your key was issued for).');
  }
  try {
    // The inputs stand in for the environment: the same rule as the CLI's (api/node/env.ts).
    return envClient({ COMPLIANCE_API_KEY: apiKey, COMPLIANCE_BASE_URL: baseUrl }, {
      userAgent: `compliance-github-action/${actionName}`,
      transport: sharedNodeTransport(),
      maxElapsedMs: ACTION_RETRY_DEADLINE_MS,
      // A wait of a minute for a shared key's window is said in the log, not left as silence.
      onRetry: (notice) => log.info(retryNoticeText(notice)),
    });
  } catch (error) {
    if (error instanceof ComplianceValidationError && error.field === 'COMPLIANCE_BASE_URL') {
      // Said of the input the user set, in the client's own words.
      const said = error.cause instanceof ComplianceValidationError ? error.cause : error;
      throw new InputError(BASE_URL_INPUT, said.message, said.hint);
    }
    if (error instanceof ComplianceValidationError && (error.field === 'apiKey' || error.field === 'COMPLIANCE_API_KEY')) {
      throw new InputError(API_KEY_INPUT, 'is not a valid key (it must be one word, without spaces or line breaks)', 'Copy the key exactly as issued into the secret.');
    }
    throw error;
  }
}
