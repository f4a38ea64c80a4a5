/**
 * The MCP tools: one per row of the operation table (named by operation id, described and
 * schema'd by the table, annotated from its method, cost and retry class), plus the review loop's
 * intents. Every charged call goes through the session budget first.
 */
import { z } from 'zod/v4';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Download, JobStatusModel } from '../../api/clientTypes.js';
import { ComplianceValidationError } from '../../api/errors.js';
import { operationIds, operations, type OperationId, type OperationSpec } from '../../api/operations.js';
import { generateDocumentInput } from '../../api/schemas/requests.js';
import { runReview } from '../../review/review.js';
import { readConfigFile } from '../../review/node/config.js';
import { CONFIG_FILE_NAME } from '../../review/config.js';
import { today } from '../lib/format.js';
import { loadDocuments } from '../lib/repo.js';
import type { McpContext } from './context.js';
import { errorResult, jsonText } from './results.js';

/** One tools/call: the client's cancellation, and progress notifications while a job is waited for. */
interface ToolCall {
  signal?: AbortSignal;
  onProgress?: (job: JobStatusModel) => void;
}

export interface ToolDefinition {
  tool: Tool;
  /** Operations one call spends on (priced before the call). */
  charged: OperationId[];
  run(args: Record<string, unknown>, context: McpContext, call: ToolCall): Promise<CallToolResult>;
}

type JsonSchema = Tool['inputSchema'];

/** The table's zod input as JSON Schema (as the client sends it); `drop` removes fields MCP cannot carry. */
function inputJsonSchema(schema: z.ZodType, drop: readonly string[] = []): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  const properties = { ...(json.properties as Record<string, object> | undefined) };
  for (const name of drop) delete properties[name];
  return { ...json, type: 'object', properties } as JsonSchema;
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

/**
 * Reserves the price of `ids` under the session budget (refused, nothing sent, when it does not fit),
 * asks the user above the confirmation threshold, runs `work`, then settles: the price stays spent
 * unless the call failed in a way that cannot have been charged (a refusal, a declined prompt).
 */
async function spend<T>(context: McpContext, what: string, ids: readonly OperationId[], work: () => Promise<T>): Promise<T> {
  const reservation = await context.budget.reserve(what, ids);
  try {
    await context.confirm(what, reservation.tokens);
    const result = await work();
    reservation.commit();
    return result;
  } catch (error) {
    reservation.settleAfter(error);
    throw error;
  }
}

/** A charged tool's result: the answer, then the running spend. */
function withSpend(context: McpContext, result: CallToolResult): CallToolResult {
  return {
    ...result,
    content: [...result.content, { type: 'text', text: context.budget.reportLine() }],
    structuredContent: { ...(result.structuredContent ?? {}), spend: { ...context.budget.report() } },
  };
}

function operationTool(spec: OperationSpec): ToolDefinition {
  const id = spec.id as OperationId;
  // An upload's bytes cannot travel in a JSON tool call: assistants map pasted text (content).
  const drop = spec.multipart ? ['file'] : [];
  return {
    tool: { name: id, title: spec.summary, description: spec.description, inputSchema: inputJsonSchema(spec.input, drop), annotations: annotationsFor(spec) },
    charged: isCharged(spec) ? [id] : [],
    async run(args, context, { signal }) {
      const send = () => context.client.call(id, args as never, { signal });
      const answer = isCharged(spec) ? await spend(context, id, [id], send) : await send();
      const result = downloadResult(id, args, answer) ?? { content: [jsonText(answer)], structuredContent: { result: answer as unknown } };
      return isCharged(spec) ? withSpend(context, result) : result;
    },
  };
}

/** downloadDocument's text and file answers as embedded resources; JSON answers stay JSON. */
function downloadResult(id: OperationId, args: Record<string, unknown>, answer: unknown): CallToolResult | undefined {
  if (id !== 'downloadDocument' || typeof answer !== 'object' || answer === null || !('kind' in answer)) return undefined;
  const download = answer as Download;
  if (download.kind === 'json') return { content: [jsonText(download.data)], structuredContent: { result: download.data as unknown } };
  const uri = `document://${String(args.jobId)}/${download.filename}`;
  const resource = download.kind === 'text'
    ? { uri, mimeType: download.contentType, text: download.text }
    : { uri, mimeType: download.contentType, blob: Buffer.from(download.data).toString('base64') };
  return { content: [{ type: 'resource', resource }] };
}

const reviewPlanInput = z.strictObject({
  directory: z.string().min(1).describe('the repository root holding compliance.yml (absolute, or relative to where the server runs)'),
  config: z.string().min(1).optional().describe(`the configuration file, relative to the root (default ${CONFIG_FILE_NAME})`),
});
const mapTextInput = z.strictObject({
  text: z.string().min(1).describe('the policy text to map'),
  framework: z.string().min(1).describe('a verified framework slug (see the framework:// resources or getCapabilities)'),
  title: z.string().min(1).optional(),
});
const searchInput = operations.searchLibrary.input;

function parse<T>(schema: z.ZodType<T>, args: unknown): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'arguments';
  throw new ComplianceValidationError({ code: 'invalid_input', field, message: `${field}: ${issue?.message ?? 'invalid'}`, hint: 'Fix the argument as the tool\'s input schema says.' });
}

