/**
 * `compliance mcp` as an assistant sees it from the schema alone (issue 24), listed and called with
 * the MCP SDK's own Client (which checks every structuredContent against the tool's outputSchema)
 * against the built CLI and a live-mode sandbox: one naming style and no near-twins, every input
 * property described, the service's required fields marked, closed sets as enums, aliases accepted
 * but not advertised, no two arguments for one thing, a tool list small enough for an assistant's
 * context, every result within 8 KB, the OpenAPI document a resource, and the tool groups --tools
 * selects (read-only by default on a live key without --max-tokens).
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import { CADENCES, FORMATS, PACK_CODES } from '../../api/schemas/common.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, liveSandbox } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, stdioClient } from './helpers.js';

const LIMIT = 8 * 1024;
// About 700 characters, as in the issue: its mapping answered 76 KB before results were kept short.
const POLICY = [
  '# Access control policy',
  'Every workforce member has a unique user identification; shared accounts are forbidden.',
  'Access to electronic protected health information is granted by role and reviewed quarterly by each system owner.',
  'Sessions lock automatically after 15 minutes of inactivity, and all access to ePHI is logged and audited monthly.',
  'ePHI is encrypted at rest and in transit. Backups are tested every quarter and stored encrypted off site.',
  'Security incidents are reported within 24 hours to the security officer, who keeps the incident log.',
  'New staff complete security awareness training in their first week and every year after that.',
  'Vendors handling ePHI sign a business associate agreement first.',
].join('\n');

let built: BuiltCli;
let box: RunningSandbox;
let client: Client;
let tools: Tool[];
let documentId: string;

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox(100_000_000);
  const api = new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl });
  for (let i = 0; i < 3; i++) {
    const accepted = await api.ingestLibraryDocument({ title: `Access control policy ${i}`, content: `${POLICY} (${i})\n`.repeat(60), tags: ['access'] });
    const job = await api.waitForJob(accepted.jobId);
    documentId = String((job as { documentId?: string }).documentId ?? (job as { result?: { documentId?: string } }).result?.documentId);
  }
  ({ client } = await stdioClient(built.cli, ['--max-tokens', '50000000'], connectionEnv(box)));
  ({ tools } = await client.listTools());
}, 180_000);

afterAll(async () => {
  await client?.close();
  await box?.close();
  built?.remove();
});

/** Every property of an input schema, nested objects included, by its path. */
function properties(schema: Record<string, unknown>, path: string): Array<[string, Record<string, unknown>]> {
  const own = Object.entries((schema.properties ?? {}) as Record<string, Record<string, unknown>>);
  return own.flatMap(([name, property]) => [[`${path}.${name}`, property] as [string, Record<string, unknown>], ...properties(property, `${path}.${name}`)]);
}

const byName = (name: string) => tools.find((tool) => tool.name === name)!;

async function call(name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : part.type === 'resource' ? JSON.stringify(part.resource) : '')).join('');
  expect(Buffer.byteLength(text), `${name}: content of ${Buffer.byteLength(text)} bytes`).toBeLessThanOrEqual(LIMIT);
  expect(Buffer.byteLength(JSON.stringify(result.structuredContent)), `${name}: structuredContent`).toBeLessThanOrEqual(LIMIT);
  return result;
}

