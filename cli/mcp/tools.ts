/**
 * The MCP tools, one naming style (the operation ids, camelCase) and one tool per intent: a tool
 * per row of the operation table (described and schema'd by the table, annotated from its method,
 * cost and retry class), where the tools that create a generation or mapping job also wait for it,
 * plus planReview. Every input property is described, every tool has an outputSchema and answers
 * with structuredContent, and no result is over 8 KB by default (fit.ts). Every charged call goes
 * through the session budget first.
 */
import { z } from 'zod/v4';
import { ErrorCode, McpError, type CallToolResult, type ContentBlock, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Download, JobStatusModel } from '../../api/clientTypes.js';
import { ComplianceValidationError } from '../../api/errors.js';
import { operationIds, operations, type OperationId, type OperationSpec, type Resource } from '../../api/operations.js';
import { describeRequestFields } from '../../api/schemas/fieldDescriptions.js';
import { controlStatus, gap, searchHit } from '../../api/schemas/responses.js';
import { FORMATS, KEY_MODES } from '../../api/schemas/common.js';
import { runReview } from '../../review/review.js';
import { readConfigFile } from '../../review/node/config.js';
import { CONFIG_FILE_NAME } from '../../review/config.js';
import { today } from '../lib/format.js';
import { loadDocuments } from '../lib/repo.js';
import type { SessionBudget } from './budget.js';
import type { McpContext } from './context.js';
import type { ToolGroup } from './groups.js';
import { fitWithin, RESULT_LIMIT_BYTES, type Cut } from './fit.js';
import { errorResult, jsonText } from './results.js';

/** One tools/call: the client's cancellation, and progress notifications while a job is waited for. */
interface ToolCall {
  signal?: AbortSignal;
  onProgress?: (job: JobStatusModel) => void;
}


export interface ToolDefinition {
  tool: Tool;
  /** The area `--tools` selects it by (`read`: only as a read-only tool). */
  group: ToolGroup;
  /** Operations one call spends on (priced before the call). */
  charged: OperationId[];
  run(args: Record<string, unknown>, context: McpContext, call: ToolCall): Promise<CallToolResult>;
}

/** What the service lists, read once when the tools are built: the closed sets its enums come from. */
export interface ServiceLists {
  documentTypes: string[];
  verifiedFrameworks: string[];
}

type JsonSchema = Tool['inputSchema'];
type Properties = Record<string, Record<string, unknown>>;

