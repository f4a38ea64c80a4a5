/**
 * The operation table: one row per endpoint of the service. The client's methods, `call`, the
 * sandbox's routes and OpenAPI description, the CLI's `compliance call` and the n8n node's
 * operations are all derived from it. A row's `input` and `output` are built when first read
 * (schemas/lazy.ts): loading the table builds no schema.
 */
import * as z from 'zod/v4/mini';
import { lazy } from './schemas/lazy.js';
import * as req from './schemas/requests.js';
import * as res from './schemas/responses.js';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

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
  readonly input: z.ZodMiniType;
  /** Success status: 202 for job-creating operations. */
  readonly successStatus: 200 | 202;
  /** `json`: a JSON body of `output`; `download`: json, markdown text or bytes by `format`. */
  readonly response: 'json' | 'download';
  readonly output: z.ZodMiniType;
  readonly cost: Cost;
  readonly retry: RetryClass;
  /**
   * `charged` only: what to check after an ambiguous failure (5xx, timeout) before running it
   * again; it becomes the hint of the `outcome_unknown` error.
   */
  readonly ambiguityHint?: string;
  /** Accepts a multipart upload (field `file`) as well as JSON. */
  readonly multipart?: boolean;
  /** Creates a job to wait for. */
  readonly createsJob?: boolean;
  /** Returns a list that may be paginated. */
  readonly paginated?: boolean;
}

const FREE: Cost = { kind: 'free' };
const LISTED: Cost = { kind: 'listed' };

function op<const Id extends string, I extends z.ZodMiniType, O extends z.ZodMiniType>(
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
    output: lazy(() => z.union([res.generatedDocument, res.mappingReport])),
    cost: FREE, retry: 'safe',
  }),
  ingestLibraryDocument: op({
    id: 'ingestLibraryDocument', method: 'POST', path: '/library/documents', resource: 'library', public: false,
    summary: 'Ingest a library document',
    description: 'Add a document (title and 200 to 300,000 characters of content) to the private library; it is classified, tagged, summarised and indexed by a job. Charged per document in live mode.',
    pathParams: [], input: req.ingestLibraryDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: { kind: 'fixed', tokens: 400_000 }, retry: 'replayable', createsJob: true,
  }),
  refreshLibraryDocument: op({
    id: 'refreshLibraryDocument', method: 'POST', path: '/library/documents/{id}/refresh', resource: 'library', public: false,
    summary: 'Refresh a library document',
    description: "Replace a library document's content; it is re-classified, re-indexed and its version increments. Charged like an ingest in live mode.",
    pathParams: ['id'], input: req.refreshLibraryDocumentInput, successStatus: 202, response: 'json', output: res.jobAccepted,
    cost: { kind: 'fixed', tokens: 400_000 }, retry: 'charged', createsJob: true,
    ambiguityHint:
      "Check whether the refresh landed before refreshing again: getLibraryDocument({ id }) shows the document's version (it increments on each refresh) and contentHash.",
  }),
  listLibrary: op({
    id: 'listLibrary', method: 'GET', path: '/library', resource: 'library', public: false,
    summary: 'List the library',
    description: 'List library documents (id, title, filename, category, tags, version, content hash) and storage counters. Free.',
    pathParams: [], input: req.listLibraryInput, successStatus: 200, response: 'json', output: res.libraryListing,
    cost: FREE, retry: 'safe', paginated: true,
  }),
  getLibraryDocument: op({
    id: 'getLibraryDocument', method: 'GET', path: '/library/documents/{id}', resource: 'library', public: false,
    summary: 'Get a library document',
    description: "Get one library document's metadata; with include=content, also its stored text. Free.",
    pathParams: ['id'], input: req.getLibraryDocumentInput, successStatus: 200, response: 'json', output: res.libraryDocument,
    cost: FREE, retry: 'safe',
  }),
  deleteLibraryDocument: op({
    id: 'deleteLibraryDocument', method: 'DELETE', path: '/library/documents/{id}', resource: 'library', public: false,
    summary: 'Delete a library document',
    description: 'Remove a document and its index entries from the library. Free.',
    pathParams: ['id'], input: req.deleteLibraryDocumentInput, successStatus: 200, response: 'json', output: res.libraryDeleted,
    cost: FREE, retry: 'safe',
  }),
  searchLibrary: op({
    id: 'searchLibrary', method: 'POST', path: '/library/search', resource: 'library', public: false,
    summary: 'Search the library',
    description: 'Full-text search over the library with relevance ranking and highlighted snippets; filter by category and tags. Charged per query in live mode.',
    pathParams: [], input: req.searchLibraryInput, successStatus: 200, response: 'json', output: res.searchResult,
    cost: { kind: 'fixed', tokens: 5_000 }, retry: 'charged',
    ambiguityHint: 'Check the ledger (getBilling().ledger) for a search charge at this time before re-running the query.',
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
