/**
 * templates/n8n/compliance-ai-agent-scripted.json in a real n8n (2.40.7): an AI Agent whose tools are
 * our node (Library → Search, Library → Get), run with `n8n execute`. The model is a scripted
 * OpenAI-compatible chat-completions server on loopback (the OpenAI credential's Base URL): it asks
 * for the search tool, then for the document the search found, then answers from the tool results.
 * So n8n really executes the tool calls: the sandbox (behind a recording proxy) sees them, and the
 * agent's answer carries what only the sandbox could know (the document id it assigned).
 * The same agent runs a second time with its tools as a user leaves them after dragging Compliance
 * Tool in and picking the operation (version 2, no field touched: the parameters the editor saves,
 * computed with the editor's own save function): the model must still be offered parameters to fill.
 * COMPLIANCE_SKIP_REAL_N8N=1 skips (it says so); CI never sets it.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { INode, INodeParameters, INodeTypeDescription } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeaks } from '../../hardening/leaks.js';
import { Compliance } from '../../../nodes/Compliance/Compliance.node.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { buildPackage, installN8n, N8nHarness, outputOf, REPO, type N8nRun } from './harness.js';
import { recordingProxy, type RecordingProxy } from './recordingProxy.js';
import { LIBRARY_TEXT } from './workflows.js';

const skip = process.env.COMPLIANCE_SKIP_REAL_N8N === '1';
if (skip) console.warn('COMPLIANCE_SKIP_REAL_N8N=1: the real-n8n AI-agent suite is skipped');

const KEY = 'csk_sandbox_n8n_ai_agent_key_001';
const MODEL_KEY = 'sk-scripted-model-key-not-secret';
const TITLE = 'Quarterly access review procedure';
const WORKFLOW_ID = 'wfComplianceAi01';
const UNTOUCHED_ID = 'wfComplianceAi02';
const SEARCH_WORDS = 'access review least privilege';

interface ChatMessage {
  role: string;
  content?: string | null | Array<{ text?: string }>;
  tool_calls?: Array<{ function: { name: string } }>;
}
interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: Array<{ function: { name: string; description?: string; parameters?: { properties?: Record<string, unknown> } } }>;
}

const text = (message: ChatMessage) => (typeof message.content === 'string' ? message.content : (message.content ?? []).map((part) => part.text ?? '').join(''));

/**
 * The scripted model: its next step follows from the conversation so far (not a call counter), as a
 * real model's would: no tool result yet → search; a search result → read the first document it
 * names; the document's text → answer quoting title, id and a phrase of the text. It fills each
 * tool's one parameter under the name the tool's schema gives (a tool without one cannot be used).
 */
function scriptedReply(request: ChatRequest): { content: string } | { tool: string; args: Record<string, string> } {
  const tools = (request.tools ?? []).map((tool) => tool.function);
  const search = tools.find((tool) => /search/i.test(tool.name));
  const read = tools.find((tool) => /read|get/i.test(tool.name));
  const results = request.messages.filter((message) => message.role === 'tool').map(text);
  if (!search || !read) return { content: `tools missing: offered ${tools.map((tool) => tool.name).join(', ') || 'none'}` };
  const parameter = (tool: typeof search) => Object.keys(tool.parameters?.properties ?? {})[0];
  const [searchKey, readKey] = [parameter(search), parameter(read)];
  if (!searchKey || !readKey) return { content: `no parameter to fill: ${search.name} ${JSON.stringify(search.parameters)}, ${read.name} ${JSON.stringify(read.parameters)}` };
  if (results.length === 0) return { tool: search.name, args: { [searchKey]: SEARCH_WORDS } };
  const documentId = /"documentId"\s*:\s*"([^"]+)"/.exec(results[0]!)?.[1];
  if (!documentId) return { content: `The search found nothing: ${results[0]!.slice(0, 300)}` };
  if (results.length === 1) return { tool: read.name, args: { [readKey]: documentId } };
  const title = /"title"\s*:\s*"([^"]+)"/.exec(results[1]!)?.[1] ?? '(no title)';
  const quote = /remove access that is no longer required/.exec(results[1]!)?.[0] ?? '(no quote)';
  return { content: `"${title}" (document ${documentId}) describes it: owners ${quote}.` };
}