function toJson(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  describeRequestFields();
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/**
 * The table's zod input as JSON Schema (as the client sends it): `drop` removes fields MCP cannot
 * carry and aliases (accepted, not advertised), `required` adds what the service requires but the
 * schema checks in code, `enums` closes the sets the service lists.
 */
export function inputJsonSchema(schema: z.ZodType, options: { drop?: readonly string[]; required?: readonly string[]; enums?: Record<string, string[]> } = {}): JsonSchema {
  const json = toJson(schema, 'input');
  const properties = { ...(json.properties as Properties | undefined) };
  for (const name of options.drop ?? []) delete properties[name];
  for (const [name, values] of Object.entries(options.enums ?? {})) {
    if (properties[name] && values.length > 0) properties[name] = { ...properties[name], enum: values };
  }
  const required = [...new Set([...((json.required as string[] | undefined) ?? []), ...(options.required ?? [])])].filter((name) => name in properties);
  return { ...json, type: 'object', properties, ...(required.length ? { required } : {}) } as JsonSchema;
}

const isCharged = (spec: OperationSpec) => spec.cost.kind !== 'free';

function annotationsFor(spec: OperationSpec): Tool['annotations'] {
  const readOnly = spec.method === 'GET' && !isCharged(spec);
  return {
    title: spec.summary,
    readOnlyHint: readOnly,
    // Removes state (DELETE) or replaces existing state (PUT settings, refreshing a document's content).
    destructiveHint: readOnly ? false : spec.method === 'DELETE' || spec.method === 'PUT' || spec.pathParams.length > 0,
    // The table's retry classes: `safe` and `replayable` calls can be repeated without paying twice.
    idempotentHint: spec.retry !== 'charged',
    openWorldHint: false,
  };
}

const GROUP_OF_RESOURCE: Record<Resource, ToolGroup> = {
  account: 'read', framework: 'generate', document: 'generate', job: 'generate', library: 'library', billing: 'billing', calendar: 'review',
};

/**
 * One charged call under the session budget (SessionBudget.spend: review/'s charged step): refused,
 * nothing sent, when it does not fit; the user asked above the confirmation threshold; then settled:
 * the price stays spent unless the call failed in a way that cannot have been charged (a refusal,
 * a declined or unreadable confirmation).
 */
function spend<T>(context: McpContext, what: string, ids: readonly OperationId[], work: () => Promise<T>): Promise<T> {
  return context.budget.spend(what, ids, (price) => context.confirm(what, price), work);
}

// The envelope every tool answers in (structuredContent), and its schema (outputSchema).
const spendSchema = z.object({
  spentTokens: z.number(),
  reservedTokens: z.number(),
  maxTokens: z.number().nullable(),
  remainingTokens: z.number().nullable(),
  mode: z.enum(KEY_MODES),
});
const cutSchema = z.object({ path: z.string(), shown: z.number(), total: z.number(), unit: z.enum(['items', 'characters']) });
const errorSchema = z.object({ code: z.string(), message: z.string(), hint: z.string().nullable(), requestId: z.string().nullable() });

function outputJsonSchema(result: z.ZodType): Tool['outputSchema'] {
  return {
    type: 'object',
    properties: {
      result: toJson(result, 'output'),
      truncated: { ...toJson(z.array(cutSchema), 'output'), description: `Lists and texts shortened to keep the result under ${RESULT_LIMIT_BYTES / 1024} KB; "more" says how to get the rest.` },
      more: { type: 'string', description: 'How to get what was shortened: the next page, a detail level or a resource to read.' },
      spend: { ...toJson(spendSchema, 'output'), description: 'Charged tools: this server session\'s running spend.' },
      error: { ...toJson(errorSchema, 'output'), description: 'Set instead of result when the call failed (isError).' },
    },
    anyOf: [{ required: ['result'] }, { required: ['error'] }],
  } as Tool['outputSchema'];
}

/**
 * A tool's answer: `result` shortened to the limit (saying how to get the rest), the running spend
 * for charged tools, as structuredContent and as compact JSON text (what an assistant reads), plus
 * `links` (resource links, never counted against the limit: the client reads them on demand).
 */
function answer(context: McpContext, charged: boolean, result: unknown, more: (cuts: Cut[]) => string, links: ContentBlock[] = []): CallToolResult {
  const spendReport = charged ? { spend: context.budget.report() } : {};
  const fitted = fitWithin('result', result, spendReport);
  const structured: Record<string, unknown> = {
    result: fitted.value,
    ...(fitted.cuts.length ? { truncated: fitted.cuts, more: more(fitted.cuts) } : {}),
    ...spendReport,
  };
  const content: ContentBlock[] = [jsonText(structured), ...links];
  if (charged) content.push({ type: 'text', text: context.budget.reportLine() });
  return { content, structuredContent: structured };
}

const shortened = (cuts: Cut[]) => cuts.map((cut) => `${cut.path}: ${cut.shown} of ${cut.total} ${cut.unit}`).join('; ');

/** How to get the rest of each operation's answer when it was shortened. */
const MORE: Partial<Record<OperationId, (args: Record<string, unknown>) => string>> = {
  listLibrary: () => 'Pass a smaller limit and page on with cursor (the answer\'s nextCursor), or filter by category or tag.',
  getLibraryDocument: (args) => `Read the resource library://${String(args.id)} for the whole document.`,
  getFramework: (args) => `Read the resource framework://${String(args.slug)} for every control.`,
  getBilling: () => 'The ledger is newest first; the CLI (compliance billing --ledger N) shows more of it.',
  searchLibrary: () => 'Pass a smaller limit, or read a hit\'s library:// resource for the whole document.',
  getCapabilities: () => 'Read the resource framework://{slug} of a framework for its controls.',
};

/** What an operation tool's call sends: the arguments as given (aliases included), defaults for listings that could be long. */
function withDefaults(id: OperationId, args: Record<string, unknown>): Record<string, unknown> {
  if (id === 'listLibrary' && args.limit === undefined && args.cursor === undefined && args.page === undefined) return { ...args, limit: 20 };
  return args;
}

function operationTool(spec: OperationSpec, lists: ServiceLists): ToolDefinition {
  const id = spec.id as OperationId;
  const aliases: Partial<Record<OperationId, string[]>> = { generateDocument: ['standard', 'name', 'documentType'], mapDocument: ['file'] };
  // Required by the service though the table's schema checks them in code (one of several names, or a refinement).
  const required: Partial<Record<OperationId, string[]>> = { suggestFrameworks: ['query'], generateDocument: ['framework'], mapDocument: ['framework', 'content'] };
  const enums: Partial<Record<OperationId, Record<string, string[]>>> = { generateDocument: { type: lists.documentTypes }, mapDocument: { framework: lists.verifiedFrameworks } };
  const inputSchema = inputJsonSchema(spec.input, { drop: aliases[id] ?? [], required: required[id] ?? [], enums: enums[id] ?? {} });
  const charged = isCharged(spec);
  const more = MORE[id];
  return {
    tool: { name: id, title: spec.summary, description: spec.description, inputSchema, outputSchema: outputJsonSchema(spec.output), annotations: annotationsFor(spec) },
    group: GROUP_OF_RESOURCE[spec.resource],
    charged: charged ? [id] : [],
    async run(args, context, { signal }) {
      const send = () => context.client.call(id, withDefaults(id, args) as never, { signal });
      const result = charged ? await spend(context, id, [id], send) : await send();
      return answer(context, charged, result, (cuts) => `Shortened (${shortened(cuts)}). ${more?.(args) ?? 'Narrow the request.'}`);
    },
  };
}

// downloadDocument: text and JSON inline (shortened), files as a resource link (document://).
const downloadResult = z.object({
  jobId: z.string(),
  format: z.enum(FORMATS),
  filename: z.string(),
  contentType: z.string(),
  uri: z.string().describe('document://{jobId}.{format}: read it for the whole download'),
  text: z.string().optional().describe('md: the document\'s text'),
  data: z.record(z.string(), z.unknown()).optional().describe('json: the parsed document or mapping report'),
});

export function documentUri(jobId: string, format: string): string {
  return `document://${jobId}.${format}`;
}

function downloadFields(jobId: string, format: (typeof FORMATS)[number], download: Download): z.infer<typeof downloadResult> {
  const base = { jobId, format, filename: download.filename, contentType: download.contentType, uri: documentUri(jobId, format) };
  if (download.kind === 'json') return { ...base, data: download.data };
  if (download.kind === 'text') return { ...base, text: download.text };
  return base;
}

function downloadTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool(operations.downloadDocument, lists);
  definition.tool.outputSchema = outputJsonSchema(downloadResult);
  definition.tool.description = `${operations.downloadDocument.description} pdf and docx come as a document:// resource link to read.`;
  definition.run = async (args, context, { signal }) => {
    const format = (args.format as (typeof FORMATS)[number] | undefined) ?? 'json';
    const download = await context.client.downloadDocument({ ...(args as { jobId: string }), format }, { signal });
    const fields = downloadFields(String(args.jobId), format, download);
    return answer(context, false, fields, () => `Shortened. Read the resource ${fields.uri} for the whole download.`, [{ type: 'resource_link', uri: fields.uri, name: fields.filename, mimeType: download.contentType }]);
  };
  return definition;
}

