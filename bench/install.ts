/**
 * A new contributor's first minutes (issue 21), measured on a fresh clone of this checkout's HEAD with an
 * empty npm cache: `npm ci` (wall time, size of node_modules, package count), the offline lock check,
 * then `npm start` (build + the review of examples/) and `npm run test:unit`, beside bare `node -e 0`
 * of the same run and the unit tier run again warm. Targets: install ≤ 90 s and ≤ 400 MB (issue 21),
 * the unit tier ≤ 60 s from the fresh clone (issue 38).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWatch, type BenchReport } from './report.js';

/**
 * CPU seconds (user + system) of this process's children that have ended, from /proc (Linux): on a
 * shared machine a command's wall time is mostly the others' load, its CPU time the work it did.
 */
function childrenCpuSeconds(): number | undefined {
  try {
    // Fields after the command name: cutime and cstime are the 14th and 15th, in ticks of 1/100 s.
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /s, '').split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}

function timed(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): { ms: number; cpuSeconds?: number; status: number | null; output: string } {
  const started = performance.now();
  const cpuBefore = childrenCpuSeconds();
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const cpuAfter = childrenCpuSeconds();
  const cpuSeconds = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  return { ms: performance.now() - started, cpuSeconds, status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Bytes of a tree as `du` counts them (allocated blocks), without following links. */
function diskBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isSymbolicLink()) continue;
    total += statSync(join(entry.parentPath, entry.name)).blocks * 512;
  }
  return total;
}

export async function bench(report: BenchReport): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'bench-install-'));
  try {
    const clone = join(root, 'clone');
    const cache = join(root, 'npm-cache');
    if (timed('git', ['clone', '--quiet', '--no-local', process.cwd(), clone], process.cwd()).status !== 0) throw new Error('git clone of the checkout failed');
    const env = { ...process.env, npm_config_cache: cache, npm_config_yes: 'false' };
    const bare = timed(process.execPath, ['-e', '0'], clone).ms;
    report.figure("bare node -e 0 (start to exit), install anchor", bare, 'ms');

    const install = timed('npm', ['ci', '--no-audit', '--no-fund'], clone, env);
    if (install.status !== 0) throw new Error(`npm ci failed:\n${install.output.slice(-2000)}`);
    report.figure('npm ci, fresh clone, empty cache: wall time', install.ms / 1000, 's', '≤ 90');
    report.figure('npm ci, fresh clone, empty cache: node_modules size', diskBytes(join(clone, 'node_modules')) / 1e6, 'MB', '≤ 400');
    const locks = timed(process.execPath, ['scripts/check-locks.mjs'], clone, env);
    report.figure('locks failing the offline lock check (scripts/check-locks.mjs) after npm ci', locks.status === 0 ? 0 : 1, 'runs', '0');

    const start = timed('npm', ['start', '--silent'], clone, env);
    report.figure('npm start, fresh clone (build + review of examples/)', start.ms / 1000, 's', undefined, { name: 'bare node -e 0, same run', value: bare / 1000, unit: 's' });
    report.note(`npm start exited ${start.status} (the review's gate verdict: examples/ lacks security awareness training on purpose)`);
    const build = timed(process.execPath, ['scripts/build.mjs', 'cli'], clone, env);
    report.figure('of which: node scripts/build.mjs cli, warm', build.ms / 1000, 's');

    const load = loadWatch();
    const unit = timed('npm', ['run', 'test:unit', '--silent'], clone, env);
    if (unit.status !== 0) report.note(`npm run test:unit exited ${unit.status}`);
    const during = load();
    // Anchor: the same tier again in the same clone, its caches (vitest's transformed modules) warm.
    const again = timed('npm', ['run', 'test:unit', '--silent'], clone, env);
    if (again.status !== 0) report.note(`npm run test:unit (again) exited ${again.status}`);
    report.figure('npm run test:unit, fresh clone: wall time', unit.ms / 1000, 's', '≤ 60', { name: `the same, run again in the clone (warm; ${during})`, value: again.ms / 1000, unit: 's' });
    if (unit.cpuSeconds !== undefined && again.cpuSeconds !== undefined) {
      report.figure('npm run test:unit, fresh clone: CPU time (user + system)', unit.cpuSeconds, 's', undefined, { name: 'the same, run again in the clone (warm)', value: again.cpuSeconds, unit: 's' });
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
