/**
 * Runs the real n8n (installed by scripts/n8n/install.sh, cached outside the repo) with our package
 * installed as a user installs it: the packed tarball (what npm publishes), `npm install`ed into the
 * n8n user folder's community nodes folder, in a throw-away user folder. Credentials and workflows
 * go in with `n8n import:*`, and `n8n execute --id … --rawOutput` gives the run data.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '../../..');
export const PACKAGE_NAME = 'n8n-nodes-compliance';

export interface ExecutionItem {
  json: Record<string, unknown>;
  binary?: Record<string, { mimeType?: string; fileName?: string; fileSize?: string | number; fileExtension?: string; data?: string; id?: string }>;
  pairedItem?: unknown;
}

export interface Execution {
  status: string;
  finished?: boolean;
  data: { resultData: { runData: Record<string, Array<{ executionStatus?: string; error?: unknown; data?: { main: ExecutionItem[][] } }>>; error?: { message?: string } } };
}

export interface N8nRun {
  execution: Execution;
  stdout: string;
  stderr: string;
  exitCode: number;
  ms: number;
}

export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

/** Installs or reuses the pinned n8n; returns its binary. */
export function installN8n(): string {
  const out = execFileSync('bash', [join(REPO, 'scripts/n8n/install.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 30 * 60_000 });
  return out.trim().split('\n').pop()!;
}

/**
 * Builds the n8n package (dist/nodes, dist/credentials) and packs it as it is published
 * (`scripts/pack.mjs`, into dist/packages/); returns the tarball's absolute path.
 */
export function buildPackage(): string {
  execFileSync(process.execPath, ['scripts/build.mjs', 'n8n'], { cwd: REPO, stdio: 'inherit' });
  execFileSync(process.execPath, ['scripts/pack.mjs', '--no-build', PACKAGE_NAME], { cwd: REPO, stdio: 'inherit' });
  return packedTarball();
}

/** The tarball the last `buildPackage()` (or `npm run pack`) produced. */
export function packedTarball(): string {
  const manifestPath = join(REPO, 'dist/packages/manifest.json');
  const entry = existsSync(manifestPath) ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, { tarball?: string }>)[PACKAGE_NAME] : undefined;
  const tarball = entry?.tarball ? join(REPO, entry.tarball) : undefined;
  if (!tarball || !existsSync(tarball)) throw new Error(`no packed ${PACKAGE_NAME} in dist/packages: call buildPackage() first`);
  return tarball;
}

export class N8nHarness {
  readonly userFolder: string;
  readonly bin: string;
  readonly env: NodeJS.ProcessEnv;

  private constructor(bin: string, userFolder: string, env: NodeJS.ProcessEnv) {
    this.bin = bin;
    this.userFolder = userFolder;
    this.env = env;
  }

  /**
   * A fresh n8n user folder with the packed package (`tarball`, default the last packed one)
   * installed as a community package: `npm install <tarball>` in its nodes folder, the shell
   * install the package's README describes, with the tarball in place of the registry.
   */
  static async create(bin: string, tarball: string = packedTarball()): Promise<N8nHarness> {
    const userFolder = mkdtempSync(join(tmpdir(), 'n8n-compliance-'));
    const nodesFolder = join(userFolder, '.n8n', 'nodes');
    mkdirSync(nodesFolder, { recursive: true });
    writeFileSync(join(nodesFolder, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }));
    // Offline, and without resolving the n8n-workflow peer dependency: n8n supplies it (n8n's own
    // installer strips peerDependencies before its npm install for the same reason).
    execFileSync('npm', ['install', '--offline', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
      cwd: nodesFolder,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 120_000,
    });
    // The peer dependency resolves to the instance's own n8n-workflow.
    symlinkSync(join(dirname(dirname(bin)), 'n8n-workflow'), join(nodesFolder, 'node_modules', 'n8n-workflow'), 'dir');

    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) {
      // Loopback only: no proxy, and nothing of the caller's n8n configuration leaks in.
      // (vitest's NODE_ENV=test would put n8n in its own test mode: silent, no output.)
      if (/^(https?_proxy|all_proxy|node_env|node_options)$/i.test(name) || /^(N8N_|DB_|VITEST|TEST)/.test(name)) continue;
      env[name] = value;
    }
    Object.assign(env, {
      N8N_USER_FOLDER: userFolder,
      NO_PROXY: '127.0.0.1,localhost,::1',
      N8N_DIAGNOSTICS_ENABLED: 'false',
      N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
      N8N_PERSONALIZATION_ENABLED: 'false',
      N8N_TEMPLATES_ENABLED: 'false',
      N8N_HIRING_BANNER_ENABLED: 'false',
      N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
      N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
      // `execute --rawOutput` prints the run through the logger at info level.
      N8N_LOG_LEVEL: 'info',
      N8N_PORT: String(await freePort()),
      N8N_RUNNERS_BROKER_PORT: String(await freePort()),
      // Offline: no call to n8n's MCP registry.
      N8N_DISABLED_MODULES: 'mcp-registry',
      DB_TYPE: 'sqlite',
      DB_SQLITE_POOL_SIZE: '1',
      EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
      GENERIC_TIMEZONE: 'UTC',
    });
    return new N8nHarness(bin, userFolder, env);
  }

  run(args: string[], timeoutMs = 180_000): Promise<{ stdout: string; stderr: string; exitCode: number; ms: number }> {
    const started = Date.now();
    return new Promise((resolveRun) => {
      execFile(this.bin, args, { env: this.env, cwd: this.userFolder, timeout: timeoutMs, maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
        const exitCode = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolveRun({ stdout, stderr, exitCode, ms: Date.now() - started });
      });
    });
  }

  private async importFile(kind: 'credentials' | 'workflow', data: unknown): Promise<void> {
    const file = join(this.userFolder, `${kind}-${Date.now()}.json`);
    writeFileSync(file, JSON.stringify(data, null, 2));
    const result = await this.run([`import:${kind}`, `--input=${file}`]);
    rmSync(file, { force: true });
    if (result.exitCode !== 0) throw new Error(`n8n import:${kind} failed (${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
  }

  importCredentials(credentials: unknown[]): Promise<void> {
    return this.importFile('credentials', credentials);
  }

  importWorkflows(workflows: unknown[]): Promise<void> {
    return this.importFile('workflow', workflows);
  }

  /** `n8n execute --id=<id> --rawOutput`, with the execution parsed from what it prints. */
  async execute(workflowId: string): Promise<N8nRun> {
    const result = await this.run(['execute', `--id=${workflowId}`, '--rawOutput']);
    const start = result.stdout.search(/^\{\s*$/m);
    if (start < 0) {
      throw new Error(`n8n execute --id=${workflowId} printed no execution (exit ${result.exitCode}):\n${result.stdout}\n${result.stderr}`);
    }
    let execution: Execution;
    try {
      execution = JSON.parse(result.stdout.slice(start)) as Execution;
    } catch (error) {
      throw new Error(`n8n execute --id=${workflowId}: unreadable output (${String(error)}):\n${result.stdout.slice(start, start + 2000)}`);
    }
    return { ...result, execution };
  }

  /**
   * `n8n start` until `close()`: activates published workflows, whose polling triggers poll once at
   * activation and then on their schedule. Resolves once the editor is up (activation done).
   * `command` runs another long-lived command instead (`n8n worker`), ready when `ready` is printed.
   */
  async start(timeoutMs = 120_000, command: { args: string[]; env?: NodeJS.ProcessEnv; ready: RegExp } = { args: ['start'], ready: /Editor is now accessible/ }): Promise<{ output: () => string; stop: () => Promise<void> }> {
    const child = spawn(this.bin, command.args, { env: { ...this.env, ...command.env }, cwd: this.userFolder, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    const stop = async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    };
    const deadline = Date.now() + timeoutMs;
    while (!command.ready.test(output)) {
      if (child.exitCode !== null || Date.now() > deadline) {
        await stop();
        throw new Error(`n8n ${command.args.join(' ')} did not come up:\n${output.slice(-4000)}`);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    return { output: () => output, stop };
  }

  close(): void {
    rmSync(this.userFolder, { recursive: true, force: true });
  }
}

/**
 * Polls `probe` every 250 ms until it gives a value. `context` adds what helps to read a timeout
 * (the n8n output). For waiting on something that must happen, never on something that must not.
 */
export async function until<T>(what: string, probe: () => T | undefined, ms = 90_000, context: () => string = () => ''): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${context()}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The items a node output on its first run (main output 0). */
export function outputOf(run: N8nRun, nodeName: string): ExecutionItem[] {
  const runs = run.execution.data.resultData.runData[nodeName];
  if (!runs?.length) {
    throw new Error(`node "${nodeName}" did not run; nodes that ran: ${Object.keys(run.execution.data.resultData.runData).join(', ')}; error: ${JSON.stringify(run.execution.data.resultData.error ?? null).slice(0, 1000)}`);
  }
  return runs[0]!.data?.main[0] ?? [];
}
