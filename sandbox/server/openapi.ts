/**
 * The OpenAPI 3.1 description, generated from the operation table: one operation per row with its
 * operationId, request schemas from the same zod schemas the client validates with (path, query or
 * body), response schemas from the table's `output`, and every error response pointing at the shared
 * ErrorEnvelope. The status codes the sandbox chose where the spec is silent are documented here.
 */
import { z } from 'zod/v4';
import { OPERATION_ERRORS, SHARED_ERRORS, type ErrorDoc, type ErrorStatus } from '../../api/operationErrors.js';
import { operations, type OperationId, type OperationSpec } from '../../api/operations.js';
import { API_PREFIX, LIMITS } from '../../api/schemas/common.js';
import { errorEnvelope } from '../../api/schemas/responses.js';
import { CONTENT_TYPES } from '../formats/index.js';
import { DEFAULT_POOL_LIMITS } from '../formats/upload/extractionPool.js';
import { BAD_KEY_DEFAULTS } from './options.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
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
  const content: Record<string, unknown> = { 'application/json': { schema: json } };
  if (op.multipart) {
    content['multipart/form-data'] = {
      schema: {
        type: 'object',
        required: ['framework', 'file'],
        properties: {
          framework: { type: 'string', description: 'A verified framework (name or slug).' },
          title: { type: 'string' },
          file: { type: 'string', contentMediaType: 'application/octet-stream', description: `DOCX, PDF, XLSX, PPTX or text; at most ${LIMITS.uploadMaxBytes / 1024 / 1024} MB.` },
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
        'Framework discovery, asynchronous document generation and evidence mapping, a private document library with full-text search, prepaid token billing and a review calendar. Served by the local sandbox (`compliance sandbox`).',
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
