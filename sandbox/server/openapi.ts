/**
 * The OpenAPI 3.1 description, generated from the operation table: one operation per row with its
 * operationId, request schemas from the same zod schemas the client validates with (path, query or
 * body), response schemas from the table's `output`, and every error response pointing at the shared
 * ErrorEnvelope. The status codes the sandbox chose where the spec is silent are documented here.
 */
import { z } from 'zod/v4/mini';
import { OPERATION_ERRORS, SHARED_ERRORS, type ErrorDoc, type ErrorStatus } from '../../api/operationErrors.js';
import { operations, type OperationId, type OperationSpec } from '../../api/operations.js';
import { API_PREFIX, LETTER_OR_DIGIT, LIMITS } from '../../api/schemas/common.js';
import { describeRequestFields } from '../../api/schemas/fieldDescriptions.js';
import { errorEnvelope } from '../../api/schemas/responses.js';
import { CONTENT_TYPES } from '../formats/index.js';
import { DEFAULT_POOL_LIMITS } from '../formats/upload/extractionPool.js';
import { BAD_KEY_DEFAULTS } from './options.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

/** A zod check as the JSON Schema conversion sees it. */
interface CheckDef {
  check?: string;
  tx?: (value: string) => string;
  pattern?: RegExp;
  error?: (issue: object) => unknown;
}

const checksOf = (schema: z.core.$ZodType): CheckDef[] =>
  ((schema._zod.def as { checks?: Array<{ _zod: { def: CheckDef } }> }).checks ?? []).map((check) => check._zod.def);

/** JSON Schema patterns have no flags: a case-insensitive regex is spelled out with both cases. */
function caseless(source: string): string {
  const both = (c: string) => (c.toLowerCase() === c.toUpperCase() ? c : `${c.toLowerCase()}${c.toUpperCase()}`);
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass && c === ']') {
      inClass = false;
      out += c;
    } else if (inClass && source[i + 1] === '-' && source[i + 2] && source[i + 2] !== ']') {
      const to = source[i + 2]!;
      const other = /[a-z]/i.test(c) && /[a-z]/i.test(to) ? `${c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()}-${to === to.toLowerCase() ? to.toUpperCase() : to.toLowerCase()}` : '';
      out += `${c}-${to}${other}`;
      i += 2;
    } else if (inClass) {
      out += both(c);
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else {
      out += /[a-z]/i.test(c) ? `[${both(c)}]` : c;
    }
  }
  return out;
}

/**
 * What zod checks beyond JSON Schema's reach, said in JSON Schema so the sandbox's own validator
 * (requestValidation.ts) refuses what the client refuses: a trimmed string (nonEmptyString) must not
 * be blank, a case-insensitive pattern takes both cases, and a pattern's own message describes it.
 */
function override({ zodSchema, jsonSchema }: { zodSchema: z.core.$ZodType; jsonSchema: Record<string, unknown> }): void {
  if (zodSchema._zod.def.type !== 'string') return;
  for (const check of checksOf(zodSchema)) {
    if (check.check === 'overwrite' && check.tx?.(' a ') === 'a' && jsonSchema.pattern === undefined) jsonSchema.pattern = '\\S';
    if (check.pattern && jsonSchema.pattern === check.pattern.source) {
      if (check.pattern.flags.includes('i')) jsonSchema.pattern = caseless(check.pattern.source);
      const message = check.error?.({});
      if (typeof message === 'string' && jsonSchema.description === undefined) jsonSchema.description = `${message[0]!.toUpperCase()}${message.slice(1)}.`;
    }
  }
}

