/**
 * The operation table: one row per endpoint of the service. The client's methods, `call`, the
 * sandbox's routes and OpenAPI description, the CLI's `compliance call` and the n8n node's
 * operations are all derived from it.
 */
import type { z } from 'zod/v4';
import * as req from './schemas/requests.js';
import * as res from './schemas/responses.js';
import { LIMITS } from './schemas/common.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * How a failed attempt may be retried without spending twice:
 * - `safe`: nothing is charged (reads, settings, deletes, checkout links): retry on 429, 5xx,
 *   network errors and timeouts.
 * - `charged`: spends tokens and is not safe to replay: retry only when nothing can have been
 *   admitted (429, or a connection that failed before the request was sent).
 * - `replayable`: spends tokens but the service rejects a replay before charging
 *   (library ingest: `duplicate_document`), so it retries like `safe` and a duplicate answer to a
 *   replay resolves to the document the first attempt created.
 */
export type RetryClass = 'safe' | 'charged' | 'replayable';

/** What a call costs in live mode (sandbox keys are never charged). */
export type Cost =
  | { kind: 'free' }
  /** A fixed price from the spec, in tokens. */
  | { kind: 'fixed'; tokens: number }
  /** Priced by the service: read the amount from `/billing` or `/capabilities` `prices`. */
  | { kind: 'listed' };

/** The error statuses the service answers with; each documents its codes in SHARED_ERRORS and the rows. */
export type ErrorStatus = '400' | '401' | '402' | '404' | '409' | '413' | '422' | '429' | '500' | '503';

/** The service's error codes at one status, and what they mean for the caller. */
export interface ErrorDoc {
  readonly codes: readonly string[];
  readonly description: string;
}

export type Resource = 'account' | 'framework' | 'document' | 'job' | 'library' | 'billing' | 'calendar';

export interface OperationSpec {
  readonly id: string;
  readonly method: HttpMethod;
  /** Relative to the base URL, with `{param}` placeholders. */
  readonly path: string;
  readonly resource: Resource;
  readonly summary: string;
  /** One or two sentences for humans, the n8n UI and AI agents choosing a tool. */
  readonly description: string;
  /** `GET /` and `GET /openapi.json` need no key. */
  readonly public: boolean;
  readonly pathParams: readonly string[];
  /** The `call` input: path parameters plus query (GET/DELETE) or body (POST/PUT) fields. */
  readonly input: z.ZodType;
  /** Success status: 202 for job-creating operations. */
  readonly successStatus: 200 | 202;
  /** `json`: a JSON body of `output`; `download`: json, markdown text or bytes by `format`. */
  readonly response: 'json' | 'download';
  readonly output: z.ZodType;
  readonly cost: Cost;
  readonly retry: RetryClass;
  /**
   * `charged` only: what to check after an ambiguous failure (5xx, timeout) before running it
   * again; it becomes the hint of the `outcome_unknown` error.
   */
  readonly ambiguityHint?: string;
  /** This operation's own error codes per status; each replaces the shared description of the status. */
  readonly errors?: Partial<Record<ErrorStatus, ErrorDoc>>;
  /** Accepts a multipart upload (field `file`) as well as JSON. */
  readonly multipart?: boolean;
  /** Creates a job to wait for. */
  readonly createsJob?: boolean;
  /** Returns a list that may be paginated. */
  readonly paginated?: boolean;
}

const FREE: Cost = { kind: 'free' };
const LISTED: Cost = { kind: 'listed' };

function op<const Id extends string, I extends z.ZodType, O extends z.ZodType>(
  spec: OperationSpec & { id: Id; input: I; output: O },
) {
  return spec;
}

