/**
 * PostgreSQL and Redis from the Debian packages (`apt-get install postgresql redis-server`), each
 * started as a child process of the test on loopback, on a free port, in a throw-away directory:
 * nothing of a system service is used or changed. `postgres` refuses to run as root, so as root it
 * runs as the `postgres` user the package creates.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './harness.js';

export interface Service {
  port: number;
  output(): string;
  stop(): Promise<void>;
}

function watch(child: ChildProcess, dir: string): Pick<Service, 'output' | 'stop'> & { ready(pattern: RegExp, ms: number): Promise<void> } {
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  return {
    output: () => output,
    async ready(pattern, ms) {
      const deadline = Date.now() + ms;
      while (!pattern.test(output)) {
        if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${child.spawnfile} did not come up:\n${output.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh cluster (trust auth on loopback, durability off: it is thrown away) with database `database`. */
export async function startPostgres(bin: string, database: string): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-pg-'));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
  if (asRoot) chownSync(dir, owner.uid!, owner.gid!);
  const data = join(dir, 'data');
  execFileSync(join(bin, 'initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '-E', 'UTF8', '--no-sync'], { ...owner, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], timeout: 120_000 });
  const port = await freePort();
  const child = spawn(
    join(bin, 'postgres'),
    ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    { ...owner, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const service = watch(child, dir);
  await service.ready(/database system is ready to accept connections/, 60_000);
  execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', database], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 30_000 });
  return { port, output: service.output, stop: service.stop };
}

/** Redis without persistence, on loopback only. */
export async function startRedis(bin: string): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'compliance-redis-'));
  const port = await freePort();
  const child = spawn(bin, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', dir], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const service = watch(child, dir);
  await service.ready(/Ready to accept connections/, 30_000);
  return { port, output: service.output, stop: service.stop };
}
