/**
 * Exit codes and the errors that map to them. Documented in `compliance --help` and the README:
 *   0 ok · 1 gate failed (a compliance failure) · 2 usage or configuration error ·
 *   3 service, auth, billing or budget error (and anything else that is not a verdict).
 */
import { ComplianceError, ComplianceValidationError } from '../../api/errors.js';
import { ConfigError, ReviewError } from '../../review/errors.js';
import { RepoFileError } from '../../review/node/files.js';
import { isUnknownFramework } from '../../review/verdict.js';
import { EXIT, type ExitCode } from './exitCodes.js';

// In their own module so `compliance --help` loads none of the error classes below.
export { EXIT, EXIT_CODES_HELP, exitCodesHelp, type ExitCode } from './exitCodes.js';

/** A wrong flag, argument or combination: exit 2, with what to do instead. */
export class UsageError extends Error {
  readonly hint: string | undefined;
  constructor(message: string, hint?: string) {
    super(message);
    this.name = 'UsageError';
    this.hint = hint;
  }
}

/** A failure talking to a third party the CLI calls itself (GitHub): exit 3. */
export class ExternalServiceError extends Error {
  readonly code: string;
  readonly hint: string | undefined;
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.name = 'ExternalServiceError';
    this.code = code;
    this.hint = hint;
  }
}

export interface DescribedError {
  exitCode: ExitCode;
  code: string;
  message: string;
  hint: string | undefined;
  /** Extra lines (one per config issue). */
  details: string[];
}

export function describeError(error: unknown): DescribedError {
  if (error instanceof UsageError) return { exitCode: EXIT.usage, code: 'usage', message: error.message, hint: error.hint, details: [] };
  if (error instanceof ConfigError) {
    return { exitCode: EXIT.usage, code: 'invalid_config', message: `${error.issues.length} problem${error.issues.length === 1 ? '' : 's'} in ${error.issues[0]?.file ?? 'the configuration'}`, hint: undefined, details: error.message.split('\n') };
  }
  if (error instanceof ReviewError) {
    // Not evaluated is the gate's answer (never passed), like a failed gate.
    const exitCode = error.code === 'budget_exceeded' ? EXIT.service : error.code === 'not_evaluated' ? EXIT.gateFailed : EXIT.usage;
    return { exitCode, code: error.code, message: error.message, hint: error.hint, details: [] };
  }
  if (error instanceof RepoFileError) return { exitCode: EXIT.usage, code: error.code, message: error.message, hint: error.hint, details: [] };
  if (error instanceof ComplianceValidationError) {
    // The API module's hint is per code, and `slug` shares invalid_id with library ids.
    const hint = (error as { field?: string }).field === 'slug' ? 'Use a framework slug such as hipaa-security: `compliance frameworks list` lists them.' : error.hint;
    return { exitCode: EXIT.usage, code: error.code, message: error.message, hint, details: [] };
  }
  if (error instanceof ComplianceError) {
    const requestId = (error as { requestId?: string }).requestId;
    // A framework the service does not know is the user's mistake (a misspelt slug), on every command.
    const exitCode = isUnknownFramework(error.code) ? EXIT.usage : EXIT.service;
    return { exitCode, code: error.code, message: error.message, hint: error.hint, details: requestId ? [`request id: ${requestId}`] : [] };
  }
  if (error instanceof ExternalServiceError) return { exitCode: EXIT.service, code: error.code, message: error.message, hint: error.hint, details: [] };
  if (error instanceof Error && String((error as NodeJS.ErrnoException).code ?? '').startsWith('ERR_PARSE_ARGS')) {
    return { exitCode: EXIT.usage, code: 'usage', message: error.message, hint: 'Run the command with --help for its options.', details: [] };
  }
  if (error instanceof Error && (error as NodeJS.ErrnoException).code && (error as NodeJS.ErrnoException).syscall) {
    // A file system error outside the repo helpers (--output, --report-dir): the user's path.
    return { exitCode: EXIT.usage, code: String((error as NodeJS.ErrnoException).code), message: error.message, hint: undefined, details: [] };
  }
  return { exitCode: EXIT.service, code: 'internal_error', message: error instanceof Error ? error.message : String(error), hint: 'This is a bug in the compliance CLI: please report it with the command you ran.', details: [] };
}
