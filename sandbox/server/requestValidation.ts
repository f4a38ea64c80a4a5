/**
 * The sandbox's own request validation: Ajv (JSON Schema 2020-12, as OpenAPI 3.1 uses) over the
 * OpenAPI document the sandbox serves, not the client's zod validation. Both come from the operation
 * table, but a request schema bug now has two independent readings that a test can compare
 * (test/sandbox/requestAgreement.test.ts). Each operation's validators are compiled once.
 * An Ajv error becomes the service's 400 envelope: the code the service gives that field, a message
 * naming the field, and a hint saying how to fix it.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { OperationId } from '../../api/operations.js';
import { BLANK_TEXT, characterCount, LETTER_OR_DIGIT } from '../../api/schemas/common.js';
import { HttpError } from './httpError.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; required?: string[]; description?: string };

interface OperationDoc {
  operationId: OperationId;
  parameters?: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
}

interface Validators {
  /** Path and query parameters as one object (undeclared query parameters are refused). */
  params: ValidateFunction;
  json?: ValidateFunction;
  multipart?: ValidateFunction;
  pathNames: string[];
}

/** Which part of the request arrived: validation picks the body schema of its media type. */
type RequestKind = 'params' | 'json' | 'multipart';

/** The service's code for a refused field, by field name (codeOf adds the per-operation ones). */
const FIELD_CODES: Record<string, string> = {
  format: 'unsupported_format',
  pack: 'invalid_pack',
  thresholdTokens: 'invalid_threshold',
  cadence: 'invalid_cadence',
  firstReviewAt: 'invalid_timestamp',
  jobId: 'invalid_job_id',
  id: 'invalid_id',
  slug: 'invalid_id',
  framework: 'missing_framework',
};

function codeOf(operationId: OperationId, field: string, error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') return 'unknown_field';
  if (field === 'content') {
    if (operationId === 'mapDocument') return error.keyword === 'required' || error.keyword === 'pattern' ? 'missing_content' : 'invalid_request';
    if (error.keyword === 'minLength') return 'content_too_short';
    if (error.keyword === 'maxLength') return 'content_too_long';
    if (error.keyword === 'pattern') return 'empty_document';
  }
  if (field === 'query' && (operationId === 'suggestFrameworks' || operationId === 'searchLibrary')) return 'missing_query';
  return FIELD_CODES[field] ?? 'invalid_request';
}

const count = (n: unknown) => Number(n).toLocaleString('en-US');
const TYPE_NAMES: Record<string, string> = { integer: 'a whole number', number: 'a number', string: 'a string', boolean: 'true or false', object: 'an object', array: 'an array' };

/** Message text after the field name, and the hint, for one Ajv error. */
function explain(field: string, error: ErrorObject, data: unknown): { text: string; hint: string } {
  const params = error.params as Record<string, unknown>;
  const described = error.parentSchema?.description as string | undefined;
  switch (error.keyword) {
    case 'required': {
      const property = (error.parentSchema as Schema | undefined)?.properties?.[String(params.missingProperty)];
      return { text: 'is required', hint: property?.description ?? `Add ${field} to the request.` };
    }
    case 'anyOf':
      if (error.instancePath === '' && Array.isArray(error.schema)) {
        const names = (error.schema as Schema[]).map((branch) => branch.required?.[0]).filter(Boolean);
        return { text: `is required (or one of: ${names.slice(1).join(', ')})`, hint: `Add ${names[0]}, or one of ${names.slice(1).join(', ')}, to the request.` };
      }
      return { text: `is not valid: ${described ?? 'see GET /openapi.json'}`, hint: described ?? 'Check the value against GET /openapi.json.' };
    case 'additionalProperties':
      return { text: `unknown field ${String(params.additionalProperty)}`, hint: 'Remove the field or check its spelling against GET /openapi.json.' };
    case 'type': {
      const type = TYPE_NAMES[String(params.type)] ?? String(params.type);
      return { text: `must be ${type}`, hint: `Send ${field} as ${type}.` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      return { text: `must be one of: ${allowed}`, hint: `Use one of: ${allowed}.` };
    }
    case 'const':
      return { text: `must be ${JSON.stringify(params.allowedValue)}`, hint: `Use ${JSON.stringify(params.allowedValue)} or leave ${field} out.` };
    case 'minimum':
      return { text: `must be at least ${count(params.limit)}`, hint: `Use a value of at least ${count(params.limit)}.` };
    case 'minLength':
    case 'maxLength': {
      const length = typeof data === 'string' ? count(characterCount(data)) : '?';
      const least = error.keyword === 'minLength';
      if (least && params.limit === 1) return { text: 'must not be empty', hint: `Give ${field} a value, or leave it out if it is optional.` };
      return {
        text: `has ${length} characters (Unicode code points); must be at ${least ? 'least' : 'most'} ${count(params.limit)} characters`,
        hint: least ? `Give ${field} at least ${count(params.limit)} characters.` : `Shorten ${field} to at most ${count(params.limit)} characters${field === 'content' ? ' (split the document)' : ''}.`,
      };
    }
    case 'pattern': {
      if (params.pattern === '\\S') return { text: 'must not be blank', hint: described ?? `Give ${field} a value that is not only spaces.` };
      if (params.pattern === LETTER_OR_DIGIT) return { text: BLANK_TEXT, hint: `Give ${field} the document's text.` };
      if (!described) return { text: `must match ${String(params.pattern)}`, hint: `Check ${field} against GET /openapi.json.` };
      // The document describes each pattern as "Must be …": the message says it of the field.
      const text = `${described[0]!.toLowerCase()}${described.slice(1).replace(/\.$/, '')}`;
      return { text, hint: `Fix ${field}: it ${text}.` };
    }
    case 'not':
      return { text: 'is not accepted here', hint: described ?? 'Remove the field.' };
    default:
      return { text: error.message ?? 'is not valid', hint: described ?? 'Check the value against GET /openapi.json.' };
  }
}

/** The error to report: Ajv lists a failed alternative's branches, or an if/then's `then`, before the keyword that failed. */
function headline(errors: ErrorObject[]): ErrorObject {
  return errors.filter((error) => error.keyword !== 'if').at(-1)!;
}

/** The keys of a JSON Pointer (Ajv's instancePath), unescaped. */
const keysOf = (pointer: string) => pointer.split('/').slice(1).map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));

