/**
 * An assistant gets the whole of a long document (issue 36): a policy of more than 30,000
 * characters, ingested by `compliance library ingest`, is mapped by its library id (the server
 * reads the stored text itself) to the coverage and gaps `compliance map` gives for the same file,
 * and everything long comes in parts whose next part the answer names: the stored text, the gaps,
 * each control's evidence, a framework's controls, the listing; the next part of a charged answer
 * costs nothing. The SDK's Client over stdio against the built CLI and a live-mode sandbox, which
 * prices every call.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/node/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { balance, cli, LIVE_KEY, liveSandbox, removeRepo, ROOT } from '../cli/helpers.js';
import { copyOfBuiltCli, type BuiltCli } from '../sandbox/builtCli.js';
import { connectionEnv, stdioClient } from './helpers.js';

const LIMIT = 8 * 1024;

interface Answer {
  result: Record<string, unknown>;
  page?: { offset: number; shown: number; total: number; remaining: number };
  next?: { tool: string; arguments: Record<string, unknown> };
  more?: string;
}

let built: BuiltCli;
let box: RunningSandbox;
let client: Client;
let repo: string;
let policy: string;
let mapPrice: number;

async function call(name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError, `${name}: ${JSON.stringify(result.content)}`).toBeFalsy();
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  expect(Buffer.byteLength(text), `${name} ${JSON.stringify(args)}`).toBeLessThanOrEqual(LIMIT);
  return result.structuredContent as unknown as Answer;
}

/** Every part of a list or text, following each answer's `next` as an assistant would. */
async function allParts<T>(name: string, args: Record<string, unknown>, key: string): Promise<{ parts: T[]; answers: Answer[] }> {
  const answers = [await call(name, args)];
  while (answers.at(-1)!.next && answers.at(-1)!.page?.remaining !== 0 && answers.length < 100) {
    const { next } = answers.at(-1)!;
    answers.push(await call(next!.tool, next!.arguments));
  }
  const parts = answers.flatMap((answer) => answer.result[key] as T | T[]);
  return { parts: parts as T[], answers };
}

beforeAll(async () => {
  built = copyOfBuiltCli();
  box = await liveSandbox(100_000_000);
  repo = mkdtempSync(join(tmpdir(), 'mcp-long-policy-'));
  // The example company's eight policies as one document: 32,065 characters, as in the issue.
  const examples = join(ROOT, 'examples/policies');
  policy = readdirSync(examples).sort().map((name) => readFileSync(join(examples, name), 'utf8')).join('\n\n');
  writeFileSync(join(repo, 'policy.md'), policy);
  // Two more documents, so the listing has pages.
  writeFileSync(join(repo, 'access.md'), readFileSync(join(examples, 'access-control.md'), 'utf8').replace('Access Control Policy', 'Access Control Standard'));
  writeFileSync(join(repo, 'vendors.md'), readFileSync(join(examples, 'vendor-management.md'), 'utf8').replace('Vendor', 'Supplier'));
  const ingested = await cli(['library', 'ingest', 'policy.md', 'access.md', 'vendors.md', '--max-tokens', '2000000'], { cwd: repo, box });
  expect(ingested.code, ingested.stderr).toBe(0);
  const prices = ((await (await fetch(`${box.baseUrl}/billing`, { headers: { authorization: `Bearer ${LIVE_KEY}` } })).json()) as { prices: Record<string, number> }).prices;
  mapPrice = prices.mapDocument!;
  ({ client } = await stdioClient(built.cli, ['--max-tokens', '5000000'], connectionEnv(box)));
}, 180_000);

afterAll(async () => {
  await client?.close();
  await box?.close();
  built?.remove();
  if (repo) removeRepo(repo);
});