// mapDocument waits for the report and answers with its summary; detail=full adds each gap's text.
const mapSummary = z.object({
  jobId: z.string(),
  reportUri: z.string().describe('report://{jobId}: the whole report (every control with its evidence)'),
  framework: z.looseObject({ slug: z.string().optional(), name: z.string() }),
  coverage: z.number().describe('percent of the framework\'s controls covered, 0..100'),
  summary: z.looseObject({ controls: z.number(), covered: z.number(), partial: z.number(), missing: z.number() }).nullable(),
  gaps: z.array(z.union([gap, z.object({ controlId: z.string(), title: z.string(), status: controlStatus })])),
});

const detailInput = z.enum(['summary', 'full']).optional()
  .describe('summary (the default): each gap\'s control, title and status; full: also what is missing and the recommendation. The whole report is the report:// resource either way.');

function mapTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool(operations.mapDocument, lists);
  const schema = definition.tool.inputSchema;
  definition.tool.inputSchema = { ...schema, properties: { ...schema.properties, detail: toJson(detailInput, 'input') } };
  definition.tool.outputSchema = outputJsonSchema(mapSummary);
  definition.tool.description = `${operations.mapDocument.description} Waits for the report and returns its coverage and gap list; the whole report is then a report:// resource.`;
  definition.run = async (args, context, call) => {
    const { detail, ...input } = args as { detail?: string } & Record<string, unknown>;
    if (detail !== undefined && detail !== 'summary' && detail !== 'full') throw new ComplianceValidationError({ code: 'invalid_input', field: 'detail', message: 'detail: must be summary or full', hint: 'Leave detail out for the summary.' });
    const { job, report } = await spend(context, 'mapDocument', ['mapDocument'], () => context.client.mapAndDownload(input as never, call));
    const title = typeof input.title === 'string' ? input.title : undefined;
    context.reports.set(job.jobId, { title: `${report.framework.name} mapping${title ? `: ${title}` : ''}` });
    const summary: z.infer<typeof mapSummary> = {
      jobId: job.jobId,
      reportUri: `report://${job.jobId}`,
      framework: report.framework,
      coverage: report.coverage,
      summary: report.summary ?? null,
      gaps: report.gaps.map((item) => (detail === 'full'
        ? { controlId: item.controlId, title: item.title, status: item.status, missing: item.missing, recommendation: item.recommendation }
        : { controlId: item.controlId, title: item.title, status: item.status })),
    };
    return answer(context, true, summary, () => `Shortened. Read the resource ${summary.reportUri} for every gap and control.`, [
      { type: 'resource_link', uri: summary.reportUri, name: `report-${job.jobId}`, mimeType: 'application/json' },
    ]);
  };
  return definition;
}