function completion(request: ChatRequest, reply: ReturnType<typeof scriptedReply>, n: number) {
  const message =
    'content' in reply
      ? { role: 'assistant', content: reply.content }
      : { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: reply.tool, arguments: JSON.stringify(reply.args) } }] };
  return {
    id: `chatcmpl-scripted-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request.model,
    choices: [{ index: 0, message, finish_reason: 'content' in reply ? 'stop' : 'tool_calls', logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** One SSE stream of the same completion, for a client that asks for `stream: true`. */
function streamed(body: ReturnType<typeof completion>): string {
  const { message, finish_reason } = body.choices[0]!;
  const delta = message.tool_calls ? { role: 'assistant', tool_calls: message.tool_calls.map((call, index) => ({ index, ...call })) } : { role: 'assistant', content: message.content };
  const chunk = (choices: unknown[], extra: object = {}) => `data: ${JSON.stringify({ id: body.id, object: 'chat.completion.chunk', created: body.created, model: body.model, choices, ...extra })}\n\n`;
  return chunk([{ index: 0, delta, finish_reason: null }]) + chunk([{ index: 0, delta: {}, finish_reason }]) + chunk([], { usage: body.usage }) + 'data: [DONE]\n\n';
}

type ToolDescription = INodeTypeDescription & { name: string };

/**
 * What the n8n editor saves for a version-2 Compliance Tool node on which the user picked only
 * `picked` (resource, operation): the editor holds each field with its default and saves only what
 * differs from the default (editor-ui getNodeDataToSave: NodeHelpers.getNodeParameters(properties,
 * parameters, returnDefaults false, …)), over the tool description n8n serves the editor
 * (createAiTools, usableAsTool replacements spread). Computed with the pinned n8n's own functions.
 */
function editorSaved(bin: string, picked: INodeParameters): INodeParameters {
  const n8nRequire = createRequire(join(dirname(bin), '..', 'n8n', 'package.json'));
  const { createAiTools } = n8nRequire('./dist/tool-generation/ai-tools.js') as {
    createAiTools(types: { nodes: ToolDescription[] }, known: { nodes: Record<string, unknown>; credentials: Record<string, unknown> }): void;
  };
  const { NodeHelpers } = n8nRequire('n8n-workflow') as typeof import('n8n-workflow');
  const base = JSON.parse(JSON.stringify({ ...new Compliance().nodeVersions[2]!.description, name: 'n8n-nodes-compliance.compliance' })) as ToolDescription;
  const types = { nodes: [base] };
  createAiTools(types, { nodes: { [base.name]: {} }, credentials: {} });
  const tool = types.nodes[1]!;
  const node: INode = { id: 'editor', name: 'editor', type: tool.name, typeVersion: 2, position: [0, 0], parameters: picked };
  const held = NodeHelpers.getNodeParameters(tool.properties, picked, true, false, node, tool)!;
  return NodeHelpers.getNodeParameters(tool.properties, held, false, false, node, tool)!;
}

describe.skipIf(skip)('the scripted-model AI agent template in a real n8n (tools executed against the sandbox)', () => {
  let sandbox: RunningSandbox;
  let proxy: RecordingProxy;
  let model: Server;
  let n8n: N8nHarness;
  let run: N8nRun;
  let documentId: string;
  const modelRequests: Array<{ path: string; authorization?: string; body: ChatRequest }> = [];
  // The second run: the same agent with its tools as the editor saves them untouched.
  let untouched: N8nRun;
  let untouchedTools: Record<string, INodeParameters>;
  const untouchedRequests: typeof modelRequests = [];
  let recording = modelRequests;
  let proxyBefore = 0;

  beforeAll(async () => {
    const bin = installN8n();
    buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [KEY] });
    proxy = await recordingProxy(sandbox.origin);

    // The library document the agent is to find, ingested straight through the service API.
    const ingest = await fetch(`${sandbox.baseUrl}/library/documents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: TITLE, content: LIBRARY_TEXT, filename: 'policies/access-review.md' }),
    });
    expect(ingest.status).toBe(202);
    const admitted = (await ingest.json()) as { documentId: string; jobId: string };
    documentId = admitted.documentId;
    expect(documentId).toEqual(expect.any(String));
    for (let polls = 0; ; polls++) {
      const job = (await (await fetch(`${sandbox.baseUrl}/jobs/${admitted.jobId}`, { headers: { authorization: `Bearer ${KEY}` } })).json()) as { status: string };
      if (job.status === 'completed') break;
      expect(['queued', 'running'], `ingest job ${JSON.stringify(job)}`).toContain(job.status);
      expect(polls).toBeLessThan(100);
      await new Promise((r) => setTimeout(r, 100));
    }

    model = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `scripted model: no ${req.method} ${req.url}` } }));
          return;
        }
        const body = JSON.parse(raw) as ChatRequest;
        recording.push({ path: req.url, authorization: req.headers.authorization, body });
        const answer = completion(body, scriptedReply(body), recording.length);
        if (body.stream) res.writeHead(200, { 'content-type': 'text/event-stream' }).end(streamed(answer));
        else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolveListen) => model.listen(0, '127.0.0.1', resolveListen));
    const modelUrl = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;

    n8n = await N8nHarness.create(bin);
    // The template's placeholder credentials, filled in as a user would (ids and names as in the file).
    await n8n.importCredentials([
      { id: 'complianceApi001', name: 'Compliance API', type: 'complianceApi', data: { apiKey: KEY, baseUrl: proxy.origin, authHeader: 'bearer' } },
      { id: 'openAiPlacehold1', name: 'OpenAI account', type: 'openAiApi', data: { apiKey: MODEL_KEY, url: modelUrl, header: false } },
    ]);
    const template = JSON.parse(readFileSync(join(REPO, 'templates/n8n/compliance-ai-agent-scripted.json'), 'utf8')) as Record<string, unknown>;
    await n8n.importWorkflows([{ ...template, id: WORKFLOW_ID, isArchived: false }]);
    untouchedTools = {
      'Search Library': editorSaved(bin, { resource: 'library', operation: 'search' }),
      'Read Library Document': editorSaved(bin, { resource: 'library', operation: 'get' }),
    };
    const nodes = (template.nodes as Array<{ name: string; parameters: INodeParameters; typeVersion: number }>).map((node) =>
      node.name in untouchedTools ? { ...node, typeVersion: 2, parameters: untouchedTools[node.name]! } : node,
    );
    await n8n.importWorkflows([
      { ...template, id: WORKFLOW_ID, isArchived: false },
      { ...template, id: UNTOUCHED_ID, name: 'Compliance: AI agent, tools left as added', nodes, isArchived: false },
    ]);
    run = await n8n.execute(WORKFLOW_ID);
    recording = untouchedRequests;
    proxyBefore = proxy.seen.length;
    untouched = await n8n.execute(UNTOUCHED_ID);
  }, 30 * 60_000);

  afterAll(async () => {
    n8n?.close();
    await new Promise<void>((resolveClose) => (model ? model.close(() => resolveClose()) : resolveClose()));
    await proxy?.close();
    await sandbox?.close();
  });

  it('runs to success with n8n execute', () => {
    expect(run.execution.status, `${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`).toBe('success');
  });

  it("offers the model our node's two tools, with descriptions and the $fromAI parameters", () => {
    const first = modelRequests[0]!.body;
    const tools = Object.fromEntries((first.tools ?? []).map((tool) => [tool.function.name, tool.function]));
    expect(Object.keys(tools).sort()).toEqual(['Read_Library_Document', 'Search_Library']);
    expect(tools.Search_Library!.description).toMatch(/search/i);
    expect(JSON.stringify(tools.Search_Library!.parameters)).toContain('"query"');
    expect(JSON.stringify(tools.Read_Library_Document!.parameters)).toContain('"documentId"');
    expect(modelRequests[0]!.authorization).toBe(`Bearer ${MODEL_KEY}`);
  });

  it('executes both tool calls against the sandbox (the proxy saw the search and the read)', () => {
    expect(modelRequests).toHaveLength(3);
    expect(proxy.seen.slice(0, proxyBefore)).toContain('POST /api/public/v1/library/search');
    expect(proxy.seen.some((line) => line.startsWith(`GET /api/public/v1/library/documents/${documentId}`) && line.includes('include=content'))).toBe(true);
    // The model saw the tool results: the id the sandbox assigned, then the stored text.
    const toolResults = modelRequests[2]!.body.messages.filter((message) => message.role === 'tool').map(text);
    expect(toolResults).toHaveLength(2);
    expect(toolResults[0]).toContain(documentId);
    expect(toolResults[1]).toContain('remove access that is no longer required');
  });

  it("puts the tool results into the agent's answer", () => {
    const [item] = outputOf(run, 'Compliance Agent');
    expect(item!.json.output).toBe(`"${TITLE}" (document ${documentId}) describes it: owners remove access that is no longer required.`);
  });

  it("leaves the Compliance key out of n8n's output", () => {
    expect(findLeaks([{ place: 'n8n execute', text: run.stdout + run.stderr }], [KEY])).toEqual([]);
  });

  describe('with the tools left as added (version 2, only resource and operation picked)', () => {
    it('the editor saves none of the fields the model fills (only the picked ones and empty collections)', () => {
      for (const parameters of Object.values(untouchedTools)) {
        const rest = Object.entries(parameters).filter(([name]) => !['resource', 'operation'].includes(name));
        expect(rest.filter(([, value]) => JSON.stringify(value) !== '{}')).toEqual([]);
      }
      expect(untouchedTools['Read Library Document']).toEqual({ resource: 'library', operation: 'get' });
    });

    it('runs to success with n8n execute', () => {
      expect(untouched.execution.status, `${untouched.stdout.slice(-3000)}\n${untouched.stderr.slice(-3000)}`).toBe('success');
    });

    it('offers the model a query to fill for the search and a documentId for the read, each tool described by its operation', () => {
      const tools = Object.fromEntries((untouchedRequests[0]!.body.tools ?? []).map((tool) => [tool.function.name, tool.function]));
      expect(Object.keys(tools).sort()).toEqual(['Read_Library_Document', 'Search_Library']);
      expect(Object.keys(tools.Search_Library!.parameters?.properties ?? {})).toEqual(['query']);
      expect(Object.keys(tools.Read_Library_Document!.parameters?.properties ?? {})).toEqual(['documentId']);
      // Tool Description left at "Set Automatically": the operation's action.
      expect(tools.Search_Library!.description).toBe('Search the library in Compliance');
      expect(tools.Read_Library_Document!.description).toBe('Get a library document in Compliance');
    });

    it("executes the model's calls against the sandbox with the values the model chose", () => {
      expect(untouchedRequests).toHaveLength(3);
      const seen = proxy.seen.slice(proxyBefore);
      const search = seen.indexOf('POST /api/public/v1/library/search');
      expect(seen, seen.join('\n')).toContain('POST /api/public/v1/library/search');
      expect(JSON.parse(proxy.bodies[proxyBefore + search]!)).toMatchObject({ query: SEARCH_WORDS });
      // The read asks for the text: Include Content is on by default for a tool.
      expect(seen.some((line) => line.startsWith(`GET /api/public/v1/library/documents/${documentId}`) && line.includes('include=content')), seen.join('\n')).toBe(true);
      const [item] = outputOf(untouched, 'Compliance Agent');
      expect(item!.json.output).toBe(`"${TITLE}" (document ${documentId}) describes it: owners remove access that is no longer required.`);
    });
  });
});
