/**
 * `compliance sandbox` runs its server under a cap of two glibc malloc arenas (memory returns after
 * a flood: bench fairnessUnderLoad), set before the server process starts, unless the user set their
 * own. The built CLI, its server's environment read from /proc (Linux with glibc only).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyOfBuiltCli, startCliSandbox, type BuiltCli } from './builtCli.js';

const glibc = process.platform === 'linux' && (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime !== undefined;

let built: BuiltCli;
beforeAll(() => {
  built = copyOfBuiltCli();
});
afterAll(() => built?.remove());

/** The sandbox's server process (the command's only child) and its MALLOC_ARENA_MAX; stops it after. */
async function serverArenaMax(env: Record<string, string | undefined>): Promise<{ arenaMax: string | undefined; stopped: number | null }> {
  const { child, announced } = await startCliSandbox(built.cli, [], env);
  const children = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const serverPid = children.length === 1 ? children[0] : child.pid;
  const environment = readFileSync(`/proc/${serverPid}/environ`, 'utf8').split('\0');
  expect((await fetch(`${announced.baseUrl}/ping`)).status).toBe(401); // the server answers through the command's port
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const stopped = await exited;
  // The server went with the command: no process left behind.
  expect(() => process.kill(Number(serverPid), 0)).toThrow();
  return { arenaMax: environment.find((entry) => entry.startsWith('MALLOC_ARENA_MAX='))?.slice('MALLOC_ARENA_MAX='.length), stopped };
}

describe.runIf(glibc)('the sandbox command caps malloc arenas', () => {
  it('starts its server with MALLOC_ARENA_MAX=2, and stops it on SIGTERM with exit 0', async () => {
    expect(await serverArenaMax({ MALLOC_ARENA_MAX: undefined })).toEqual({ arenaMax: '2', stopped: 0 });
  });

  it("keeps the user's own MALLOC_ARENA_MAX", async () => {
    expect(await serverArenaMax({ MALLOC_ARENA_MAX: '4' })).toEqual({ arenaMax: '4', stopped: 0 });
  });
});
