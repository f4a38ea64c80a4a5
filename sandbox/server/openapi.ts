/**
 * The OpenAPI 3.1 description, generated from the operation table: one operation per row with its
 * operationId, request schemas from the same zod schemas the client validates with (path, query or
 * body), response schemas from the table's `output`, and every error response pointing at the shared
 * ErrorEnvelope. The status codes the sandbox chose where the spec is silent are documented here.
 */
import { z } from 'zod/v4';
import { operations, type OperationSpec } from '../../api/operations.js';
import { API_PREFIX } from '../../api/baseUrl.js';
import { LIMITS } from '../../api/schemas/common.js';
import { errorEnvelope } from '../../api/schemas/responses.js';
import { CONTENT_TYPES } from '../formats/index.js';
import { DEFAULT_POOL_LIMITS } from '../formats/upload/extractionPool.js';
import { BAD_KEY_DEFAULTS } from './options.js';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...json } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return json;
}

const ERROR_STATUSES: Record<string, string> = {
  '400': 'Invalid request: malformed JSON (`invalid_json`) or parameters (`missing_query`, `missing_framework`, `unknown_document_type`, `unsupported_format`, `invalid_job_id`, `content_too_short`, `content_too_long`, `invalid_limit`, `invalid_query`, `framework_not_verified`, `unsupported_file_type`, ...).',
  '401': 'Missing (`missing_api_key`) or invalid (`invalid_api_key`) API key.',
  '402': 'Live keys: the balance is zero and the account is read-only (`account_read_only`), or below the price of this call (`insufficient_balance`). Nothing was charged.',
  '404': 'Unknown path (`not_found`), job (`job_not_found`), document (`document_not_found`) or framework (`framework_not_found`); another key\'s ids answer exactly like unknown ones.',
  '409': 'Conflicting or unready state: `job_already_running`, `not_ready`, `generation_failed`, `duplicate_document` (with `documentId` and `jobId` of the holder), `library_full`, `document_unchanged`, `document_busy`.',
  '413': `Body too large (\`payload_too_large\`; JSON 2 MB, uploads ${LIMITS.uploadMaxBytes / 1024 / 1024} MB) or file too large (\`upload_too_large\`).`,
  '422': 'The upload could not be read within the time limit (`extraction_timeout`).',
  '429': `Rate limit (\`rate_limited\`), generation quota (\`quota_exceeded\`) or bad-key block (\`auth_blocked\`: ${BAD_KEY_DEFAULTS.threshold} invalid keys from one address within ${BAD_KEY_DEFAULTS.windowSeconds} s block it for ${BAD_KEY_DEFAULTS.blockSeconds / 60} minutes). Honour Retry-After.`,
  '500': 'Service-side fault (`internal_error`); retry with backoff.',
  '503': 'Service temporarily unavailable (`service_unavailable`); retry with backoff.',
};

/**
 * The library's and mapping's own codes, per operation and status (documented where the spec leaves
 * the status open; stable: clients branch on them). Each replaces the shared description.
 */
const OPERATION_ERRORS: Partial<Record<string, Record<string, string>>> = {
  ingestLibraryDocument: {
    '400': `Invalid request (\`invalid_json\`, \`unknown_field\`, \`invalid_request\`), or content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`). Nothing was charged.`,
    '409': '`duplicate_document`: the same content (after normalising line ends, a BOM, trailing whitespace and trailing newlines) is already held; `documentId` (and `jobId` of its last job) name the holder, refresh it instead. `library_full`: the key holds its capacity (25 documents sandbox, 500 live; pending ingests count), with `documents` and `capacity`. Nothing was charged.',
  },
  refreshLibraryDocument: {
    '400': `Content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`). Nothing was charged.`,
    '404': '`document_not_found`: no such document for this key.',
    '409': '`document_unchanged`: the content equals the current version (nothing to re-index); `duplicate_document`: another document holds this content (`documentId`); `document_busy`: an ingest or refresh of this document is still running. Nothing was charged.',
  },
  listLibrary: {
    '400': '`invalid_limit` (limit from 1 to 100, default 50), `invalid_cursor` (pass `nextCursor` unchanged), `invalid_request` (page other than 1: the listing pages by cursor).',
  },
  getLibraryDocument: { '404': '`document_not_found`: no such document for this key.' },
  deleteLibraryDocument: { '404': '`document_not_found`: no such document for this key.' },
  searchLibrary: {
    '400': '`invalid_limit`: limit must be an integer from 1 to 50 (default 10; above 50 is refused, never clamped); `invalid_query`: no searchable word, over 500 characters or over 16 terms. Nothing was charged.',
  },
  mapDocument: {
    '400': '`missing_framework`, `missing_content`; `framework_not_verified`: the framework has no verified control set, `closest` lists the verified frameworks nearest the request; `unsupported_file_type`: a kind other than DOCX, PDF, XLSX, PPTX or text (legacy .doc/.xls/.ppt included); `unreadable_file`: a damaged file or one whose content is not its claimed kind; `empty_document`: no text could be extracted. Nothing was charged.',
    '404': '`framework_not_found`: no framework matches; `closest` lists the verified frameworks nearest the request.',
    '413': `\`upload_too_large\`: the file is over ${LIMITS.uploadMaxBytes / 1024 / 1024} MB (${LIMITS.uploadMaxBytes.toLocaleString('en-US')} bytes), or reading it crossed a limit named in \`limit\`: \`inflated_bytes\` (${DEFAULT_POOL_LIMITS.maxInflatedBytes / 1024 / 1024} MB decompressed, counted as produced), \`extracted_characters\` (${DEFAULT_POOL_LIMITS.maxCharacters.toLocaleString('en-US')}), \`worker_memory\` (${DEFAULT_POOL_LIMITS.maxWorkerMemoryBytes / 1024 / 1024} MB), \`zip_entries\`; \`payload_too_large\`: a JSON body over 2 MB. Nothing was charged.`,
    '422': `\`extraction_timeout\` (\`limit\`: \`extraction_seconds\`): reading the file took over ${DEFAULT_POOL_LIMITS.maxSeconds} s. Nothing was charged.`,
    '429': '`rate_limited`, or `uploads_busy`: every upload reader is busy and the queue is full; retry after Retry-After seconds. Nothing was charged.',
  },
};

function errorStatusesFor(op: OperationSpec): string[] {
  const statuses = ['400', '500', '503'];
  if (!op.public) statuses.push('401', '429');
  if (!op.public && op.method !== 'GET' && op.id !== 'createCheckout') statuses.push('402');
  if (op.pathParams.length > 0 || OPERATION_ERRORS[op.id]?.['404']) statuses.push('404');
  if (op.createsJob || op.id === 'downloadDocument' || op.id === 'deleteLibraryDocument') statuses.push('409');
  if (op.method === 'POST' || op.method === 'PUT') statuses.push('413');
  if (OPERATION_ERRORS[op.id]?.['422']) statuses.push('422');
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
      const own = OPERATION_ERRORS[op.id]?.[status];
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
        Object.entries(ERROR_STATUSES).map(([status, description]) => [
          `Error${status}`,
          {
            description,
            headers: { 'X-Request-Id': RATE_HEADERS['X-Request-Id'] },
            content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
          },
        ]),
      ),
    },
  };
}