// generateDocument waits for the document and answers with its Markdown text.
const generated = z.object({
  jobId: z.string(),
  uri: z.string().describe('document://{jobId}.md: the whole document'),
  filename: z.string(),
  text: z.string().describe('the document in Markdown'),
});

function generateTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool(operations.generateDocument, lists);
  definition.tool.outputSchema = outputJsonSchema(generated);
  definition.tool.description = `${operations.generateDocument.description} Waits for the document and returns its Markdown text (downloadDocument gives the other formats).`;
  definition.run = async (args, context, call) => {
    const { job, download } = await spend(context, 'generateDocument', ['generateDocument'], () => context.client.generateAndDownload(args as never, { format: 'md', ...call }));
    const text = download.kind === 'text' ? download.text : JSON.stringify(download.kind === 'json' ? download.data : null, null, 2);
    const result = { jobId: job.jobId, uri: documentUri(job.jobId, 'md'), filename: download.filename, text };
    return answer(context, true, result, () => `Shortened. Read the resource ${result.uri} for the whole document.`, [
      { type: 'resource_link', uri: result.uri, name: download.filename, mimeType: 'text/markdown' },
    ]);
  };
  return definition;
}

// searchLibrary: each hit with the library:// resource to read it.
const searchAnswer = z.object({ total: z.number(), results: z.array(searchHit.extend({ uri: z.string().describe('library://{id}: the whole document') })) });

function searchTool(lists: ServiceLists): ToolDefinition {
  const definition = operationTool(operations.searchLibrary, lists);
  definition.tool.outputSchema = outputJsonSchema(searchAnswer);
  definition.tool.description = `${operations.searchLibrary.description} Each hit has a library:// resource to read the whole document.`;
  definition.run = async (args, context, { signal }) => {
    const found = await spend(context, 'searchLibrary', ['searchLibrary'], () => context.client.searchLibrary(args as never, { signal }));
    const results = found.results.map((hit) => ({ ...hit, uri: `library://${hit.documentId}` }));
    return answer(context, true, { total: found.total ?? results.length, results }, () => `Shortened. ${MORE.searchLibrary!(args)}`,
      results.map((hit) => ({ type: 'resource_link' as const, uri: hit.uri, name: hit.title, mimeType: 'text/plain' })));
  };
  return definition;
}

const planReviewInput = z.strictObject({
  directory: z.string().min(1).describe('The repository root holding compliance.yml, absolute or relative to where the server runs, e.g. "." or "/home/me/acme-policies". From the user.'),
  config: z.string().min(1).optional().describe(`The configuration file, relative to the root, e.g. "${CONFIG_FILE_NAME}" (the default).`),
});
const planAnswer = z.object({
  status: z.string(),
  mode: z.string(),
  documents: z.number(),
  sync: z.object({ counts: z.record(z.string(), z.number()) }).nullable(),
  frameworks: z.array(z.string()),
  estimate: z.unknown(),
  budget: z.looseObject({ allowed: z.boolean(), plannedTokens: z.number(), reasons: z.array(z.string()) }),
  session: spendSchema,
});

