/**
 * `compliance mcp` start-up (issue 24): spawn to the answer of `initialize` over stdio, beside a
 * minimal server on the same MCP SDK (one Server and its stdio transport, nothing else) measured in
 * the same run, runs interleaved so load on the shared machine hits all alike. Two connections:
 * a remote service (a sandbox in this process, reached over loopback with a live key) and the
 * embedded sandbox (no key). Target: each at most 1.2x the minimal server.
 * Issue 36: the bytes of the tools/list answer (every tool: at most 24 KB; --tools read: 12 KB),
 * and from SIGTERM or SIGINT to the end of the process, stdin open and the embedded sandbox
 * started (at most 1 s), beside the minimal server, which Node ends on the signal at once.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startSandbox } from '../sandbox/index.js';
import { median, type BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const MINIMAL = 'bench/out/minimal-mcp-server.mjs';
const RUNS = 15;
const EXIT_RUNS = 5;
const TARGET_RATIO = 1.2;
const LIVE_KEY = 'csk_live_benchmcp_0001';

/** The baseline: what any server on this SDK costs to start and answer initialize. */
const MINIMAL_SOURCE = `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
const server = new Server({ name: 'minimal', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
await server.connect(new StdioServerTransport());
`;

const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0', id: 1, method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1.0.0' } },
})}\n`;

const TOOLS_LIST = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' })}\n`;

/** A server spawned and initialized, its tools listed (which starts the embedded sandbox): the tools/list answer's bytes. */
async function listed(args: string[], env: Record<string, string>): Promise<{ child: ReturnType<typeof spawn>; bytes: number }> {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', ...env } });
  child.stdin.write(INITIALIZE + TOOLS_LIST);
  const bytes = await new Promise<number>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.includes('"id":2')) resolve(Buffer.byteLength(JSON.stringify((JSON.parse(line) as { result: unknown }).result)));
    });
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited ${code} before listing its tools`)));
  });
  return { child, bytes };
}

/** Milliseconds from `signal` to the process's end, stdin left open. */
async function timeToExit(child: ReturnType<typeof spawn>, signal: NodeJS.Signals): Promise<number> {
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(performance.now())));
  const sent = performance.now();
  child.kill(signal);
  return (await exited) - sent;
}

/** Milliseconds from spawn to the initialize answer on stdout; the child is then ended. */
async function timeToInitialize(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'], env: { PATH: process.env.PATH ?? '', ...env } });
  child.stdin.write(INITIALIZE);
  const elapsed = await new Promise<number>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.on('line', (line) => {
      if (line.includes('"id":1')) resolve(performance.now() - started);
    });
    child.once('exit', (code) => reject(new Error(`node ${args.join(' ')} exited ${code} before answering initialize`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stdin.end();
  child.kill('SIGTERM');
  await exited;
  return elapsed;
}

export async function bench(report: BenchReport): Promise<void> {
  if (!existsSync(CLI)) {
    report.note(`${CLI} is not built (node scripts/build.mjs cli): MCP start-up not measured`);
    return;
  }
  mkdirSync('bench/out', { recursive: true });
  writeFileSync(MINIMAL, MINIMAL_SOURCE);
  const box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 100_000, keys: [`${LIVE_KEY}:live:10000000`] });
  try {
    const cases = {
      minimal: { args: [MINIMAL], env: {} },
      remote: { args: [CLI, 'mcp'], env: { COMPLIANCE_API_KEY: LIVE_KEY, COMPLIANCE_BASE_URL: box.baseUrl } },
      embedded: { args: [CLI, 'mcp'], env: {} },
    };
    const times: Record<keyof typeof cases, number[]> = { minimal: [], remote: [], embedded: [] };
    for (const { args, env } of Object.values(cases)) await timeToInitialize(args, env); // warm the file cache
    for (let i = 0; i < RUNS; i++) {
      for (const [name, { args, env }] of Object.entries(cases) as Array<[keyof typeof cases, { args: string[]; env: Record<string, string> }]>) {
        times[name].push(await timeToInitialize(args, env));
      }
    }
    const minimal = median(times.minimal);
    report.figure('minimal SDK server: spawn to initialize answer', minimal, 'ms');
    const anchor = { name: 'minimal SDK server, same run', value: minimal, unit: 'ms' };
    for (const [name, label] of [['remote', 'remote service (loopback sandbox, live key)'], ['embedded', 'embedded sandbox']] as const) {
      const value = median(times[name]);
      report.figure(`compliance mcp, ${label}: spawn to initialize answer`, value, 'ms', `≤ ${(TARGET_RATIO * minimal).toFixed(1)} ms`, anchor);
      report.figure(`compliance mcp, ${label} / minimal`, value / minimal, 'x', `≤ ${TARGET_RATIO}`);
    }
    report.note(`median of ${RUNS} interleaved runs each; the minimal server loads the SDK unbundled from node_modules, the CLI its bundle`);

    const embedded = { COMPLIANCE_DATA_DIR: mkdtempSync(join(tmpdir(), 'bench-mcp-')) };
    for (const [label, extra, target] of [['every tool', [], 24_000], ['--tools read', ['--tools', 'read'], 12_000]] as const) {
      const { child, bytes } = await listed([CLI, 'mcp', ...extra], embedded);
      report.figure(`compliance mcp: tools/list answer, ${label}`, bytes, 'bytes', `≤ ${target.toLocaleString('en-US')} bytes`);
      await timeToExit(child, 'SIGTERM');
    }
    report.note('tools/list before issue 36: 68,200 bytes with every tool (47,699 of them output schemas), 36,249 with --tools read (measured at eb48d3d)');
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      const exits: Record<'minimal' | 'cli', number[]> = { minimal: [], cli: [] };
      for (let i = 0; i < EXIT_RUNS; i++) {
        exits.minimal.push(await timeToExit((await listed([MINIMAL], {})).child, signal));
        exits.cli.push(await timeToExit((await listed([CLI, 'mcp'], embedded)).child, signal));
      }
      const minimalExit = median(exits.minimal);
      report.figure(`minimal SDK server: ${signal} to exit`, minimalExit, 'ms');
      report.figure(`compliance mcp (stdio, stdin open, embedded sandbox started): ${signal} to exit`, median(exits.cli), 'ms', '≤ 1000 ms', { name: 'minimal SDK server, same run', value: minimalExit, unit: 'ms' });
    }
    rmSync(embedded.COMPLIANCE_DATA_DIR, { recursive: true, force: true });
  } finally {
    await box.close();
  }
}
