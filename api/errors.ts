/**
 * Typed errors. Every failure the API module raises is a ComplianceError; callers branch on
 * `code` (stable, machine-readable) and show `message` + `hint` to people.
 */
import type { ServiceErrorCode } from './generated/clientMethods.js';

export type { ServiceErrorCode };

/** Codes the client raises itself (validation, transport, jobs, ambiguous charged calls). */
export type ClientErrorCode =
  | 'aborted'
  | 'bad_gateway'
  | 'conflict'
  | 'forbidden'
  | 'invalid_api_key'
  | 'invalid_base_url'
  | 'invalid_cadence'
  | 'invalid_id'
  | 'invalid_job_id'
  | 'invalid_option'
  | 'invalid_pack'
  | 'invalid_threshold'
  | 'invalid_timestamp'
  | 'job_failed'
  | 'job_timeout'
  | 'missing_api_key'
  | 'missing_base_url'
  | 'network_error'
  | 'outcome_unknown'
  | 'server_error'
  | 'timeout'
  | 'unauthorized'
  | 'unexpected_response'
  | 'unknown_operation';

/**
 * Every documented code: the client's own and the service's (generated from the operation table's
 * error documentation). A code the service adds later still arrives, as the string it sent.
 */
export type ComplianceErrorCode = ClientErrorCode | ServiceErrorCode | (string & {});

export interface ComplianceErrorInit {
  code: ComplianceErrorCode;
  message: string;
  hint?: string;
  operationId?: string;
  cause?: unknown;
}

export class ComplianceError extends Error {
  readonly code: ComplianceErrorCode;
  readonly hint: string | undefined;
  readonly operationId: string | undefined;

  constructor(init: ComplianceErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ComplianceError';
    this.code = init.code;
    this.hint = init.hint;
    this.operationId = init.operationId;
  }

  /** One line for logs and CLIs: message, then the hint. */
  toDisplayString(): string {
    return this.hint ? `${this.message} (${this.hint})` : this.message;
  }
}

/** Input rejected locally, before anything was sent: nothing was spent. */
export class ComplianceValidationError extends ComplianceError {
  /** Dotted path of the offending input field, for example `organisation.country`. */
  readonly field: string;

  constructor(init: ComplianceErrorInit & { field: string }) {
    super(init);
    this.name = 'ComplianceValidationError';
    this.field = init.field;
  }
}

export interface ComplianceApiErrorInit extends ComplianceErrorInit {
  /** HTTP status; undefined when no response arrived (network failure, timeout). */
  status?: number;
  requestId?: string;
  retryAfterMs?: number;
  /** Extra fields of the error envelope beyond code/message/hint/requestId (e.g. documentId). */
  details?: Record<string, unknown>;
}

/**
 * A failure talking to the service: an error envelope, a non-JSON error page, a network failure
 * (`network_error`), a timeout (`timeout`) or an ambiguous charged request (`outcome_unknown`).
 */
export class ComplianceApiError extends ComplianceError {
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown>;

  constructor(init: ComplianceApiErrorInit) {
    super(init);
    this.name = 'ComplianceApiError';
    this.status = init.status;
    this.requestId = init.requestId;
    this.retryAfterMs = init.retryAfterMs;
    this.details = init.details ?? {};
  }

  override toDisplayString(): string {
    const parts = [this.message];
    if (this.hint) parts.push(`hint: ${this.hint}`);
    if (this.requestId) parts.push(`request id: ${this.requestId}`);
    return parts.join(' | ');
  }
}

/** A job that ended in `failed`, with the service's reason. */
export class ComplianceJobError extends ComplianceError {
  readonly jobId: string;
  readonly job: unknown;

  constructor(init: ComplianceErrorInit & { jobId: string; job: unknown }) {
    super(init);
    this.name = 'ComplianceJobError';
    this.jobId = init.jobId;
    this.job = init.job;
  }
}

/** A job still not finished when the wait's `timeoutMs` ran out (code `job_timeout`); the job itself goes on. */
export class ComplianceJobTimeoutError extends ComplianceError {
  readonly jobId: string;
  /** The last status seen, when any poll answered. */
  readonly job: unknown;

  constructor(init: ComplianceErrorInit & { jobId: string; job: unknown }) {
    super(init);
    this.name = 'ComplianceJobTimeoutError';
    this.jobId = init.jobId;
    this.job = init.job;
  }
}
