/**
 * `compliance mcp`: the MCP server for AI assistants, on stdio (default) or Streamable HTTP on
 * loopback (--http PORT). Same connection as every command; charged calls are capped by --max-tokens.
 * Its own chunk: the MCP SDK loads only when this command runs.
 */
import { setFlagsFromString } from 'node:v8';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CONNECTION_OPTIONS, integerFlag, listFlag, parseCommand, type OptionSpecs, type Parsed } from '../lib/args.js';
import type { Command } from '../lib/command.js';
import { EXIT, UsageError } from '../lib/errors.js';
import { openSession, usesEmbeddedSandbox, type Session } from '../lib/session.js';
import { SessionBudget } from '../mcp/budget.js';
import { defaultToolGroups, TOOL_GROUPS } from '../mcp/groups.js';
import { asOrigin, serveHttp } from '../mcp/http.js';
import { createMcpServer, type Connection, type SharedState } from '../mcp/server.js';

declare const __CLI_VERSION__: string | undefined;

/** How long a stop waits for cancelled calls to answer, and when the process ends regardless. */
const STOP_GRACE_MS = 500;
const EXIT_DEADLINE_MS = 300;

/** Web origins as `scheme://host[:port]`, each checked. */
function originsFlag(values: Parsed['values'], name: string): string[] | undefined {
  return listFlag(values, name)?.map((text) => {
    const origin = asOrigin(text);
    if (origin === undefined) throw new UsageError(`--${name}: ${JSON.stringify(text)} is not an origin`, 'Write each as scheme://host[:port], for example https://app.example.com.');
    return origin;
  });
}

const OPTIONS = {
  http: { type: 'string', valueName: 'PORT', description: 'serve Streamable HTTP on http://127.0.0.1:PORT/mcp instead of stdio (0 picks a free port)' },
  'max-tokens': { type: 'string', valueName: 'N', description: 'token budget for the whole server session; live keys: without it nothing charged is allowed' },
  'confirm-above': { type: 'string', valueName: 'N', description: 'ask the user (MCP elicitation, where the client supports it) before a call costing more than N tokens (default 100000)' },
  'allow-origin': { type: 'string', valueName: 'ORIGINS', description: 'with --http: web origins allowed to call the server besides loopback pages, comma-separated, e.g. https://app.example.com' },
  tools: { type: 'string', valueName: 'GROUPS', description: `the tool groups to offer, comma-separated: ${TOOL_GROUPS.join(', ')} (default: all; a live key without --max-tokens: read)` },
  ...CONNECTION_OPTIONS,
} as const satisfies OptionSpecs;