function toSchema(schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema {
  describeRequestFields();
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any', override }) as JsonSchema;
  return json;
}

/** A calendar date that exists (leap years included) and a time of day within range, as Date.parse and the client's check accept. */
const REAL_DATE_TIME =
  '^(?:\\d{4}-(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|\\d{4}-(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|\\d{4}-02-(?:0[1-9]|1\\d|2[0-8])|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)' +
  'T(?:(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?|24:00(?::00(?:\\.0{1,9})?)?)(?:Z|[+-](?:[01]\\d|2[0-3]):?[0-5]\\d)$';

const atLeastOne = (names: string[]) => ({ anyOf: names.map((name) => ({ required: [name] })) });

/**
 * The request schemas' refinements (zod `superRefine`/`refine` in api/schemas/requests.ts), written
 * as JSON Schema for the JSON body. They restate rules kept in code, so
 * test/sandbox/requestAgreement.test.ts runs the client's validation and the sandbox's over examples
 * of every operation: a rule changed on one side only fails there.
 */
const BODY_RULES: Partial<Record<OperationId, { schema?: JsonSchema; properties?: Record<string, JsonSchema> }>> = {
  suggestFrameworks: { schema: atLeastOne(['query', 'jurisdiction', 'domain', 'regulator', 'description']) },
  generateDocument: { schema: atLeastOne(['framework', 'standard', 'name']) },
  // A JSON body cannot carry a file: it needs text content (multipart carries the file).
  mapDocument: { schema: { required: ['framework', 'content'] }, properties: { content: { pattern: LETTER_OR_DIGIT, description: 'The document text, not blank (it needs a letter or digit of some script); give content or a file (multipart), not both.' } } },
  setAutoTopUp: { schema: { if: { properties: { enabled: { const: true } }, required: ['enabled'] }, then: { required: ['thresholdTokens', 'pack'] } } },
  setCalendar: { properties: { firstReviewAt: { allOf: [{ pattern: REAL_DATE_TIME, description: 'Must be an ISO 8601 timestamp with a zone, on a day that exists (check the day of the month), such as 2026-12-01T09:00:00Z.' }] } } },
};

function withRules(op: OperationSpec, json: JsonSchema): JsonSchema {
  const rules = BODY_RULES[op.id as OperationId];
  if (!rules) return json;
  const properties = { ...json.properties };
  for (const [name, rule] of Object.entries(rules.properties ?? {})) properties[name] = { ...(properties[name] as JsonSchema), ...rule };
  const required = [...new Set([...(json.required ?? []), ...(rules.schema?.required ?? [])])];
  return { ...json, ...rules.schema, properties, ...(required.length ? { required } : {}) };
}

/**
 * The sandbox's own figures where the table's error documentation leaves them to the service: the
 * bad-key block and the upload reader's limits. Appended to the table's description.
 */
const SANDBOX_FIGURES: Partial<Record<ErrorStatus, string>> = {
  '429': `Here: ${BAD_KEY_DEFAULTS.threshold} invalid keys from one address within ${BAD_KEY_DEFAULTS.windowSeconds} s block it for ${BAD_KEY_DEFAULTS.blockSeconds / 60} minutes.`,
};
const SANDBOX_UPLOAD_FIGURES: Partial<Record<ErrorStatus, string>> = {
  '413': `Here: \`inflated_bytes\` ${DEFAULT_POOL_LIMITS.maxInflatedBytes / 1024 / 1024} MB decompressed (counted as produced), \`extracted_characters\` ${DEFAULT_POOL_LIMITS.maxCharacters.toLocaleString('en-US')}, \`worker_memory\` ${DEFAULT_POOL_LIMITS.maxWorkerMemoryBytes / 1024 / 1024} MB.`,
  '422': `Here: ${DEFAULT_POOL_LIMITS.maxSeconds} s.`,
};

function withFigures(description: string, figures: string | undefined): string {
  return figures ? `${description} ${figures}` : description;
}

/** An operation's own description of a status (OPERATION_ERRORS), with the sandbox's figures. */
function ownErrorDescription(op: OperationSpec, status: ErrorStatus): string | undefined {
  const own = OPERATION_ERRORS[op.id as OperationId]?.[status];
  return own && withFigures(own.description, op.multipart ? SANDBOX_UPLOAD_FIGURES[status] : undefined);
}

function errorStatusesFor(op: OperationSpec): ErrorStatus[] {
  const statuses: ErrorStatus[] = ['400', '500', '503'];
  if (!op.public) statuses.push('401', '429');
  if (!op.public && op.method !== 'GET' && op.id !== 'createCheckout') statuses.push('402');
  if (op.pathParams.length > 0 || OPERATION_ERRORS[op.id as OperationId]?.['404']) statuses.push('404');
  if (op.createsJob || op.id === 'downloadDocument' || op.id === 'deleteLibraryDocument') statuses.push('409');
  if (op.method === 'POST' || op.method === 'PUT') statuses.push('413');
  if (OPERATION_ERRORS[op.id as OperationId]?.['422']) statuses.push('422');
  return statuses.sort();
}

function parametersFor(op: OperationSpec, input: JsonSchema) {
  const properties = input.properties ?? {};
  const required = new Set(input.required ?? []);
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  return Object.entries(properties)
    .filter(([name]) => op.pathParams.includes(name) || inQuery)
    .map(([name, schema]) => ({
      name,
      in: op.pathParams.includes(name) ? 'path' : 'query',
      required: op.pathParams.includes(name) || required.has(name),
      schema,
    }));
}

function requestBodyFor(op: OperationSpec, input: JsonSchema) {
  if (op.method !== 'POST' && op.method !== 'PUT') return undefined;
  const properties = Object.fromEntries(Object.entries(input.properties ?? {}).filter(([name]) => !op.pathParams.includes(name) && name !== 'file'));
  const required = (input.required ?? []).filter((name) => !op.pathParams.includes(name));
  const json: JsonSchema = { ...input, properties, ...(required.length ? { required } : {}) };
  if (!required.length) delete json.required;
  const content: Record<string, unknown> = { 'application/json': { schema: withRules(op, json) } };
  if (op.multipart) {
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['framework', 'file'],
        properties: {
          framework: { ...(properties.framework as JsonSchema), description: 'A verified framework (name or slug).' },
          title: properties.title,
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: `DOCX, PDF, XLSX, PPTX or text; at most ${LIMITS.uploadMaxBytes / 1024 / 1024} MB.` },
          content: { not: {}, description: 'Not with a file: send text as JSON content instead.' },
        },
      },
    };
  }
  return { required: required.length > 0 || op.id === 'mapDocument', content };
}