export const operations = {
  getServiceCard: op({
    id: 'getServiceCard', method: 'GET', path: '/', resource: 'account', public: true,
    summary: 'Service card',
    description: 'Get the service card: name, API version and the list of endpoints. Needs no key.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.serviceCard,
    cost: FREE, retry: 'safe',
  }),
  getOpenApi: op({
    id: 'getOpenApi', method: 'GET', path: '/openapi.json', resource: 'account', public: true,
    summary: 'OpenAPI description',
    description: 'Get the OpenAPI 3 description of the whole API. Needs no key.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.openApiDocument,
    cost: FREE, retry: 'safe',
  }),
  ping: op({
    id: 'ping', method: 'GET', path: '/ping', resource: 'account', public: false,
    summary: 'Check the key',
    description: 'Check connectivity and the API key; returns the client name and whether the key is in sandbox or live mode.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.pingResult,
    cost: FREE, retry: 'safe',
  }),
  getCapabilities: op({
    id: 'getCapabilities', method: 'GET', path: '/capabilities', resource: 'account', public: false,
    summary: 'Capabilities and limits',
    description: 'List the document types, download formats, verified frameworks, prices and the limits of this key.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.capabilities,
    cost: FREE, retry: 'safe',
  }),
  suggestFrameworks: op({
    id: 'suggestFrameworks', method: 'POST', path: '/frameworks/suggest', resource: 'framework', public: false,
    summary: 'Suggest frameworks',
    description: 'Framework discovery: from a plain-language query (plus optional jurisdiction, domain, regulator, description) return ranked regulatory frameworks with regulator, jurisdiction, sector, source URL, confidence and reasoning.',
    pathParams: [], input: req.suggestFrameworksInput, successStatus: 200, response: 'json', output: res.suggestResult,
    cost: LISTED, retry: 'charged',
    ambiguityHint: 'Check the ledger (getBilling().ledger) for a discovery charge at this time before re-running.',
  }),
  getFramework: op({
    id: 'getFramework', method: 'GET', path: '/frameworks/{slug}', resource: 'framework', public: false,
    summary: 'Get a framework',
    description: 'Get one framework by slug: regulator, source, controls (for verified frameworks) and its dated list of updates.',
    pathParams: ['slug'], input: req.getFrameworkInput, successStatus: 200, response: 'json', output: res.frameworkDetails,
    cost: FREE, retry: 'safe',
  }),
  generateDocument: op({
    id: 'generateDocument', method: 'POST', path: '/documents/generate', resource: 'document', public: false,
    summary: 'Generate a document',
    description: 'Queue the generation of a policy or framework-reference document for a framework, optionally personalised for an organisation. Returns a job to wait for; download the result in json, md, pdf or docx.',
    pathParams: [], input: req.generateDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: LISTED, retry: 'charged', createsJob: true,
    ambiguityHint:
      'Check the ledger (getBilling().ledger) for a generation charge before re-running; while an admitted job runs, a new one is refused with job_already_running.',
  }),
  mapDocument: op({
    id: 'mapDocument', method: 'POST', path: '/documents/map', resource: 'document', public: false,
    summary: 'Map a document against a framework',
    description: "Queue evidence mapping of the caller's own document (text or an uploaded DOCX, PDF, Excel, PowerPoint or text file) against a verified framework. The report gives coverage, per-control evidence and a gap list.",
    pathParams: [], input: req.mapDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: LISTED, retry: 'charged', multipart: true, createsJob: true,
    ambiguityHint: 'Check the ledger (getBilling().ledger) for a mapping charge at this time before re-running the mapping.',
    errors: {
      '400': {
        codes: ['missing_framework', 'missing_content', 'framework_not_verified', 'unsupported_file_type', 'unreadable_file', 'empty_document'],
        description: '`missing_framework`, `missing_content`; `framework_not_verified`: the framework has no verified control set, `closest` lists the verified frameworks nearest the request; `unsupported_file_type`: a kind other than DOCX, PDF, XLSX, PPTX or text (legacy .doc/.xls/.ppt included); `unreadable_file`: a damaged file or one whose content is not its claimed kind; `empty_document`: no text could be extracted. Nothing was charged.',
      },
      '404': { codes: ['framework_not_found'], description: '`framework_not_found`: no framework matches; `closest` lists the verified frameworks nearest the request.' },
      '413': {
        codes: ['upload_too_large', 'payload_too_large'],
        description: `\`upload_too_large\`: the file is over ${LIMITS.uploadMaxBytes / 1024 / 1024} MB (${LIMITS.uploadMaxBytes.toLocaleString('en-US')} bytes), or reading it crossed a limit named in \`limit\` (\`inflated_bytes\`, \`extracted_characters\`, \`worker_memory\`, \`zip_entries\`); \`payload_too_large\`: a JSON body over 2 MB. Nothing was charged.`,
      },
      '422': { codes: ['extraction_timeout'], description: '`extraction_timeout` (`limit`: `extraction_seconds`): reading the file took over the time limit. Nothing was charged.' },
      '429': { codes: ['rate_limited', 'uploads_busy'], description: '`rate_limited`, or `uploads_busy`: every upload reader is busy and the queue is full; retry after Retry-After seconds. Nothing was charged.' },
    },
  }),
  getJob: op({
    id: 'getJob', method: 'GET', path: '/jobs/{jobId}', resource: 'job', public: false,
    summary: 'Get a job',
    description: 'Get the status of a generation, mapping or library job: queued, running, completed or failed (with the reason).',
    pathParams: ['jobId'], input: req.getJobInput, successStatus: 200, response: 'json', output: res.jobStatus,
    cost: FREE, retry: 'safe',
  }),
  downloadDocument: op({
    id: 'downloadDocument', method: 'GET', path: '/documents/{jobId}', resource: 'document', public: false,
    summary: 'Download a result',
    description: 'Download the result of a completed generation or mapping job as json (parsed), md (text), pdf or docx (file).',
    pathParams: ['jobId'], input: req.downloadDocumentInput, successStatus: 200, response: 'download',
    output: res.generatedDocument.or(res.mappingReport),
    cost: FREE, retry: 'safe',
  }),
  ingestLibraryDocument: op({
    id: 'ingestLibraryDocument', method: 'POST', path: '/library/documents', resource: 'library', public: false,
    summary: 'Ingest a library document',
    description: 'Add a document (title and 200 to 300,000 characters of content) to the private library; it is classified, tagged, summarised and indexed by a job. Charged per document in live mode.',
    pathParams: [], input: req.ingestLibraryDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: { kind: 'fixed', tokens: 400_000 }, retry: 'replayable', createsJob: true,
    errors: {
      '400': {
        codes: ['invalid_json', 'unknown_field', 'invalid_request', 'content_too_short', 'content_too_long'],
        description: `Invalid request (\`invalid_json\`, \`unknown_field\`, \`invalid_request\`), or content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`). Nothing was charged.`,
      },
      '409': {
        codes: ['duplicate_document', 'library_full'],
        description: '`duplicate_document`: the same content (after normalising line ends, a BOM, trailing whitespace and trailing newlines) is already held; `documentId` (and `jobId` of its last job) name the holder, refresh it instead. `library_full`: the key holds its capacity (25 documents sandbox, 500 live; pending ingests count), with `documents` and `capacity`. Nothing was charged.',
      },
    },
  }),
  refreshLibraryDocument: op({
    id: 'refreshLibraryDocument', method: 'POST', path: '/library/documents/{id}/refresh', resource: 'library', public: false,
    summary: 'Refresh a library document',
    description: "Replace a library document's content; it is re-classified, re-indexed and its version increments. Charged like an ingest in live mode.",
    pathParams: ['id'], input: req.refreshLibraryDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: { kind: 'fixed', tokens: 400_000 }, retry: 'charged', createsJob: true,
    ambiguityHint:
      "Check whether the refresh landed before refreshing again: getLibraryDocument({ id }) shows the document's version (it increments on each refresh) and contentHash.",
    errors: {
      '400': {
        codes: ['content_too_short', 'content_too_long'],
        description: `Content under ${LIMITS.libraryMinChars} (\`content_too_short\`) or over ${LIMITS.libraryMaxChars.toLocaleString('en-US')} characters (\`content_too_long\`). Nothing was charged.`,
      },
      '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' },
      '409': {
        codes: ['document_unchanged', 'duplicate_document', 'document_busy'],
        description: '`document_unchanged`: the content equals the current version (nothing to re-index); `duplicate_document`: another document holds this content (`documentId`); `document_busy`: an ingest or refresh of this document is still running. Nothing was charged.',
      },
    },
  }),
  listLibrary: op({
    id: 'listLibrary', method: 'GET', path: '/library', resource: 'library', public: false,
    summary: 'List the library',
    description: 'List library documents (id, title, filename, category, tags, version, content hash) and storage counters. Free.',
    pathParams: [], input: req.listLibraryInput, successStatus: 200, response: 'json', output: res.libraryListing,
    cost: FREE, retry: 'safe', paginated: true,
    errors: {
      '400': {
        codes: ['invalid_limit', 'invalid_cursor', 'invalid_request'],
        description: '`invalid_limit` (limit from 1 to 100, default 50), `invalid_cursor` (pass `nextCursor` unchanged), `invalid_request` (page other than 1: the listing pages by cursor).',
      },
    },
  }),
  getLibraryDocument: op({
    id: 'getLibraryDocument', method: 'GET', path: '/library/documents/{id}', resource: 'library', public: false,
    summary: 'Get a library document',
    description: "Get one library document's metadata; with include=content, also its stored text. Free.",
    pathParams: ['id'], input: req.getLibraryDocumentInput, successStatus: 200, response: 'json', output: res.libraryDocument,
    cost: FREE, retry: 'safe',
    errors: { '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' } },
  }),
  deleteLibraryDocument: op({
    id: 'deleteLibraryDocument', method: 'DELETE', path: '/library/documents/{id}', resource: 'library', public: false,
    summary: 'Delete a library document',
    description: 'Remove a document and its index entries from the library. Free.',
    pathParams: ['id'], input: req.deleteLibraryDocumentInput, successStatus: 200, response: 'json', output: res.libraryDeleted,
    cost: FREE, retry: 'safe',
    errors: { '404': { codes: ['document_not_found'], description: '`document_not_found`: no such document for this key.' } },
  }),
  searchLibrary: op({
    id: 'searchLibrary', method: 'POST', path: '/library/search', resource: 'library', public: false,
    summary: 'Search the library',
    description: 'Full-text search over the library with relevance ranking and highlighted snippets; filter by category and tags. Charged per query in live mode.',
    pathParams: [], input: req.searchLibraryInput, successStatus: 200, response: 'json', output: res.searchResult,
    cost: { kind: 'fixed', tokens: 5_000 }, retry: 'charged',
    ambiguityHint: 'Check the ledger (getBilling().ledger) for a search charge at this time before re-running the query.',
    errors: {
      '400': {
        codes: ['invalid_limit', 'invalid_query'],
        description: '`invalid_limit`: limit must be an integer from 1 to 50 (default 10; above 50 is refused, never clamped); `invalid_query`: no searchable word, over 500 characters or over 16 terms. Nothing was charged.',
      },
    },
  }),
  getUsage: op({
    id: 'getUsage', method: 'GET', path: '/usage', resource: 'account', public: false,
    summary: 'Usage counters',
    description: "Request and generation counters against this key's limits, and library usage.",
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.usage,
    cost: FREE, retry: 'safe',
  }),
  getBilling: op({
    id: 'getBilling', method: 'GET', path: '/billing', resource: 'billing', public: false,
    summary: 'Balance and billing',
    description: 'Token balance, per-operation prices, credit packs, the recent ledger, the daily meter (plan, rate, days remaining) and the auto-top-up setting.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.billing,
    cost: FREE, retry: 'safe',
  }),
  createCheckout: op({
    id: 'createCheckout', method: 'POST', path: '/billing/checkout', resource: 'billing', public: false,
    summary: 'Buy a credit pack',
    description: 'Create a hosted checkout for a credit pack (pack10 to pack500); returns a payment page URL to open in a browser. Nothing is paid until the page is completed.',
    pathParams: [], input: req.createCheckoutInput, successStatus: 200, response: 'json', output: res.checkout,
    // A second checkout link costs nothing: only a completed payment moves money.
    cost: FREE, retry: 'safe',
  }),
  getAutoTopUp: op({
    id: 'getAutoTopUp', method: 'GET', path: '/billing/auto-topup', resource: 'billing', public: false,
    summary: 'Get auto-top-up',
    description: 'Read the auto-top-up setting: enabled, threshold in tokens and pack.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.autoTopUp,
    cost: FREE, retry: 'safe',
  }),
  setAutoTopUp: op({
    id: 'setAutoTopUp', method: 'PUT', path: '/billing/auto-topup', resource: 'billing', public: false,
    summary: 'Set auto-top-up',
    description: 'Enable auto-top-up with a threshold (at least 100,000 tokens) and a pack, or disable it with enabled=false. A checkout link is emailed once per dip below the threshold.',
    pathParams: [], input: req.setAutoTopUpInput, successStatus: 200, response: 'json', output: res.autoTopUp,
    cost: FREE, retry: 'safe',
  }),
  getCalendar: op({
    id: 'getCalendar', method: 'GET', path: '/calendar', resource: 'calendar', public: false,
    summary: 'Get the review calendar',
    description: 'Read the review cadence and the next scheduled review date.',
    pathParams: [], input: req.emptyInput, successStatus: 200, response: 'json', output: res.calendar,
    cost: FREE, retry: 'safe',
  }),
  setCalendar: op({
    id: 'setCalendar', method: 'PUT', path: '/calendar', resource: 'calendar', public: false,
    summary: 'Set the review calendar',
    description: 'Set the review cadence (none, monthly, quarterly) and optionally the first review time (ISO 8601). Reminders are emailed; nothing runs or is charged automatically.',
    pathParams: [], input: req.setCalendarInput, successStatus: 200, response: 'json', output: res.calendar,
    cost: FREE, retry: 'safe',
  }),
} as const;

