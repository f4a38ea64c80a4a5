/**
 * Local validation: turns schema issues into ComplianceValidationError with the service's own
 * codes where the spec names one, the field's path, and a hint that says how to fix it.
 */
import type { z } from 'zod/v4/mini';
import { ComplianceValidationError } from './errors.js';
import { CADENCES, FORMATS, LIMITS, PACK_CODES } from './schemas/common.js';
import { once } from './schemas/lazy.js';
import type { UploadFile } from './schemas/requests.js';
import { checkUpload } from './upload.js';

/** Each refusal code's hint. Exported so that a test builds it fresh: the refusals read it built once. */
export const refusalHints = (): Record<string, string> => ({
  missing_query: 'Describe what you need in plain language, for example "health data privacy in the US".',
  missing_framework: 'Name the framework or standard, for example "NIST CSF 2.0" or a slug from suggestFrameworks.',
  missing_content: 'Pass the document text as content, or a file to upload.',
  unsupported_format: `Use one of: ${FORMATS.join(', ')}.`,
  empty_document: "Send the document's text: without a letter or digit (white space, invisible characters, punctuation or symbols alone) it is not a document.",
  content_too_short: `Library documents need at least ${LIMITS.libraryMinChars} characters; merge very short files or add content.`,
  content_too_long: `Library documents hold at most ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters; split the document.`,
  invalid_pack: `Use one of: ${PACK_CODES.join(', ')}.`,
  invalid_threshold: `Use a whole number of tokens of at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')}.`,
  invalid_cadence: `Use one of: ${CADENCES.join(', ')}.`,
  invalid_timestamp: 'Use an ISO 8601 timestamp with a zone, for example 2026-12-01T09:00:00Z.',
  invalid_job_id: 'Use the jobId (a UUID) returned when the job was created.',
  invalid_id: 'Use the id returned by ingest or the library listing.',
  unknown_field: 'Remove the field or check its spelling against the operation description.',
  invalid_request: 'Check the value against the operation description.',
});
// Built at the first refusal: the first toLocaleString of a process loads ICU's number formats,
// 15-25 ms of an action's start before its first request.
const hints = once(refusalHints);

/**
 * Field-specific codes for schema issues that are not custom issues carrying their own code (the
 * library's content limits are such custom issues). The two operations with a `query` field,
 * discovery and search, both require it: any issue there means it is missing.
 */
function codeFor(field: string, issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' && typeof issue.params?.code === 'string') return issue.params.code;
  if (issue.code === 'unrecognized_keys') return 'unknown_field';
  switch (field) {
    case 'format':
      return 'unsupported_format';
    case 'pack':
      return 'invalid_pack';
    case 'thresholdTokens':
      return 'invalid_threshold';
    case 'cadence':
      return 'invalid_cadence';
    case 'firstReviewAt':
      return 'invalid_timestamp';
    case 'jobId':
      return 'invalid_job_id';
    case 'id':
    case 'slug':
      return 'invalid_id';
    case 'query':
      return 'missing_query';
    case 'framework':
      return 'missing_framework';
    default:
      return 'invalid_request';
  }
}

function describe(field: string, issue: z.core.$ZodIssue, input: unknown): string {
  if (issue.code === 'unrecognized_keys') {
    const where = field ? ` in ${field}` : '';
    return `unknown field${issue.keys.length > 1 ? 's' : ''}${where}: ${issue.keys.join(', ')}`;
  }
  if (issue.code === 'invalid_type' && valueAt(input, issue.path) === undefined) {
    return `${field} is required`;
  }
  if (issue.code === 'invalid_value' && 'values' in issue) {
    return `${field} must be one of: ${issue.values.map(String).join(', ')}`;
  }
  if (issue.code === 'custom') return issue.message;
  return field ? `${field} ${issue.message.replace(/^Invalid input: /, '').replace(/^Too (small|big): /, '')}` : issue.message;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** Validates `input` against `schema`; returns the parsed (normalised) value or throws. */
export function validateInput<S extends z.ZodMiniType>(operationId: string, schema: S, input: unknown): z.output<S> {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new ComplianceValidationError({
      code: 'invalid_request',
      field: '',
      operationId,
      message: `${operationId}: input must be a JSON object`,
      hint: 'Pass an object such as {} or {"jobId": "…"}.',
    });
  }
  const result = schema.safeParse(input);
  if (result.success) {
    const file = (result.data as { file?: UploadFile } | undefined)?.file;
    if (file !== undefined) checkUpload(file, operationId);
    return result.data;
  }
  const issue = result.error.issues[0]!;
  const field = issue.path.map(String).join('.');
  const code = codeFor(field, issue);
  throw new ComplianceValidationError({
    code,
    field,
    operationId,
    message: `${operationId}: ${describe(field, issue, input)}`,
    hint: hints()[code] ?? hints().invalid_request,
  });
}
