/**
 * scripts/toolchain.sh, which .ci/run and the README's route source: it puts the npm of
 * package.json's devEngines first on PATH when the shell's npm is another, and says in one line
 * which versions to use when it cannot. Stub npm binaries stand in for other npm versions (the
 * script only asks them `npm -v`), with the pinned one already in its cache, so nothing is installed.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../actions/harness.js';

const PINNED = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { devEngines: { packageManager: { version: string } } }).devEngines.packageManager.version;
const NODE = readFileSync(join(REPO_ROOT, '.nvmrc'), 'utf8').trim();

function stubNpm(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'npm');
  writeFileSync(file, `#!/bin/sh\necho ${version}\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** Sources the script in bash with `npm` resolving to a stub of `shellNpm`, the cache holding a stub of `cachedNpm`. */
function source(shellNpm: string, cachedNpm: string) {
  const cache = mkdtempSync(join(tmpdir(), 'toolchain-'));
  stubNpm(join(cache, `npm-${PINNED}`, 'node_modules', '.bin'), cachedNpm);
  const path = [stubNpm(join(cache, 'shell'), shellNpm), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  return spawnSync('bash', ['-c', '. scripts/toolchain.sh && echo "npm now: $(npm -v)"'], { cwd: REPO_ROOT, env: { PATH: path, HOME: cache, TOOLCHAIN_CACHE: cache }, encoding: 'utf8' });
}

describe('scripts/toolchain.sh', () => {
  it('runs on the Node of .nvmrc (this test process)', () => {
    expect(process.version).toBe(`v${NODE}`);
  });

  it('keeps the shell\'s npm when it is the pinned one, in one line', () => {
    const result = source(PINNED, '0.0.0');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`toolchain: node v${NODE}, npm ${PINNED}\nnpm now: ${PINNED}\n`);
  });

  it('puts the pinned npm first on PATH when the shell has another', () => {
    const result = source('10.9.4', PINNED);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`toolchain: node v${NODE}, npm ${PINNED}\nnpm now: ${PINNED}\n`);
  });

  it('refuses in one line naming both versions when no pinned npm can be had', () => {
    const result = source('10.9.4', '11.0.0');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`toolchain: this shell runs node v${NODE} with npm 11.0.0; this repository needs node v${NODE} (.nvmrc) with npm ${PINNED} (package.json devEngines)\n`);
  });
});
