/**
 * The MCP server of `compliance mcp`: tools from the operation table and the review loop,
 * resources, prompts; one Server per connection (stdio has one, Streamable HTTP one per session),
 * all sharing the client, the price list and the session budget.
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
import { budgetRefusal, type SessionBudget } from './budget.js';
import { resolveFrom, type McpContext } from './context.js';
import { getPrompt, PROMPTS } from './prompts.js';
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js';
import { buildTools, callTool, type ToolDefinition } from './tools.js';

export interface SharedState {
  client: ComplianceClient;
  budget: SessionBudget;
  /** The embedded sandbox is in use (no COMPLIANCE_API_KEY / COMPLIANCE_BASE_URL). */
  embedded: boolean;
  version: string;
  /** Ask the user (elicitation) before a charged call costing more than this many tokens. */
  confirmAboveTokens: number;
  cwd: string;
  reports: Map<string, { title: string }>;
  tools?: Promise<Map<string, ToolDefinition>>;
}

function instructions(shared: SharedState): string {
  const { budget } = shared;
  const connection = shared.embedded
    ? 'Connected to an embedded sandbox (no COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL was set): sample data, nothing is charged, state is discarded when the server stops.'
    : `Connected to ${shared.client.baseUrl} with a ${budget.mode} key${budget.mode === 'sandbox' ? ' (nothing is charged)' : ''}.`;
  const cap = budget.maxTokens === undefined
    ? budget.mode === 'live' ? 'No token budget was given (--max-tokens), so every charged tool is refused.' : 'No token budget was given (--max-tokens).'
    : `Token budget for this server session: ${tokens(budget.maxTokens)} (about ${usd(budget.maxTokens)}); a charged call that would cross it is refused before anything is spent.`;
  return [
    'Compliance engine: search the private policy library, map policies against regulatory frameworks, plan and price a review, generate policy documents.',
    connection,
    cap,
    'Charged tools say their price in their description and report the running spend in their result. Use review_plan (free) to price a review before running anything that spends.',
  ].join('\n');
}

export function createMcpServer(shared: SharedState): Server {
  const server = new Server(
    { name: 'compliance-engine', title: 'Compliance engine', version: shared.version },
    { capabilities: { tools: {}, resources: {}, prompts: {}, logging: {} }, instructions: instructions(shared) },
  );
  const context: McpContext = {
    client: shared.client,
    budget: shared.budget,
    reports: shared.reports,
    resolveDirectory: (directory) => resolveFrom(shared.cwd, directory),
    async confirm(what, price) {
      if (price <= shared.confirmAboveTokens || !server.getClientCapabilities()?.elicitation) return;
      const answer = await server.elicitInput({
        message: `${what} costs ${tokens(price)} (about ${usd(price)})${shared.budget.mode === 'live' ? '' : ' at live prices (sandbox key: nothing is charged)'}. ${shared.budget.reportLine()} Go ahead?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Spend the tokens', description: `Spend ${tokens(price)} on ${what}` } }, required: ['confirm'] },
      });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) {
        throw budgetRefusal(`the user did not confirm ${what}: nothing was spent`, 'Ask the user before trying again.');
      }
    },
  };
  shared.tools ??= buildTools(context);
  const tools = shared.tools;

  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [...(await tools).values()].map((definition) => definition.tool) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    // While a job is waited for, each poll is a progress notification (when the client asked for them),
    // so a client that resets its request timeout on progress does not give up on a long generation.
    const progressToken = request.params._meta?.progressToken;
    let polls = 0;
    const onProgress = progressToken === undefined ? undefined : (job: JobStatusModel) => {
      void extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: ++polls, message: `job ${job.status}` } });
    };
    return callTool(await tools, request.params.name, request.params.arguments ?? {}, context, { signal: extra.signal, ...(onProgress ? { onProgress } : {}) });
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(context) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => readResource(request.params.uri, context));
  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: PROMPTS }));
  server.setRequestHandler(GetPromptRequestSchema, async (request) => getPrompt(request.params.name, request.params.arguments));
  return server;
}
