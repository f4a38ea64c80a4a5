/** MCP test helpers: the SDK's own Client talking to the built `compliance mcp` over stdio or Streamable HTTP. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY } from '../cli/helpers.js';

/** The connection variables of a live-mode key on `box`, or none (the embedded sandbox). */
export function connectionEnv(box?: RunningSandbox, key = LIVE_KEY): Record<string, string> {
  // The SDK's stdio transport adds HOME to a server's environment: without this the embedded
  // sandbox would keep its state in the user's data directory. A fresh one per server instead.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', NO_COLOR: '1', COMPLIANCE_DATA_DIR: mkdtempSync(join(tmpdir(), 'mcp-data-')) };
  if (box) Object.assign(env, { COMPLIANCE_BASE_URL: box.baseUrl, COMPLIANCE_API_KEY: key });
  return env;
}

export async function stdioClient(cli: string, args: string[], env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp', ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'compliance-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** `compliance mcp --http 0 ...args`: resolves once it announces its URL on stderr. */
export async function httpServer(cli: string, args: string[], env: Record<string, string>): Promise<{ child: ChildProcess; url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [cli, 'mcp', '--http', '0', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const url = await new Promise<string>((resolvePromise, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on('line', (line) => {
      const match = /listening on (http:\/\/\S+)/.exec(line);
      if (match) resolvePromise(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`compliance mcp --http exited with ${code}`)));
  });
  return {
    child,
    url,
    stop: () => new Promise<void>((resolvePromise) => {
      if (child.exitCode !== null) return resolvePromise();
      child.once('exit', () => resolvePromise());
      child.kill('SIGTERM');
    }),
  };
}

export async function httpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'compliance-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

export function textOf(result: unknown): string {
  return ((result as CallToolResult).content ?? []).map((part) => (part.type === 'text' ? part.text : part.type === 'resource' && 'text' in part.resource ? part.resource.text : '')).join('\n');
}