export type Operations = typeof operations;
export type OperationId = keyof Operations;
export const operationIds = Object.keys(operations) as OperationId[];

/** The `call` input of an operation, before validation. */
export type OperationInput<Id extends OperationId> = z.input<Operations[Id]['input']>;

export function isOperationId(value: string): value is OperationId {
  return Object.hasOwn(operations, value);
}

export function getOperation(id: OperationId): Operations[OperationId] {
  return operations[id];
}

/** What each error status means for every operation; a row's own `errors` replace it there. */
export const SHARED_ERRORS: Readonly<Record<ErrorStatus, ErrorDoc>> = {
  '400': {
    codes: ['invalid_json', 'missing_query', 'missing_framework', 'unknown_document_type', 'unsupported_format', 'invalid_job_id', 'content_too_short', 'content_too_long', 'invalid_limit', 'invalid_query', 'framework_not_verified', 'unsupported_file_type'],
    description: 'Invalid request: malformed JSON (`invalid_json`) or parameters (`missing_query`, `missing_framework`, `unknown_document_type`, `unsupported_format`, `invalid_job_id`, `content_too_short`, `content_too_long`, `invalid_limit`, `invalid_query`, `framework_not_verified`, `unsupported_file_type`, ...).',
  },
  '401': { codes: ['missing_api_key', 'invalid_api_key'], description: 'Missing (`missing_api_key`) or invalid (`invalid_api_key`) API key.' },
  '402': {
    codes: ['account_read_only', 'insufficient_balance'],
    description: 'Live keys: the balance is zero and the account is read-only (`account_read_only`), or below the price of this call (`insufficient_balance`). Nothing was charged.',
  },
  '404': {
    codes: ['not_found', 'job_not_found', 'document_not_found', 'framework_not_found'],
    description: "Unknown path (`not_found`), job (`job_not_found`), document (`document_not_found`) or framework (`framework_not_found`); another key's ids answer exactly like unknown ones.",
  },
  '409': {
    codes: ['job_already_running', 'not_ready', 'generation_failed', 'duplicate_document', 'library_full', 'document_unchanged', 'document_busy'],
    description: 'Conflicting or unready state: `job_already_running`, `not_ready`, `generation_failed`, `duplicate_document` (with `documentId` and `jobId` of the holder), `library_full`, `document_unchanged`, `document_busy`.',
  },
  '413': {
    codes: ['payload_too_large', 'upload_too_large'],
    description: `Body too large (\`payload_too_large\`; JSON 2 MB, uploads ${LIMITS.uploadMaxBytes / 1024 / 1024} MB) or file too large (\`upload_too_large\`).`,
  },
  '422': { codes: ['extraction_timeout'], description: 'The upload could not be read within the time limit (`extraction_timeout`).' },
  '429': {
    codes: ['rate_limited', 'quota_exceeded', 'auth_blocked'],
    description: 'Rate limit (`rate_limited`), generation quota (`quota_exceeded`) or bad-key block (`auth_blocked`: too many invalid keys from one address block it for a while). Honour Retry-After.',
  },
  '500': { codes: ['internal_error'], description: 'Service-side fault (`internal_error`); retry with backoff.' },
  '503': { codes: ['service_unavailable'], description: 'Service temporarily unavailable (`service_unavailable`); retry with backoff.' },
};

/** Token prices the spec fixes, from the rows' `cost` (discovery, generation and mapping prices come from /billing). */
export const FIXED_PRICES: Readonly<Partial<Record<OperationId, number>>> = Object.fromEntries(
  Object.values(operations as Record<string, OperationSpec>).flatMap((row) => (row.cost.kind === 'fixed' ? [[row.id, row.cost.tokens]] : [])),
);

/** The fixed price of an operation, in tokens; throws for an operation the spec does not price. */
export function fixedPrice(id: OperationId): number {
  const tokens = FIXED_PRICES[id];
  if (tokens === undefined) throw new Error(`${id} has no fixed price in the operation table`);
  return tokens;
}