function responseContent(op: OperationSpec) {
  const schema = toSchema(op.output, 'output');
  if (op.response !== 'download') return { 'application/json': { schema } };
  return {
    [CONTENT_TYPES.json.split(';')[0]!]: { schema },
    [CONTENT_TYPES.md.split(';')[0]!]: { schema: { type: 'string' } },
    [CONTENT_TYPES.pdf]: { schema: { type: 'string', contentMediaType: CONTENT_TYPES.pdf } },
    [CONTENT_TYPES.docx]: { schema: { type: 'string', contentMediaType: CONTENT_TYPES.docx } },
  };
}

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests per minute allowed for this key.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current minute.', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Trace id; quote it in support queries.', schema: { type: 'string' } },
};

export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const op of Object.values(operations) as OperationSpec[]) {
    const input = toSchema(op.input, 'input');
    const requestBody = requestBodyFor(op, input);
    tags.add(op.resource);
    const responses: Record<string, unknown> = {
      [String(op.successStatus)]: {
        description: op.createsJob ? 'Accepted: a job was created; poll it.' : 'Success.',
        ...(op.public ? {} : { headers: RATE_HEADERS }),
        content: responseContent(op),
      },
    };
    for (const status of errorStatusesFor(op)) {
      // OpenAPI 3.1 reference objects may override the description: same envelope, own codes.
      const own = ownErrorDescription(op, status);
      responses[status] = { $ref: `#/components/responses/Error${status}`, ...(own ? { description: own } : {}) };
    }
    (paths[op.path] ??= {})[op.method.toLowerCase()] = {
      operationId: op.id,
      summary: op.summary,
      description: `${op.description}${op.cost.kind === 'free' ? '' : ' Charged in live mode (see GET /billing prices).'}`,
      tags: [op.resource],
      ...(op.public ? { security: [] } : {}),
      ...(parametersFor(op, input).length ? { parameters: parametersFor(op, input) } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Compliance Framework Discovery, Document Generation and Library API (local sandbox)',
      version: '1.0.0',
      description:
        'Framework discovery, asynchronous document generation and evidence mapping, a private document library with full-text search, prepaid token billing and a review calendar. Served by the local sandbox (`compliance sandbox`), which validates every request against this document: a query parameter not listed for an operation is refused (400 `unknown_field`).',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: API_PREFIX, description: 'This server' }],
    security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
    tags: [...tags].map((name) => ({ name, description: `Operations on ${name} resources.` })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API key>' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'X-API-Key: <API key>' },
      },
      schemas: { ErrorEnvelope: toSchema(errorEnvelope, 'output') },
      responses: Object.fromEntries(
        (Object.entries(SHARED_ERRORS) as Array<[ErrorStatus, ErrorDoc]>).map(([status, { description }]) => [
          `Error${status}`,
          {
            description: withFigures(description, SANDBOX_FIGURES[status]),
            headers: { 'X-Request-Id': RATE_HEADERS['X-Request-Id'] },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        ]),
      ),
    },
  };
}