describe('a policy of more than 30,000 characters, through the tools only', () => {
  let documentId: string;

  it('the listing comes in parts by cursor, every document once', async () => {
    const { parts, answers } = await allParts<{ id: string; filename: string }>('listLibrary', { limit: 2 }, 'documents');
    expect(answers.length).toBeGreaterThan(1);
    expect(parts.map((doc) => doc.filename).sort()).toEqual(['access.md', 'policy.md', 'vendors.md']);
    documentId = parts.find((doc) => doc.filename === 'policy.md')!.id;
  });

  it('getLibraryDocument gives the whole stored text in parts, each saying how much remains', async () => {
    expect(policy.length).toBeGreaterThanOrEqual(30_000);
    const { parts, answers } = await allParts<string>('getLibraryDocument', { id: documentId, include: 'content' }, 'content');
    const stored = await new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl }).getLibraryDocument({ id: documentId, include: 'content' });
    expect(parts.join('')).toBe(stored.content);
    expect(answers.length).toBeGreaterThan(3);
    for (const [i, answer] of answers.entries()) {
      expect(answer.page).toMatchObject({ total: stored.content!.length, remaining: stored.content!.length - answer.page!.offset - answer.page!.shown });
      if (i < answers.length - 1) expect(answer.more).toMatch(/more\)\. Next part: call getLibraryDocument with/);
    }
  });

  it('mapDocument by documentId gives the coverage and gaps `compliance map` gives for the file; the rest of the report is free', async () => {
    const mapped = await cli(['map', 'policy.md', '--framework', 'soc-2', '--json', '--max-tokens', '1000000'], { cwd: repo, box });
    const expected = mapped.json.frameworks[0] as { coverage: number; gaps: Array<{ controlId: string }> };
    const before = await balance(box);
    const answer = await call('mapDocument', { framework: 'soc-2', documentId, detail: 'full' });
    expect(answer.result.coverage).toBe(expected.coverage);
    expect(answer.result.coverage).toBeGreaterThan(50);
    const { parts: gaps } = await allParts<{ controlId: string; recommendation: string }>('getMappingReport', { jobId: answer.result.jobId, detail: 'full' }, 'gaps');
    expect(gaps.map((gap) => gap.controlId).sort()).toEqual(expected.gaps.map((gap) => gap.controlId).sort());
    expect(gaps.every((gap) => gap.recommendation.length > 0)).toBe(true);
    const { parts: controls, answers } = await allParts<{ id: string; evidence: unknown[] }>('getMappingReport', { jobId: answer.result.jobId, list: 'controls' }, 'controls');
    expect(answers.length).toBeGreaterThan(1);
    expect(controls).toHaveLength((answer.result.summary as { controls: number }).controls);
    expect(controls.some((control) => control.evidence.length > 0)).toBe(true);
    // One mapping charged; reading its report again, part by part, nothing.
    expect(await balance(box)).toBe(before - mapPrice);
  });

  it('refuses a documentId with content, naming both', async () => {
    const result = (await client.callTool({ name: 'mapDocument', arguments: { framework: 'soc-2', documentId, content: 'x' } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('give either documentId (a library document) or content (text)');
  });

  it('a framework\'s controls come in parts: every control of NIST CSF 2', async () => {
    const framework = await new ComplianceClient({ apiKey: LIVE_KEY, baseUrl: box.baseUrl }).getFramework({ slug: 'nist-csf-2' });
    const { parts, answers } = await allParts<{ id: string }>('getFramework', { slug: 'nist-csf-2' }, 'controls');
    expect(answers.length).toBeGreaterThan(1);
    expect(parts.map((control) => control.id)).toEqual(framework.controls!.map((control) => control.id));
  });

  it('the next part of a charged answer is read from the answer kept, free', async () => {
    const first = await call('searchLibrary', { query: 'access review', limit: 10 });
    const hits = first.result.results as Array<{ documentId: string }>;
    expect(hits.length).toBeGreaterThan(1);
    const before = await balance(box);
    const rest = await call('searchLibrary', { query: 'access review', limit: 10, offset: 1 });
    expect(rest.result.results).toEqual(hits.slice(1));
    expect(rest.page).toMatchObject({ offset: 1, total: hits.length });
    expect(await balance(box)).toBe(before);
  });
});
