/**
 * `compliance mcp` start-up (issue 24): spawn to the answer of `initialize` over stdio, beside a
 * minimal server on the same MCP SDK (one Server and its stdio transport, nothing else) measured in
 * the same run, runs interleaved so load on the shared machine hits all alike. Two connections:
 * a remote service (a sandbox in this process, reached over loopback with a live key) and the
 * embedded sandbox (no key). Target: each at most 1.2x the minimal server.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { startSandbox } from '../sandbox/index.js';
import { median, type BenchReport } from './report.js';

const CLI = 'dist/cli/compliance.cjs';
const MINIMAL = 'bench/out/minimal-mcp-server.mjs';
const RUNS = 15;
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
  } finally {
    await box.close();
  }
}