/** A review-loop intent: read-only when it spends nothing; safe to retry only if every operation it spends on is. */
function intent(name: string, title: string, description: string, schema: z.ZodType, charged: OperationId[]): Pick<ToolDefinition, 'tool' | 'charged'> {
  const readOnly = charged.length === 0;
  return {
    tool: {
      name, title, description, inputSchema: inputJsonSchema(schema),
      annotations: { title, readOnlyHint: readOnly, destructiveHint: false, idempotentHint: charged.every((id) => operations[id].retry !== 'charged'), openWorldHint: false },
    },
    charged,
  };
}

function intentTools(): ToolDefinition[] {
  return [
    {
      ...intent('review_plan', 'Plan and price a review (dry run)', 'Price what a review of a repository directory would do (its compliance.yml): the library sync (new and changed documents), the framework mappings and the gate, without spending anything or writing anywhere. Free: read-only calls only.', reviewPlanInput, []),
      async run(args, context, { signal }) {
        const input = parse(reviewPlanInput, args);
        const root = context.resolveDirectory(input.directory);
        const configPath = input.config ?? CONFIG_FILE_NAME;
        const config = await readConfigFile(root, configPath);
        const files = await loadDocuments({ root, configPath, config });
        const budget = context.budget.report();
        const result = await runReview(context.client, { config, files, today: today(), dryRun: true, maxTokens: budget.remainingTokens ?? undefined, signal });
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
        return { content: [jsonText(plan)], structuredContent: plan };
      },
    },
    {
      ...intent('map_text', 'Map pasted policy text against a framework', 'Map policy text (pasted by the user) against a verified framework and wait for the report: coverage, per-control evidence and the gap list. The report is then readable as a report:// resource.', mapTextInput, ['mapDocument']),
      async run(args, context, call) {
        const input = parse(mapTextInput, args);
        const { job, report } = await spend(context, 'map_text', ['mapDocument'], () =>
          context.client.mapAndDownload({ framework: input.framework, content: input.text, ...(input.title ? { title: input.title } : {}) }, call));
        context.reports.set(job.jobId, { title: `${report.framework.name} mapping${input.title ? `: ${input.title}` : ''}` });
        const summary = {
          reportUri: `report://${job.jobId}`,
          framework: report.framework,
          coverage: report.coverage,
          summary: report.summary ?? null,
          gaps: report.gaps.map((gap) => ({ controlId: gap.controlId, title: gap.title, status: gap.status, missing: gap.missing, recommendation: gap.recommendation })),
        };
        return withSpend(context, {
          content: [jsonText(summary), { type: 'resource_link', uri: summary.reportUri, name: `report-${job.jobId}`, mimeType: 'application/json' }],
          structuredContent: summary,
        });
      },
    },
    {
      ...intent('search_library', 'Search the policy library', 'Search the private library for passages (e.g. "which policies cover access reviews?"): ranked documents with highlighted snippets and a library:// link to read each.', searchInput, ['searchLibrary']),
      async run(args, context, { signal }) {
        const answer = await spend(context, 'search_library', ['searchLibrary'], () => context.client.searchLibrary(args as never, { signal }));
        const hits = answer.results.map((hit) => ({ uri: `library://${hit.documentId}`, title: hit.title, score: hit.score, snippets: hit.snippets }));
        return withSpend(context, {
          content: [
            jsonText({ total: answer.total ?? hits.length, results: hits }),
            ...hits.map((hit) => ({ type: 'resource_link' as const, uri: hit.uri, name: hit.title, mimeType: 'text/plain' })),
          ],
          structuredContent: { total: answer.total ?? hits.length, results: hits },
        });
      },
    },
    {
      ...intent('generate_document', 'Generate a policy document and wait for it', 'Generate a policy or framework-reference document (optionally personalised for an organisation), wait for it, and return it as an embedded Markdown resource.', generateDocumentInput, ['generateDocument']),
      async run(args, context, call) {
        const { job, download } = await spend(context, 'generate_document', ['generateDocument'], () =>
          context.client.generateAndDownload(args as never, { format: 'md', ...call }));
        const text = download.kind === 'text' ? download.text : JSON.stringify(download.kind === 'json' ? download.data : null, null, 2);
        return withSpend(context, {
          content: [{ type: 'resource', resource: { uri: `document://${job.jobId}/${download.kind === 'json' ? 'document.json' : download.filename}`, mimeType: 'text/markdown', text } }],
          structuredContent: { jobId: job.jobId },
        });
      },
    },
  ];
}

/** Every tool, with each charged tool's cost line (read from the price list) added to its description. */
export async function buildTools(context: McpContext): Promise<Map<string, ToolDefinition>> {
  const definitions = [...operationIds.map((id) => operationTool(operations[id])), ...intentTools()];
  const tools = new Map<string, ToolDefinition>();
  for (const definition of definitions) {
    if (definition.charged.length > 0) definition.tool.description = `${definition.tool.description}\n${await context.budget.costLine(definition.charged)}`;
    tools.set(definition.tool.name, definition);
  }
  return tools;
}

export async function callTool(tools: Map<string, ToolDefinition>, name: string, args: Record<string, unknown>, context: McpContext, call: ToolCall = {}): Promise<CallToolResult> {
  const definition = tools.get(name);
  // An unknown tool is a protocol error (the spec's -32602), not a tool result.
  if (!definition) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}: list the tools with tools/list`);
  try {
    return await definition.run(args, context, call);
  } catch (error) {
    return errorResult(error, definition.charged.length > 0 ? context.budget.reportLine() : undefined);
  }
}
