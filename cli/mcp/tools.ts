/**
 * The MCP tools, one naming style (the operation ids, camelCase) and one tool per intent: a tool
 * per row of the operation table (described and schema'd by the table, annotated from its method,
 * cost and retry class), where the tools that create a generation or mapping job also wait for it
 * (documentTools.ts), the library's reading tools page what they read (libraryTools.ts), plus
 * getMappingReport and planReview. Every input property is described, every tool answers with
 * structuredContent, and no answer is over 8 KB: a long list or text comes in parts, each answer
 * giving the call for the next (answer.ts). Every charged call goes through the session budget first.
 */
import { z } from 'zod/v4/mini';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { JobStatusModel } from '../../api/clientTypes.js';
import { ComplianceValidationError } from '../../api/errors.js';
import { operations, type OperationId, type OperationSpec, type Resource } from '../../api/operations.js';
import { describeRequestFields } from '../../api/schemas/fieldDescriptions.js';
import type { McpContext } from './context.js';
import type { ToolGroup } from './groups.js';
import { answer, type Part } from './answer.js';
import { errorResult } from './results.js';

/** One tools/call: the client's cancellation (or the server stopping), and progress notifications while a job is waited for. */
export interface ToolCall {
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

export function toJson(schema: z.ZodMiniType, io: 'input' | 'output'): Record<string, unknown> {
  describeRequestFields();
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

interface InputOptions {
  /** Fields MCP cannot carry, aliases (accepted, not advertised) and fields another one says already. */
  drop?: readonly string[];
  /** What the service requires but the schema checks in code. */
  required?: readonly string[];
  /** The closed sets the service lists. */
  enums?: Record<string, string[]>;
  /** Arguments of this server's own (paging, a detail level), after the table's. */
  add?: Properties;
  /** Descriptions that say more than the table's for an assistant (which tool gives the value). */
  describe?: Record<string, string>;
}

/** The table's zod input as JSON Schema (as the client sends it), shaped for the tool. */
export function inputJsonSchema(schema: z.ZodMiniType, options: InputOptions = {}): JsonSchema {
  const json = toJson(schema, 'input');
  const properties = { ...(json.properties as Properties | undefined) };
  for (const name of options.drop ?? []) delete properties[name];
  for (const [name, values] of Object.entries(options.enums ?? {})) {
    if (properties[name] && values.length > 0) properties[name] = { ...properties[name], enum: values };
  }
  for (const [name, description] of Object.entries(options.describe ?? {})) properties[name] = { ...properties[name], description };
  Object.assign(properties, options.add);
  const required = [...new Set([...((json.required as string[] | undefined) ?? []), ...(options.required ?? [])])].filter((name) => name in properties);
  return { ...json, type: 'object', properties, ...(required.length ? { required } : {}) } as JsonSchema;
}

/** The paging argument of a tool whose answer holds one long list or text. */
export function offsetProperty(what: string): Record<string, unknown> {
  return { type: 'integer', minimum: 0, description: `Where to start in the ${what}, from 0. A shortened answer's next.arguments give it.` };
}

/** `args.offset`, checked: a whole number from 0 (0 when left out). */
export function offsetOf(args: Record<string, unknown>): number {
  const offset = args.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isSafeInteger(offset) || offset < 0) {
    throw new ComplianceValidationError({ code: 'invalid_input', field: 'offset', message: 'offset: must be a whole number from 0', hint: 'Use the offset a shortened answer gives in next.arguments, or leave it out to start at the beginning.' });
  }
  return offset;
}

const isCharged = (spec: OperationSpec) => spec.cost.kind !== 'free';

export function annotationsFor(spec: OperationSpec): Tool['annotations'] {
  const readOnly = spec.method === 'GET' && !isCharged(spec);
  return {
    title: spec.summary,
    readOnlyHint: readOnly,
    // Removes state (DELETE) or replaces existing state (PUT settings, refreshing a document's content).
    destructiveHint: readOnly ? false : spec.method === 'DELETE' || spec.method === 'PUT' || spec.pathParams.length > 0,
    // Repeating it changes nothing more: GET, PUT and DELETE by their nature; a POST only when the
    // service refuses the repeat before charging (replayable). Every other POST makes something new
    // each time (a job, a checkout session) or charges again.
    idempotentHint: spec.method === 'POST' ? spec.retry === 'replayable' : spec.retry !== 'charged',
    openWorldHint: false,
  };
}

const GROUP_OF_RESOURCE: Record<Resource, ToolGroup> = {
  account: 'read', framework: 'generate', document: 'generate', job: 'generate', library: 'library', billing: 'billing', calendar: 'review',
};

export function groupOf(id: OperationId): ToolGroup {
  return GROUP_OF_RESOURCE[operations[id].resource];
}

/**
 * One charged call under the session budget (SessionBudget.spend: review/'s charged step): refused,
 * nothing sent, when it does not fit; the user asked above the confirmation threshold; then settled:
 * the price stays spent unless the call failed in a way that cannot have been charged (a refusal,
 * a declined or unreadable confirmation). `work` calls `admitted` when the service has admitted its
 * job: the price is then spent whatever fails after.
 */
export function spend<T>(context: McpContext, what: string, ids: readonly OperationId[], work: (admitted: () => void) => Promise<T>): Promise<T> {
  return context.budget.spend(what, ids, (price) => context.confirm(what, price), work);
}

export function parse<T>(schema: z.ZodMiniType<T>, args: unknown): T {
  const parsed = schema.safeParse(args);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = issue?.path.join('.') || 'arguments';
  throw new ComplianceValidationError({ code: 'invalid_input', field, message: `${field}: ${issue?.message ?? 'invalid'}`, hint: 'Fix the argument as the tool\'s input schema says.' });
}

/** The one long list of an operation's answer, which its tool pages with `offset`. */
const PARTS: Partial<Record<OperationId, { key: string; noun: string }>> = {
  getFramework: { key: 'controls', noun: 'controls' },
  suggestFrameworks: { key: 'candidates', noun: 'candidates' },
  getBilling: { key: 'ledger', noun: 'ledger entries' },
  searchLibrary: { key: 'results', noun: 'hits' },
};

/** Answers of charged calls kept per connection, so their next parts cost nothing. */
const KEPT_ANSWERS = 8;

function keep(context: McpContext, key: string, result: unknown): void {
  context.kept.delete(key);
  context.kept.set(key, result);
  for (const oldest of context.kept.keys()) {
    if (context.kept.size <= KEPT_ANSWERS) break;
    context.kept.delete(oldest);
  }
}

/** A tool for one row of the operation table, sending its arguments as given (aliases included). */
interface OperationToolOptions extends InputOptions {
  description?: string;
  /** What of the service's answer the tool shows, when not all of it. */
  present?: (result: Record<string, unknown>) => Record<string, unknown>;
}

export function operationTool(id: OperationId, options: OperationToolOptions = {}): ToolDefinition {
  const spec = operations[id];
  const part = PARTS[id];
  const inputSchema = inputJsonSchema(spec.input, { ...options, add: { ...(part ? { offset: offsetProperty(part.noun) } : {}), ...options.add } });
  const charged = isCharged(spec);
  return {
    tool: { name: id, title: spec.summary, description: options.description ?? spec.description, inputSchema, annotations: annotationsFor(spec) },
    group: groupOf(id),
    charged: charged ? [id] : [],
    async run(args, context, { signal }) {
      const { offset: _offset, ...input } = args;
      const offset = part ? offsetOf(args) : 0;
      const send = () => context.client.call(id, input as never, { signal });
      // A charged answer's next part comes from the answer kept (free); a first call always asks the service.
      const key = `${id} ${JSON.stringify(input)}`;
      const kept = charged && offset > 0 ? context.kept.get(key) : undefined;
      const answered = (kept ?? (charged ? await spend(context, id, [id], send) : await send())) as Record<string, unknown>;
      if (charged && part) keep(context, key, answered);
      const result = options.present ? options.present(answered) : answered;
      const paged: Part | undefined = part && { ...part, offset, next: (end) => ({ tool: id, arguments: { ...input, offset: end } }) };
      return answer(context, { charged, result, ...(paged ? { part: paged } : {}) });
    },
  };
}

/** A call cancelled (by its client, or the server stopping): what became of it, in the assistant's terms. */
function cancelled(name: string, signal: AbortSignal, job: JobStatusModel | undefined): { code: string; message: string; hint: string } {
  const why = signal.reason instanceof Error ? signal.reason.message : 'the client cancelled it';
  return {
    code: 'cancelled',
    message: `${name} was cancelled: ${why}.${job ? ` Its job ${job.jobId} had been accepted by the service, so it is charged and still completes.` : ''}`,
    hint: job ? `Read its result later with getJob (jobId ${job.jobId}) and, for a mapping, getMappingReport.` : 'Call it again when the server is back, if it is still wanted.',
  };
}

export async function callTool(tools: Map<string, ToolDefinition>, name: string, args: Record<string, unknown>, context: McpContext, call: ToolCall = {}): Promise<CallToolResult> {
  const definition = tools.get(name);
  // An unknown tool is a protocol error (the spec's -32602), not a tool result.
  if (!definition) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${JSON.stringify(name)}: list the tools with tools/list (this server lists the groups its --tools flag selected)`);
  // The last status of a job the call waits for: a cancelled call says whether the service had accepted it.
  let job: JobStatusModel | undefined;
  const onProgress = (status: JobStatusModel) => {
    job = status;
    call.onProgress?.(status);
  };
  try {
    return await definition.run(args, context, { ...call, onProgress });
  } catch (error) {
    const reported = call.signal?.aborted ? cancelled(name, call.signal, job) : error;
    const result = errorResult(reported, definition.charged.length > 0 ? context.budget.reportLine() : undefined);
    return definition.charged.length > 0 ? { ...result, structuredContent: { ...result.structuredContent, spend: context.budget.report() } } : result;
  }
}
