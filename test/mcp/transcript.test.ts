/**
 * A tool session against the embedded sandbox, as an assistant sees it, written to
 * docs/mcp-transcript.md (linked from the READMEs). The test fails when the committed transcript is
 * not what the server now answers: regenerate it with
 *   UPDATE_MCP_TRANSCRIPT=1 npx vitest run test/mcp/transcript.test.ts
 * Ids, times and request ids are replaced by placeholders so the transcript is stable.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROOT } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv } from './helpers.js';
import { Client as SdkClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const TRANSCRIPT = join(ROOT, 'docs/mcp-transcript.md');
const BUDGET = 1_000_000;
const POLICY = [
  '# Access control policy',
  'Every workforce member has a unique user identification; shared accounts are forbidden.',
  'Access to electronic protected health information is granted by role and reviewed quarterly by each system owner.',
  'Sessions lock automatically after 15 minutes of inactivity, and all access to ePHI is logged and audited monthly.',
  'ePHI is encrypted at rest and in transit.',
].join('\n');

let built: BuiltCli;
let client: Client;
const sections: string[] = [];

/** Placeholders for what changes from run to run. */
function stable(text: string): string {
  return text
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, '<date>')
    .replace(/-[0-9a-f]{8}\.(md|json)\b/g, '-<hash>.$1')
    .replace(/\b(req|lib|doc|key)_[A-Za-z0-9_-]+/g, '$1_<id>');
}

/** Long answers keep their first lines: the transcript shows the shape, the tests check the content. */
function clip(text: string, lines = 40): string {
  const all = text.split('\n');
  return all.length <= lines ? text : [...all.slice(0, lines), `… (${all.length - lines} more lines)`].join('\n');
}

function block(language: string, text: string): string {
  return `\`\`\`${language}\n${stable(text)}\n\`\`\``;
}

function toolSection(title: string, name: string, args: Record<string, unknown>, result: CallToolResult, lines?: number): void {
  const parts = result.content.map((part) => {
    // The server answers compact JSON (an assistant's context); indented here for people reading the transcript.
    if (part.type === 'text') return part.text.trimStart().startsWith('{') ? block('json', clip(JSON.stringify(JSON.parse(part.text), null, 2), lines)) : block('text', clip(part.text, lines));
    if (part.type === 'resource') return `Embedded resource \`${stable(part.resource.uri)}\` (${part.resource.mimeType}):\n\n${block('markdown', clip('text' in part.resource ? part.resource.text : '', lines ?? 25))}`;
    if (part.type === 'resource_link') return `Resource link: \`${stable(part.uri)}\``;
    return `(${part.type})`;
  });
  sections.push(`## ${title}\n\n\`tools/call\` **${name}** with\n\n${block('json', JSON.stringify(args))}\n\n${result.isError ? 'Tool error (isError):' : 'Result:'}\n\n${parts.join('\n\n')}`);
}

async function tool(title: string, name: string, args: Record<string, unknown> = {}, lines?: number): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  toolSection(title, name, args, result, lines);
  return result;
}

