#!/usr/bin/env node
// `npm run test:mutation [-- stryker options]`: StrykerJS over api/ and review/ (stryker.config.mjs);
// each finished run's per-file results are merged into bench/mutation/summary.json (bench/mutationSummary.mjs).
// Stryker is not part of the contributor install (it would add ~60 MB to node_modules): it is pinned
// by version and integrity in the lock beside this file and installed on demand, with `npm ci`, into
// node_modules/ beside it, again whenever that lock changes. Its vitest runner takes vitest as a peer
// and imports it from where it sits; with peers left out of this install (.npmrc), Node's lookup walks
// up from here to the checkout's own node_modules/vitest, the one the test files import, so the runner
// and the tests share one vitest (a second copy would fail the tests' `import { it } from 'vitest'`).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = import.meta.dirname;
const INSTALLED = join(HERE, 'node_modules', '.installed-lock');
// stryker.config.mjs's jsonReporter, and the facts of the run beside it.
const REPORT = 'bench/out/mutation/mutation.json';
const RUN = 'bench/out/mutation/run.json';

/** The sha256 of what decides the install: the manifest, the lock and the peer setting. */
function lockDigest() {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) hash.update(readFileSync(join(HERE, file)));
  return hash.digest('hex');
}

/** Installs Stryker from the lock unless node_modules/ already holds this lock's install. */
export function installStryker() {
  const digest = lockDigest();
  if (existsSync(INSTALLED) && readFileSync(INSTALLED, 'utf8') === digest) return;
  process.stderr.write(`mutation: installing StrykerJS from ${join(HERE, 'package-lock.json')} (once per lock)\n`);
  const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: HERE,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_yes: 'false' },
  });
  if (result.status !== 0) throw new Error(`mutation: npm ci in ${HERE} failed (exit ${result.status ?? result.signal}); rerun npm run test:mutation`);
  writeFileSync(INSTALLED, digest);
}

/** The commit measured, and whether the sources or tests differed from it when Stryker copied them into its sandbox. */
function checkoutState() {
  const git = (...args) => spawnSync('git', args, { encoding: 'utf8' }).stdout.trim();
  return { commit: git('rev-parse', 'HEAD'), dirty: git('status', '--porcelain', '--', 'api', 'review', 'test') !== '' };
}

/**
 * The `--mutate` / `-m` patterns given, or undefined for the configuration's (every file). Stryker's
 * report also carries the files of earlier runs from its incremental file, unmeasured: only these
 * are this run's.
 */
function mutatePatterns(args) {
  const at = args.findIndex((arg) => arg === '--mutate' || arg === '-m' || arg.startsWith('--mutate='));
  if (at < 0) return undefined;
  const value = args[at].startsWith('--mutate=') ? args[at].slice('--mutate='.length) : args[at + 1] ?? '';
  return value.split(',').filter(Boolean);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  installStryker();
  const args = process.argv.slice(2);
  const measured = checkoutState();
  const stryker = join(HERE, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
  const result = spawnSync(process.execPath, [stryker, 'run', ...args], { stdio: 'inherit' });
  process.exitCode = result.status ?? 1;
  const mutate = mutatePatterns(args);
  // A line range (`--mutate review/budget.ts:193-250`) measures part of a file: never its score.
  if (result.status === 0 && !mutate?.some((pattern) => /:\d+(:\d+)?-\d+/.test(pattern))) {
    const run = { ...measured, finishedAt: new Date().toISOString(), mutate };
    writeFileSync(RUN, `${JSON.stringify(run)}\n`);
    spawnSync(process.execPath, [join(HERE, '..', '..', 'bench', 'mutationSummary.mjs'), 'merge', REPORT, RUN], { stdio: 'inherit' });
    process.stderr.write(`mutation: merged into bench/mutation/summary.json; node bench/mutationSummary.mjs prints it\n`);
  }
}