export const mcpCommand: Command = {
  options: OPTIONS,
  async run(argv, out) {
    const parsed = parseCommand(argv, OPTIONS, {
      usage: 'compliance mcp [options]',
      description: 'Runs an MCP server for AI assistants (Claude Desktop, VS Code, Cursor): the API operations and the review loop as tools, library documents, framework control sets, mapping reports and the OpenAPI document as resources, review prompts. stdio by default.',
      examples: ['compliance mcp', 'COMPLIANCE_API_KEY=csk_live_… compliance mcp --max-tokens 500000', 'compliance mcp --tools read,library', 'compliance mcp --http 3333'],
      notes: [
        'Charged tools are priced before each call and refused, with nothing spent, when they would cross --max-tokens. Notices go to stderr; stdout carries only the protocol.',
        'Tool groups: read (every read-only tool), library (ingest, refresh, delete, search), generate (suggest, generate, map, jobs), billing (checkout, auto-top-up), review (planReview, calendar).',
      ],
    });
    if (!parsed) return EXIT.ok;
    const maxTokens = integerFlag(parsed.values, 'max-tokens', { min: 0, example: '500000' });
    const confirmAbove = integerFlag(parsed.values, 'confirm-above', { min: 0, example: '100000' }) ?? 100_000;
    const port = integerFlag(parsed.values, 'http', { min: 0, max: 65_535, example: '3333' });
    const groups = listFlag(parsed.values, 'tools', TOOL_GROUPS);
    const allowedOrigins = originsFlag(parsed.values, 'allow-origin');
    if (allowedOrigins && port === undefined) throw new UsageError('--allow-origin applies to --http only', 'Add --http PORT, or leave --allow-origin out (stdio has no origins).');
    const embedded = usesEmbeddedSandbox(parsed);
    // A remote service's client is made without sending anything; the embedded sandbox starts on first use.
    let session: Session | undefined = embedded ? undefined : await openSession(parsed, out);
    let connection: Promise<Connection> | undefined;
    const connect = async (): Promise<Connection> => {
      session ??= await openSession(parsed, out);
      const { client } = session;
      const budget = new SessionBudget(client, await session.mode(), maxTokens);
      const [{ buildTools, selectTools }, capabilities] = await Promise.all([import('../mcp/toolset.js'), client.getCapabilities(), budget.prices()]);
      const lists = { documentTypes: capabilities.documentTypes.map((type) => type.id), verifiedFrameworks: capabilities.verifiedFrameworks.map((framework) => framework.slug) };
      return { client, budget, tools: selectTools(await buildTools(budget, lists), groups ?? defaultToolGroups(budget.mode, maxTokens)) };
    };
    const stopping = new AbortController();
    const stopped = new Promise<void>((resolvePromise) => {
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => resolvePromise());
    });
    try {
      const shared: SharedState = {
        connect: () => (connection ??= connect().catch((error: unknown) => {
          connection = undefined; // the next request tries again (a service that was down may be back)
          throw error;
        })),
        embedded,
        baseUrl: session?.client.baseUrl,
        maxTokens,
        version: typeof __CLI_VERSION__ === 'string' ? __CLI_VERSION__ : '0.0.0-dev',
        confirmAboveTokens: confirmAbove,
        cwd: process.cwd(),
        reports: new Map(),
        stopping: stopping.signal,
        running: new Set(),
      };
      /** Cancels the calls still running and lets them answer (they settle their spend), for at most STOP_GRACE_MS. */
      const stop = async () => {
        stopping.abort(new Error('the server is stopping'));
        await Promise.race([Promise.allSettled(shared.running), new Promise((resolvePromise) => setTimeout(resolvePromise, STOP_GRACE_MS).unref())]);
      };
      if (port !== undefined) {
        // A server left running for days: V8's default heap sizing, made for short bursts, let 4,500
        // abandoned sessions grow the committed heap to 160 MB (and RSS 1.2 to 2.3 times) while the
        // heap in use after a full GC stayed at 21 MB; sized for memory, RSS stayed within 1.15 times
        // (bench/mcpSoak.ts). Heap-growth flags are read as the heap grows, so setting it now holds.
        setFlagsFromString('--optimize-for-size');
        const http = await serveHttp(port, () => createMcpServer(shared), { ...(allowedOrigins ? { allowedOrigins } : {}) });
        out.notice(`MCP server (Streamable HTTP) listening on ${http.url}`);
        await stopped;
        await stop();
        await http.close();
      } else {
        const transport = new StdioServerTransport();
        const server = createMcpServer(shared);
        const closed = new Promise<void>((resolvePromise) => {
          transport.onclose = () => resolvePromise();
          process.stdin.once('end', () => resolvePromise());
        });
        await server.connect(transport);
        await Promise.race([closed, stopped]);
        await stop();
        // Closing the transport stops reading stdin, which would otherwise keep the process alive.
        await server.close();
      }
      return EXIT.ok;
    } finally {
      // A stop must end the process within a second, whatever a closing connection still holds.
      if (stopping.signal.aborted) setTimeout(() => process.exit(), EXIT_DEADLINE_MS).unref();
      await session?.close();
    }
  },
};