function parse<T>(schema: z.ZodType<T>, args: unknown): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'arguments';
  throw new ComplianceValidationError({ code: 'invalid_input', field, message: `${field}: ${issue?.message ?? 'invalid'}`, hint: 'Fix the argument as the tool\'s input schema says.' });
}

function planReviewTool(): ToolDefinition {
  const title = 'Plan and price a review (dry run)';
  return {
    tool: {
      name: 'planReview', title,
      description: 'Price what a review of a repository directory would do (its compliance.yml): the library sync (new and changed documents), the framework mappings and the gate, without spending anything or writing anywhere. Free: read-only calls only.',
      inputSchema: inputJsonSchema(planReviewInput),
      outputSchema: outputJsonSchema(planAnswer),
      annotations: { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    group: 'review',
    charged: [],
    async run(args, context, { signal }) {
      const input = parse(planReviewInput, args);
      const root = context.resolveDirectory(input.directory);
      const configPath = input.config ?? CONFIG_FILE_NAME;
      const config = await readConfigFile(root, configPath);
      const files = await loadDocuments({ root, configPath, config });
      const budget = context.budget.report();
      // Checked against the session's own cap (what it has spent and holds, and that a live key needs one).
      const result = await runReview(context.client, { config, files, today: today(), dryRun: true, ledger: context.budget.ledger, signal });
      const plan = {
        status: result.status,
        mode: result.mode,
        documents: files.length,
        sync: result.sync ? { counts: result.sync.plan.counts } : null,
        frameworks: config.frameworks.map((framework) => framework.framework),
        estimate: result.estimate,
        budget: { allowed: result.budget.allowed, plannedTokens: result.budget.plannedTokens, chargedTokens: result.budget.chargedTokens, balanceTokens: result.budget.balanceTokens ?? null, reasons: result.budget.reasons },
        session: budget,
      };
      return answer(context, false, plan, () => 'Shortened. Run compliance review --dry-run in the directory for the whole plan.');
    },
  };
}

/** Operations that are not tools: the OpenAPI document is the resource openapi://compliance-engine (136 KB is no tool result). */
const NOT_TOOLS: ReadonlySet<OperationId> = new Set(['getOpenApi']);

/** Every tool, with each charged tool's cost line (read from the price list) added to its description. */
export async function buildTools(budget: SessionBudget, lists: ServiceLists): Promise<Map<string, ToolDefinition>> {
  const special: Partial<Record<OperationId, (lists: ServiceLists) => ToolDefinition>> = {
    downloadDocument: downloadTool, mapDocument: mapTool, generateDocument: generateTool, searchLibrary: searchTool,
  };
  const definitions = [
    ...operationIds.filter((id) => !NOT_TOOLS.has(id)).map((id) => (special[id] ?? ((l: ServiceLists) => operationTool(operations[id], l)))(lists)),
    planReviewTool(),
  ];
  const tools = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    if (definition.charged.length > 0) definition.tool.description = `${definition.tool.description}\n${await budget.costLine(definition.charged)}`;
    tools.set(definition.tool.name, definition);
  }
  return tools;
}

/** The tools `groups` selects: an area's tools, and with `read` every read-only tool. */
export function selectTools(tools: Map<string, ToolDefinition>, groups: readonly ToolGroup[]): Map<string, ToolDefinition> {
  return new Map([...tools].filter(([, definition]) => groups.includes(definition.group) || (groups.includes('read') && definition.tool.annotations?.readOnlyHint === true)));
}

export async function callTool(tools: Map<string, ToolDefinition>, name: string, args: Record<string, unknown>, context: McpContext, call: ToolCall = {}): Promise<CallToolResult> {
  const definition = tools.get(name);
  // An unknown tool is a protocol error (the spec's -32602), not a tool result.
  if (!definition) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}: list the tools with tools/list (this server lists the groups its --tools flag selected)`);
  try {
    return await definition.run(args, context, call);
  } catch (error) {
    const result = errorResult(error, definition.charged.length > 0 ? context.budget.reportLine() : undefined);
    return definition.charged.length > 0 ? { ...result, structuredContent: { ...result.structuredContent, spend: context.budget.report() } } : result;
  }
}
