/**
 * The MCP server of `compliance mcp`: tools from the operation table and the review loop,
 * resources, prompts; one Server per connection (stdio has one, Streamable HTTP one per session),
 * all sharing the client, the price list and the session budget. initialize is answered before
 * anything is sent to the service or the embedded sandbox starts: the connection opens on first use.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ComplianceClient } from '../../api/client.js';
import type { JobStatusModel } from '../../api/clientTypes.js';
import { tokens, usd } from '../lib/format.js';
import { assertConfirmed, type SessionBudget } from './budget.js';
import { resolveFrom, type McpContext } from './context.js';
import { getPrompt, PROMPTS } from './prompts.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import type { ToolDefinition } from './tools.js';

/** What needs the service (or the embedded sandbox started): opened once, after the first initialize was answered. */
export interface Connection {
  client: ComplianceClient;
  budget: SessionBudget;
  /** The tools --tools (or the default for the key) selected. */
  tools: Map<string, ToolDefinition>;
}

export interface SharedState {
  /** Opens the connection on first use; every connection of this server process shares it. */
  connect(): Promise<Connection>;
  /** The embedded sandbox is in use (no COMPLIANCE_API_KEY / COMPLIANCE_BASE_URL). */
  embedded: boolean;
  /** The service's base URL, when it is not the embedded sandbox. */
  baseUrl: string | undefined;
  maxTokens: number | undefined;
  version: string;
  /** Ask the user (elicitation) before a charged call costing more than this many tokens. */
  confirmAboveTokens: number;
  cwd: string;
  reports: Map<string, { title: string }>;
  /** Aborted when the server is told to stop (SIGTERM, SIGINT): every tool call still running is cancelled. */
  stopping: AbortSignal;
  /** Tool calls still running, so a stop can let them answer before the transport closes. */
  running: Set<Promise<unknown>>;
}

/** Known before anything is sent, so initialize is answered without waiting for the service. */
function instructions(shared: Pick<SharedState, 'embedded' | 'baseUrl' | 'maxTokens'>): string {
  const connection = shared.embedded
    ? 'Connected to an embedded sandbox (no COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL was set): sample data, nothing is charged; its library is kept between runs in the per-user data directory unless the server was started with --ephemeral.'
    : `Connected to ${shared.baseUrl ?? 'the service'}; ping tells whether the key is a sandbox key (nothing is charged) or a live one.`;
  const cap = shared.maxTokens === undefined
    ? shared.embedded ? 'No token budget was given (--max-tokens).' : 'No token budget was given (--max-tokens): with a live key every charged tool is refused, and only the read-only tools are listed unless --tools selects more.'
    : `Token budget for this server session: ${tokens(shared.maxTokens)} (about ${usd(shared.maxTokens)}); a charged call that would cross it is refused before anything is spent.`;
  return [
    'Compliance engine: search the private policy library, map policies against regulatory frameworks, plan and price a review, generate policy documents.',
    connection,
    cap,
    'Charged tools say their price in their description and report the running spend in their result. Use planReview (free) to price a review before running anything that spends. To map or search a library document, give its id (mapDocument documentId): never its text. Answers are kept under 8 KB: a long list or text comes in parts, each answer saying how much remains (page) and giving the call for the next part (next).',
  ].join('\n');
}

export function createMcpServer(shared: SharedState): Server {
  const server = new Server(
    { name: 'compliance-engine', title: 'Compliance engine', version: shared.version },
    { capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} }, instructions: instructions(shared) },
  );
  let context: Promise<{ context: McpContext; tools: Map<string, ToolDefinition>; callTool: typeof import('./tools.js').callTool }> | undefined;
  // The tools' code (zod schemas, the review loop) loads after initialize was answered.
  const ready = () => (context ??= Promise.all([shared.connect(), import('./tools.js')]).then(([connection, { callTool }]) => ({
    tools: connection.tools,
    callTool,
    context: {
      client: connection.client,
      budget: connection.budget,
      reports: shared.reports,
      kept: new Map(),
      resolveDirectory: (directory: string) => resolveFrom(shared.cwd, directory),
      async confirm(what: string, price: number) {
        if (price <= shared.confirmAboveTokens || !server.getClientCapabilities()?.elicitation) return;
        const answer = await server.elicitInput({
          message: `${what} costs ${tokens(price)} (about ${usd(price)})${connection.budget.mode === 'live' ? '' : ' at live prices (sandbox key: nothing is charged)'}. ${connection.budget.reportLine()} Go ahead?`,
          requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Spend the tokens', description: `Spend ${tokens(price)} on ${what}` } }, required: ['confirm'] },
        }).catch((error: unknown) => ({ action: 'unreadable' as const, error }));
        assertConfirmed(what, answer);
      },
    },
  })));

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(await ready()).tools.values()].map((definition) => definition.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // While a job is waited for, each poll is a progress notification (when the client asked for them),
    // so a client that resets its request timeout on progress does not give up on a long generation.
    const progressToken = request.params._meta?.progressToken;
    let polls = 0;
    const onProgress = progressToken === undefined ? undefined : (job: JobStatusModel) => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++polls, message: `job ${job.status}` } });
    };
    const { tools, context: toolContext, callTool } = await ready();
    // Cancelled by the client (notifications/cancelled) or by the server stopping: the call settles its
    // spend either way, and on a stop it still answers, saying what was charged.
    const signal = AbortSignal.any([extra.signal, shared.stopping]);
    const call = callTool(tools, request.params.name, request.params.arguments ?? {}, toolContext, { signal, ...(onProgress ? { onProgress } : {}) });
    shared.running.add(call);
    const done = () => void shared.running.delete(call);
    call.then(done, done);
    return call;
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources((await ready()).context) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, (await ready()).context));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
