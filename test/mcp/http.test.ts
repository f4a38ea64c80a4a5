/**
 * `compliance mcp --http` (Streamable HTTP on loopback) driven by the SDK's Client against a
 * live-mode sandbox: without --max-tokens a live key charges nothing; with it, a client that
 * supports elicitation is asked before a call above --confirm-above, and a "no" spends nothing.
 */
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, liveSandbox } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, httpClient, httpServer, textOf } from './helpers.js';

let built: BuiltCli;
let box: RunningSandbox;

async function ledger(): Promise<{ balanceTokens: number; ids: string[] }> {
  const body = (await (await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } })).json()) as { balanceTokens: number; ledger: Array<{ id: string }> };
  return { balanceTokens: body.balanceTokens, ids: body.ledger.map((entry) => entry.id) };
}

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox();
}, 120_000);

afterAll(async () => {
  await box?.close();
  built?.remove();
});

describe('compliance mcp --http with a live key and no budget', () => {
  let server: Awaited<ReturnType<typeof httpServer>>;
  let client: Client;
  beforeAll(async () => {
    // --tools: without a budget a live key offers only the read-only tools; the charged ones are asked for here, to be refused.
    server = await httpServer(built.cli, ['--tools', 'read,library'], connectionEnv(box));
    client = await httpClient(server.url);
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('answers on loopback only, and lists the same tools as over stdio', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['getCalendar', 'searchLibrary', 'ingestLibraryDocument']));
    expect(names).not.toContain('mapDocument');
    expect(client.getInstructions()).toContain('No token budget was given (--max-tokens): with a live key every charged tool is refused');
  });

  it('a free tool works; a charged one is refused with nothing spent', async () => {
    const calendar = (await client.callTool({ name: 'getCalendar' })) as CallToolResult;
    expect(calendar.isError).toBeFalsy();
    const before = await ledger();
    const refused = (await client.callTool({ name: 'searchLibrary', arguments: { query: 'access reviews' } })) as CallToolResult;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^budget_exceeded: refused before spending anything: searchLibrary \(1 × searchLibrary at 5,000 tokens\) costs 5,000 tokens and no token cap was set, so nothing charged is allowed\nhint: Ask the user to restart the server with --max-tokens N/);
    expect(textOf(refused)).toContain('hint: Ask the user to restart the server with --max-tokens N');
    expect(await ledger()).toEqual(before);
    expect(JSON.stringify(refused)).not.toContain(LIVE_KEY);
  });

  it('reads a framework control set and runs a prompt', async () => {
    const framework = await client.readResource({ uri: 'framework://hipaa-security' });
    expect(JSON.parse((framework.contents[0] as { text: string }).text).controls.length).toBeGreaterThan(10);
    const prompt = await client.getPrompt({ name: 'draft_policy_for_gap', arguments: { framework: 'hipaa-security', control: '164.308(a)(5)(i)' } });
    expect(JSON.stringify(prompt.messages)).toContain('getFramework hipaa-security');
  });

  it('rejects a request whose Host is not loopback (DNS rebinding)', async () => {
    // node:http, since fetch does not let a caller set Host.
    const status = (host: string) => new Promise<number>((resolvePromise, reject) => {
      const req = request(server.url, { method: 'POST', headers: { host, 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolvePromise(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end('{}');
    });
    const port = new URL(server.url).port;
    expect(await status(`evil.example:${port}`)).toBe(403);
    expect(await status(`localhost:${port}`)).toBe(400);
  });
});

describe('compliance mcp --http --allow-origin', () => {
  it('serves the pages of an allowed origin and loopback pages, no other', async () => {
    const server = await httpServer(built.cli, ['--allow-origin', 'https://app.example.com'], connectionEnv(box));
    try {
      const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'origin-test', version: '1' } } });
      const from = async (origin: string) => (await fetch(server.url, { method: 'POST', headers: { origin, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: initialize })).status;
      expect(await from('https://app.example.com')).toBe(200);
      expect(await from('http://localhost:3000')).toBe(200);
      expect(await from('https://evil.example')).toBe(403);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('compliance mcp --http with a budget and a client that supports elicitation', () => {
  let server: Awaited<ReturnType<typeof httpServer>>;
  let client: Client;
  const answers: Array<'accept' | 'decline'> = [];
  const asked: string[] = [];
  beforeAll(async () => {
    server = await httpServer(built.cli, ['--max-tokens', '1000000', '--confirm-above', '1000'], connectionEnv(box));
    client = new Client({ name: 'compliance-tests', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      const action = answers.shift() ?? 'decline';
      return action === 'accept' ? { action, content: { confirm: true } } : { action };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('asks the user before a charged call above the threshold; a decline spends nothing', async () => {
    const before = await ledger();
    answers.push('decline');
    const declined = (await client.callTool({ name: 'searchLibrary', arguments: { query: 'access reviews' } })) as CallToolResult;
    expect(asked.at(-1)).toMatch(/^searchLibrary costs 5,000 tokens \(about US\$0\.02\)\. Session spend: 0 tokens charged; budget 1,000,000 tokens/);
    expect(declined.isError).toBe(true);
    expect(textOf(declined)).toContain('declined: the user declined searchLibrary: nothing was sent or spent');
    expect(await ledger()).toEqual(before);

    answers.push('accept');
    const accepted = (await client.callTool({ name: 'searchLibrary', arguments: { query: 'access reviews' } })) as CallToolResult;
    expect(accepted.isError).toBeFalsy();
    expect(textOf(accepted)).toContain('Session spend: 5,000 tokens charged; budget 1,000,000 tokens, 995,000 tokens left.');
    expect((await ledger()).balanceTokens).toBe(before.balanceTokens - 5_000);
  });

  it('mapDocument waits for the mapping job with progress notifications, and the report becomes a resource', async () => {
    answers.push('accept');
    const progress: Array<{ progress: number; message?: string }> = [];
    const text = 'Access to ePHI is granted by role and reviewed quarterly. Every user has a unique user identification. Sessions lock after 15 minutes.';
    const result = (await client.callTool({ name: 'mapDocument', arguments: { content: text, framework: 'hipaa-security' } }, undefined, { onprogress: (event) => void progress.push(event) })) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked.at(-1)).toMatch(/^mapDocument costs 250,000 tokens/);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0]!.message).toMatch(/^job (queued|running|completed)$/);
    const { reportUri, coverage } = (result.structuredContent as { result: { reportUri: string; coverage: number } }).result;
    expect(coverage).toBeGreaterThan(0);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toContain(reportUri);
    const report = await client.readResource({ uri: reportUri });
    expect(JSON.parse((report.contents[0] as { text: string }).text)).toMatchObject({ coverage });
    expect(textOf(result)).toContain('Session spend: 255,000 tokens charged; budget 1,000,000 tokens, 745,000 tokens left.');

    // downloadDocument: JSON as JSON, Markdown as text, each with the document:// resource holding all of it.
    const jobId = reportUri.replace('report://', '');
    const json = (await client.callTool({ name: 'downloadDocument', arguments: { jobId, format: 'json' } })) as CallToolResult;
    // A report too long for one answer comes as its JSON text, in parts.
    expect(json.structuredContent).toMatchObject({ result: { format: 'json', uri: `document://${jobId}.json`, text: expect.stringMatching(/^\{/) }, next: { tool: 'downloadDocument', arguments: { jobId, format: 'json' } } });
    expect((json.structuredContent as { page: { total: number } }).page.total).toBe(JSON.stringify(JSON.parse((report.contents[0] as { text: string }).text)).length);
    const md = (await client.callTool({ name: 'downloadDocument', arguments: { jobId, format: 'md' } })) as CallToolResult;
    expect(md.structuredContent).toMatchObject({ result: { format: 'md', contentType: expect.stringContaining('text/markdown'), text: expect.stringContaining('HIPAA') } });
    const whole = await client.readResource({ uri: `document://${jobId}.md` });
    expect((whole.contents[0] as { text: string }).text).toContain('HIPAA');
  });
});