describe('the tool list, read by the SDK client', () => {
  it('uses one naming style and has no near-twins', () => {
    const names = tools.map((tool) => tool.name);
    for (const name of names) expect(name, 'tool names are camelCase operation ids').toMatch(/^[a-z][a-zA-Z]*$/);
    const folded = names.map((name) => name.toLowerCase().replace(/[^a-z]/g, ''));
    expect(new Set(folded).size, `near-twins among ${names.join(', ')}`).toBe(names.length);
    expect(names).not.toContain('getOpenApi');
  });

  it('describes every input property, nested ones included', () => {
    const undescribed = tools.flatMap((tool) => properties(tool.inputSchema as Record<string, unknown>, tool.name))
      .filter(([, property]) => typeof property.description !== 'string' || property.description.length < 15)
      .map(([path]) => path);
    expect(undescribed).toEqual([]);
  });

  it('marks what the service requires, offers closed sets as enums, and leaves the aliases out', () => {
    expect(byName('suggestFrameworks').inputSchema.required).toContain('query');
    expect(byName('generateDocument').inputSchema.required).toContain('framework');
    expect(byName('mapDocument').inputSchema.required).toEqual(['framework']);
    expect(Object.keys(byName('mapDocument').inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['documentId', 'content']));
    const generate = byName('generateDocument').inputSchema.properties as Record<string, { enum?: string[] }>;
    expect(generate.type!.enum!.length).toBeGreaterThan(1);
    expect(Object.keys(generate)).not.toEqual(expect.arrayContaining(['standard']));
    for (const alias of ['standard', 'name', 'documentType']) expect(Object.keys(generate)).not.toContain(alias);
    const enumOf = (tool: string, property: string) => (byName(tool).inputSchema.properties as Record<string, { enum?: string[] }>)[property]!.enum;
    expect(enumOf('downloadDocument', 'format')).toEqual([...FORMATS]);
    expect(enumOf('setCalendar', 'cadence')).toEqual([...CADENCES]);
    expect(enumOf('createCheckout', 'pack')).toEqual([...PACK_CODES]);
    expect(enumOf('mapDocument', 'framework')).toContain('hipaa-security');
  });

  it('has no two arguments meaning the same: one way to name the organisation, one way to page the listing', () => {
    const generate = Object.keys(byName('generateDocument').inputSchema.properties ?? {});
    expect(generate).toContain('organisation');
    for (const twin of ['company', 'sector', 'jurisdiction']) expect(generate).not.toContain(twin);
    const list = Object.keys(byName('listLibrary').inputSchema.properties ?? {});
    expect(list).toContain('cursor');
    expect(list).not.toContain('page');
  });

  it('speaks in tools and arguments, never in REST paths or CLI commands', () => {
    const words = JSON.stringify(tools.map((tool) => [tool.description, tool.inputSchema]));
    expect(words).not.toMatch(/\b(GET|POST|PUT|DELETE) \//);
    expect(words).not.toMatch(/compliance [a-z]+ (list|get|check)/);
    expect(byName('generateDocument').description).not.toMatch(/returns a job/i);
  });

  it('costs an assistant little context: at most 24 KB for every tool, 12 KB with --tools read, output schemas only for mapping reports', async () => {
    // The whole tools/list answer as the client received it (issue 36: 68,200 bytes before, 47,699 of them output schemas).
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(24_000);
    const { client: reader } = await stdioClient(built.cli, ['--tools', 'read', '--max-tokens', '1'], connectionEnv(box));
    try {
      expect(Buffer.byteLength(JSON.stringify(await reader.listTools()))).toBeLessThanOrEqual(12_000);
    } finally {
      await reader.close();
    }
    expect(tools.filter((tool) => tool.outputSchema).map((tool) => tool.name).sort()).toEqual(['getMappingReport', 'mapDocument']);
  });
});

describe('results, each checked against its outputSchema by the SDK client and at most 8 KB', () => {
  it('mapDocument of a 700-character policy: the summary, with the whole report as a resource', async () => {
    expect(POLICY.length).toBeGreaterThan(650);
    const mapped = await call('mapDocument', { framework: 'hipaa-security', content: POLICY, title: 'Access' });
    expect(mapped.isError).toBeFalsy();
    const { result } = mapped.structuredContent as { result: { reportUri: string; gaps: Array<Record<string, unknown>> } };
    expect(result.gaps.length).toBeGreaterThan(0);
    expect(Object.keys(result.gaps[0]!).sort()).toEqual(['controlId', 'status', 'title']);
    const report = await client.readResource({ uri: result.reportUri });
    expect((report.contents[0] as { text: string }).text.length).toBeGreaterThan(LIMIT);
    const full = await call('mapDocument', { framework: 'hipaa-security', content: POLICY, detail: 'full' });
    const fullResult = full.structuredContent as { result: { gaps: Array<{ recommendation?: string }> }; truncated?: unknown[]; more?: string };
    expect(fullResult.result.gaps[0]!.recommendation).toEqual(expect.any(String));
    // Gaps that do not fit are a next part (getMappingReport), never cut inside.
    expect(fullResult.truncated).toBeUndefined();
  });

  it('the aliases are still accepted', async () => {
    const generated = await call('generateDocument', { standard: 'hipaa-security', documentType: (byName('generateDocument').inputSchema.properties as Record<string, { enum: string[] }>).type!.enum[0] });
    expect(generated.isError, JSON.stringify(generated.content)).toBeFalsy();
    const { result } = generated.structuredContent as { result: { jobId: string; uri: string; text: string } };
    expect(result.text.length).toBeGreaterThan(100);
    const job = await call('getJob', { jobId: result.jobId });
    expect(job.structuredContent).toMatchObject({ result: { status: 'completed' } });
    const download = await call('downloadDocument', { jobId: result.jobId, format: 'json' });
    expect(download.structuredContent).toMatchObject({ result: { format: 'json', uri: `document://${result.jobId}.json` } });
    const pdf = await call('downloadDocument', { jobId: result.jobId, format: 'pdf' });
    expect(pdf.content).toContainEqual(expect.objectContaining({ type: 'resource_link', uri: `document://${result.jobId}.pdf` }));
    const file = await client.readResource({ uri: `document://${result.jobId}.pdf` });
    expect(Buffer.from((file.contents[0] as { blob: string }).blob, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a long library document comes in parts, each saying how much remains and giving the call for the next', async () => {
    const got = await call('getLibraryDocument', { id: documentId, include: 'content' });
    const answer = got.structuredContent as { result: { content: string }; page: { offset: number; shown: number; total: number; remaining: number }; next: { tool: string; arguments: { offset: number } }; more: string };
    const total = (POLICY.length + 5) * 60;
    expect(answer.page).toMatchObject({ offset: 0, total, remaining: total - answer.result.content.length });
    expect(answer.next).toEqual({ tool: 'getLibraryDocument', arguments: { id: documentId, include: 'content', offset: answer.result.content.length } });
    expect(answer.more).toContain(`${answer.page.remaining.toLocaleString('en-US')} more`);
  });

  it('every other tool answers within the limit', async () => {
    const calls: Array<[string, Record<string, unknown>]> = [
      ['getServiceCard', {}], ['ping', {}], ['getCapabilities', {}], ['suggestFrameworks', { query: 'health data privacy in the US' }],
      ['getFramework', { slug: 'hipaa-security' }], ['listLibrary', {}], ['searchLibrary', { query: 'access reviewed quarterly' }],
      ['getUsage', {}], ['getBilling', {}], ['getAutoTopUp', {}], ['getCalendar', {}], ['setCalendar', { cadence: 'quarterly' }],
      ['createCheckout', { pack: 'pack10' }], ['planReview', { directory: 'examples' }],
    ];
    for (const [name, args] of calls) {
      const result = await call(name, args);
      expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
    }
    const refused = await call('getFramework', { slug: 'no-such-framework' });
    expect(refused).toMatchObject({ isError: true, structuredContent: { error: { code: expect.any(String) } } });
  }, 60_000);

  it('serves the OpenAPI document as a resource, not a tool result', async () => {
    const { resources } = await client.listResources();
    expect(resources.map((resource) => resource.uri)).toContain('openapi://compliance-engine');
    const openapi = await client.readResource({ uri: 'openapi://compliance-engine' });
    expect(JSON.parse((openapi.contents[0] as { text: string }).text)).toMatchObject({ openapi: expect.stringMatching(/^3\./) });
  });
});

describe('tool groups', () => {
  async function namesWith(args: string[], env = connectionEnv(box)): Promise<string[]> {
    const { client: other } = await stdioClient(built.cli, args, env);
    try {
      return (await other.listTools()).tools.map((tool) => tool.name);
    } finally {
      await other.close();
    }
  }

  it('a live key without --max-tokens offers only the read-only tools', async () => {
    const names = await namesWith([]);
    const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
    expect(names.sort()).toEqual(readOnly.sort());
    expect(names).toContain('planReview');
    expect(names).not.toContain('searchLibrary');
  }, 60_000);

  it('--tools selects areas; read adds every read-only tool', async () => {
    const library = await namesWith(['--tools', 'library']);
    expect(library.sort()).toEqual(['deleteLibraryDocument', 'getLibraryDocument', 'ingestLibraryDocument', 'listLibrary', 'refreshLibraryDocument', 'searchLibrary']);
    const both = await namesWith(['--tools', 'read,billing', '--max-tokens', '10']);
    expect(both).toEqual(expect.arrayContaining(['createCheckout', 'setAutoTopUp', 'ping', 'getFramework']));
    expect(both).not.toContain('mapDocument');
  }, 60_000);
});
