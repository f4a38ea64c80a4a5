/**
 * The sandbox server under a cap of two glibc malloc arenas. glibc gives each thread that allocates
 * under contention an arena of its own (up to 8 per core) and keeps their freed memory: after a
 * flood of uploads the worker threads' arenas held 2-3× the sandbox's resting memory for minutes.
 * The cap is read once, when the process starts, so the command starts the server as a child
 * process with it set; a MALLOC_ARENA_MAX the user set is left as it is.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

export const SANDBOX_ARENA_MAX = '2';

/** Whether this process should hand over to a child started with the cap (Linux, glibc, not set). */
export function needsArenaCap(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX !== undefined) return false;
  // musl and other C libraries have no arenas to cap.
  return (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;
}

/** Runs this same command line in a child with the cap; signals reach it, and its exit code is ours. */
export function runWithArenaCap(): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, MALLOC_ARENA_MAX: SANDBOX_ARENA_MAX },
  });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}