function toHttpError(operationId: OperationId, errors: ErrorObject[], data: unknown): HttpError {
  const error = headline(errors);
  const segments = keysOf(error.instancePath);
  const value = segments.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], data);
  if (error.keyword === 'required') segments.push(String(error.params.missingProperty));
  if (error.keyword === 'anyOf' && error.instancePath === '' && Array.isArray(error.schema)) segments.push(String((error.schema as Schema[])[0]?.required?.[0] ?? ''));
  const field = segments.join('.');
  const { text, hint } = explain(field, error, value);
  const message = error.keyword === 'additionalProperties' ? `${operationId}: ${text}${field ? ` in ${field}` : ''}` : `${operationId}: ${field} ${text}`;
  return new HttpError(400, codeOf(operationId, field.split('.')[0]!, error), message, hint, { details: field ? { field } : {} });
}

/**
 * The request validator of every operation in `document` (the OpenAPI the sandbox serves). Each
 * operation's schemas are compiled on its first request, so starting a sandbox stays cheap; `eager`
 * (the tests) compiles them all at once and first checks each against the JSON Schema meta-schema.
 */
export function compileRequestValidators(document: { paths: Record<string, Record<string, OperationDoc>> }, { eager = false } = {}) {
  // strict: a keyword Ajv does not know, or one on a schema of the wrong type, is a bug in the
  // document. strictRequired would also refuse "at least one of" (anyOf of required) and if/then,
  // whose branches name the parent's properties: the idiom JSON Schema has for those rules.
  // Ajv's defaults count string lengths in code points, as JSON Schema does (the service's characters
  // are code points: an emoji is one), and give patterns the u flag (\p{…}). Any warning is a bug in
  // the document.
  const logger = {
    log: () => {},
    warn: (message: string) => {
      throw new Error(`OpenAPI request schema: ${message}`);
    },
    error: (message: string) => {
      throw new Error(`OpenAPI request schema: ${message}`);
    },
  };
  const ajv = new Ajv2020({ strict: true, strictRequired: false, verbose: true, allErrors: false, validateSchema: eager, logger });
  const operationsById = new Map<OperationId, OperationDoc>();
  for (const methods of Object.values(document.paths)) for (const operation of Object.values(methods)) operationsById.set(operation.operationId, operation);
  const compiled = new Map<OperationId, Validators>();

  function validatorsOf(operationId: OperationId): Validators {
    const known = compiled.get(operationId);
    if (known) return known;
    const operation = operationsById.get(operationId);
    if (!operation) throw new Error(`No request validator for ${operationId}: the OpenAPI document lacks the operation.`);
    const parameters = operation.parameters ?? [];
    const content = operation.requestBody?.content ?? {};
    const validators: Validators = {
      params: ajv.compile({
        type: 'object',
        properties: Object.fromEntries(parameters.map((p) => [p.name, p.schema])),
        required: parameters.filter((p) => p.required).map((p) => p.name),
        additionalProperties: false,
      }),
      pathNames: parameters.filter((p) => p.in === 'path').map((p) => p.name),
      ...(content['application/json'] ? { json: ajv.compile(content['application/json'].schema) } : {}),
      ...(content['multipart/form-data'] ? { multipart: ajv.compile(content['multipart/form-data'].schema) } : {}),
    };
    compiled.set(operationId, validators);
    return validators;
  }
  if (eager) for (const operationId of operationsById.keys()) validatorsOf(operationId);

  /**
   * Validates the raw input of `operationId` (path parameters merged with the query, or with the
   * body) as it arrived; throws the 400 envelope for the first problem.
   */
  return function validateRequest(operationId: OperationId, kind: RequestKind, input: Record<string, unknown>): void {
    const validators = validatorsOf(operationId);
    const check = (validate: ValidateFunction, data: unknown) => {
      if (!validate(data)) throw toHttpError(operationId, validate.errors ?? [], data);
    };
    if (kind === 'params') return check(validators.params, input);
    const path = Object.fromEntries(validators.pathNames.map((name) => [name, input[name]]));
    check(validators.params, path);
    const body = Object.fromEntries(Object.entries(input).filter(([name]) => !validators.pathNames.includes(name)));
    if (kind === 'multipart') {
      // The parsed upload is an object; in the document it is the part's binary string. A text
      // field named file is not a file part at all.
      if (typeof body.file === 'object' && body.file !== null) body.file = '';
      else delete body.file;
      return check(validators.multipart ?? validators.json!, body);
    }
    if (!validators.json) throw new HttpError(400, 'unknown_field', `${operationId}: takes no request body`, 'Send the request without a body.');
    check(validators.json, body);
  };
}

export type RequestValidator = ReturnType<typeof compileRequestValidators>;