beforeAll(async () => {
  built = copyOfBuiltCli();
  const transport = new StdioClientTransport({ command: process.execPath, args: [built.cli, 'mcp', '--max-tokens', String(BUDGET)], env: connectionEnv(), cwd: ROOT, stderr: 'pipe' });
  client = new SdkClient({ name: 'transcript', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  built?.remove();
});

it('the committed transcript (docs/mcp-transcript.md) is what the server answers now', async () => {
  sections.push(`## Connect\n\n\`compliance mcp --max-tokens ${BUDGET}\` with no COMPLIANCE_API_KEY or COMPLIANCE_BASE_URL. The server's instructions:\n\n${block('text', client.getInstructions() ?? '')}`);

  const { tools } = await client.listTools();
  const rows = tools.map((t) => {
    const a = t.annotations ?? {};
    const cost = /Cost: ([\d,]+ tokens)/.exec(t.description ?? '')?.[1] ?? 'free';
    return `| ${t.name} | ${a.readOnlyHint ? 'yes' : ''} | ${a.destructiveHint ? 'yes' : ''} | ${a.idempotentHint ? 'yes' : ''} | ${cost} |`;
  });
  sections.push(`## tools/list: ${tools.length} tools\n\n| tool | read-only | destructive | idempotent | live price |\n|---|---|---|---|---|\n${rows.join('\n')}`);

  const ping = await tool('A free tool', 'ping');
  expect(ping.isError).toBeFalsy();
  const plan = await tool('Price the review of a repository (spends nothing)', 'planReview', { directory: 'examples' }, 60);
  // Five new documents and a mapping cost more than the session's budget: the plan (a dry run) says so, spending nothing.
  expect(plan.structuredContent).toMatchObject({ result: { status: 'dry-run', budget: { allowed: false } } });
  const ingest = await tool('Add a policy to the library (charged)', 'ingestLibraryDocument', { title: 'Access control policy', content: POLICY, tags: ['access'] });
  expect(ingest.isError).toBeFalsy();
  const jobId = (ingest.structuredContent as { result: { jobId: string } }).result.jobId;
  const job = (await client.callTool({ name: 'getJob', arguments: { jobId } })) as CallToolResult;
  const documentId = String((job.structuredContent as { result: { documentId?: string; result?: { documentId?: string } } }).result.documentId
    ?? (job.structuredContent as { result: { result?: { documentId?: string } } }).result.result?.documentId);
  const search = await tool('Search the library (charged)', 'searchLibrary', { query: 'access reviewed quarterly' });
  expect(search.isError).toBeFalsy();

  const read = (await client.readResource({ uri: `library://${documentId}` })) as ReadResourceResult;
  expect((read.contents[0] as { text: string }).text).toBe(POLICY);
  sections.push(`## resources/read \`library://<id>\`\n\n${block('text', (read.contents[0] as { text: string }).text)}`);

  const mapped = await tool('Map a library document by its id and wait for the report (charged; the server reads the text)', 'mapDocument', { documentId, framework: 'hipaa-security' }, 30);
  expect(mapped.isError).toBeFalsy();
  const jobOfReport = (mapped.structuredContent as { result: { jobId: string } }).result.jobId;
  const controls = await tool('Each control with its status and evidence, again without mapping (free; a long list comes in parts)', 'getMappingReport', { jobId: jobOfReport, list: 'controls' }, 30);
  expect((controls.structuredContent as { result: { controls: unknown[] } }).result.controls.length).toBeGreaterThan(10);
  const generated = await tool('Generate a policy and wait for it (charged)', 'generateDocument', { framework: 'hipaa-security', type: 'security_awareness_training_policy', organisation: { name: 'Northwind Health' } }, 20);
  expect(generated.isError).toBeFalsy();
  const refused = await tool('Over the budget: refused, nothing spent', 'ingestLibraryDocument', { title: 'Second copy', content: POLICY });
  expect(refused.isError).toBe(true);

  const prompt = (await client.getPrompt({ name: 'quarterly_review', arguments: { directory: 'examples' } })) as GetPromptResult;
  sections.push(`## prompts/get **quarterly_review**\n\n${block('text', (prompt.messages[0]!.content as { text: string }).text)}`);

  const transcript = [
    '# `compliance mcp`: a tool session against the sandbox',
    '',
    'Written by test/mcp/transcript.test.ts (the SDK\'s Client driving the built `compliance mcp` over stdio, embedded sandbox); the test fails when this file is not what the server answers. Ids and times are placeholders; long answers are cut.',
    '',
    sections.join('\n\n'),
    '',
  ].join('\n');
  if (process.env.UPDATE_MCP_TRANSCRIPT === '1') writeFileSync(TRANSCRIPT, transcript);
  expect(readFileSync(TRANSCRIPT, 'utf8'), 'docs/mcp-transcript.md is stale: run UPDATE_MCP_TRANSCRIPT=1 npx vitest run test/mcp/transcript.test.ts').toBe(transcript);
});
