/**
 * The lock check CI runs (scripts/check-locks.mjs) reads the committed files and nothing else: a
 * publish on the registry cannot change its answer, while the defect it exists for (a lock missing
 * entries some npm or platform would install, as the 17 other-platform `@unrs/resolver-binding-*`
 * entries once were) still fails it. It never writes, pass or fail.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCK_DIRS, lockManifests, lockProblems, peerSource } from '../../scripts/check-locks.mjs';
import { REPO_ROOT } from '../actions/harness.js';
import { tmpdir } from 'node:os';

type Lock = { lockfileVersion: number; packages: Record<string, Record<string, unknown>> };

const readLock = (dir: string): Lock => JSON.parse(readFileSync(join(REPO_ROOT, dir, 'package-lock.json'), 'utf8')) as Lock;
const problemsOf = (
  dir: string,
  edit: (lock: Lock, manifests: Record<string, Record<string, Record<string, string>>>, outer?: Record<string, unknown>) => void,
): string[] => {
  const lock = readLock(dir);
  const manifests = lockManifests(join(REPO_ROOT, dir)) as Record<string, Record<string, Record<string, string>>>;
  const outer = peerSource(REPO_ROOT, dir);
  edit(lock, manifests, outer);
  return lockProblems(lock, manifests, outer);
};
/** A closed port: any request to the registry would fail at once. */
const OFFLINE = { ...process.env, npm_config_registry: 'http://127.0.0.1:9/', npm_config_offline: 'true' };

describe('the committed locks', () => {
  it.each(LOCK_DIRS)('%s/package-lock.json is complete and agrees with its package.json', (dir) => {
    expect(problemsOf(dir, () => {})).toEqual([]);
  });
});

describe('what a registry publish does to the verdict: nothing', () => {
  it('a newer version inside a locked range, as npm would now resolve it, still passes', () => {
    // What npm wrote on 2026-11-27 for the n8n lock: credential-provider-login 3.972.93 → 3.972.94.
    const problems = problemsOf('scripts/n8n', (lock) => {
      const entry = lock.packages['node_modules/@aws-sdk/credential-provider-login'];
      expect(entry?.version).toBe('3.972.93');
      Object.assign(entry!, { version: '3.972.94', integrity: 'sha512-N3XKZdfa+Dcm7Kl8NJnaaHLx860Ts3QYHOraj/wuKOYHqqCApQBIKwzSxrpwZdwrqfbPt7BvJdYVhVMPpsRoGA==' });
    });
    expect(problems).toEqual([]);
  });

  it('the script passes with the registry unreachable and leaves the checkout exactly as it was', () => {
    const status = () => spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: REPO_ROOT, encoding: 'utf8' }).stdout;
    const before = status();
    const result = spawnSync(process.execPath, ['scripts/check-locks.mjs'], { cwd: REPO_ROOT, env: OFFLINE, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(LOCK_DIRS.length);
    expect(status()).toBe(before);
  });
});

describe('what the check exists for', () => {
  it('takes the StrykerJS lock\'s missing peer vitest from the root lock, where Node finds it, and only there', () => {
    expect(peerSource(REPO_ROOT, 'scripts/tools')).toBeUndefined();
    expect(problemsOf('scripts/mutation', (lock) => {
      expect(lock.packages['node_modules/vitest']).toBeUndefined();
    })).toEqual([]);
    expect(problemsOf('scripts/mutation', (_lock, _manifests, outer) => {
      delete outer!['node_modules/vitest'];
    })).toEqual([expect.stringMatching(/^node_modules\/@stryker-mutator\/vitest-runner: needs vitest@>=2\.0\.0, which has no entry/)]);
  });

  it('fails when the root lock\'s vitest no longer satisfies the StrykerJS runner\'s peer range', () => {
    expect(problemsOf('scripts/mutation', (_lock, _manifests, outer) => {
      Object.assign(outer!['node_modules/vitest'] as object, { version: '1.6.1' });
    })).toEqual([
      'node_modules/@stryker-mutator/vitest-runner: its peer vitest@>=2.0.0 comes from the root lock, whose version 1.6.1 does not satisfy the range: update this lock or the root\'s vitest',
    ]);
  });

  it('fails a lock without the other platforms\' optional bindings, naming each', () => {
    const removed: string[] = [];
    const problems = problemsOf('scripts/tools', (lock) => {
      for (const path of Object.keys(lock.packages)) {
        if (path.startsWith('node_modules/@unrs/resolver-binding-') && !path.endsWith('linux-x64-gnu')) {
          delete lock.packages[path];
          removed.push(path.slice('node_modules/'.length));
        }
      }
    });
    expect(removed.length).toBeGreaterThanOrEqual(17);
    expect(problems).toHaveLength(removed.length);
    for (const name of removed) expect(problems.some((problem) => problem.includes(`needs ${name}@`) && problem.includes('no entry'))).toBe(true);
  });

  it('fails a missing dependency, a version outside its range, an entry nothing needs, a hash missing, a root apart from package.json', () => {
    const dependencyOf = (lock: Lock, path: string) => Object.keys((lock.packages[path]?.dependencies ?? {}) as Record<string, string>)[0]!;
    expect(problemsOf('.', (lock) => {
      delete lock.packages[`node_modules/${dependencyOf(lock, 'node_modules/vitest')}`];
    }).join('\n')).toMatch(/^node_modules\/vitest: needs .* no entry/m);
    expect(problemsOf('.', (lock) => {
      lock.packages['node_modules/yaml']!.version = '1.0.0';
    })).toEqual([expect.stringMatching(/^node_modules\/yaml: version 1\.0\.0 does not satisfy the range asked for by the root \(yaml@\^2/)]);
    expect(problemsOf('.', (lock) => {
      lock.packages['node_modules/left-pad'] = { version: '1.3.0', integrity: 'sha512-x' };
    })).toEqual(['node_modules/left-pad: nothing in the lock depends on it: run npm install to prune it']);
    expect(problemsOf('.', (lock) => {
      delete lock.packages['node_modules/yaml']!.integrity;
    })).toEqual([expect.stringMatching(/^node_modules\/yaml: no integrity hash/)]);
    expect(problemsOf('.', (_lock, manifests) => {
      manifests['']!.devDependencies!.yaml = '^3.0.0';
    })).toEqual(expect.arrayContaining([expect.stringMatching(/^the root: devDependencies\.yaml is "\^3\.0\.0" in package\.json but "\^2.*" in the lock/)]));
  });

  it('the script exits 1 on a broken lock, says why on stderr, and writes nothing', () => {
    const copy = mkdtempSync(join(tmpdir(), 'locks-'));
    for (const dir of [...LOCK_DIRS, 'sandbox']) mkdirSync(join(copy, dir), { recursive: true });
    for (const dir of LOCK_DIRS) {
      cpSync(join(REPO_ROOT, dir, 'package.json'), join(copy, dir, 'package.json'));
      cpSync(join(REPO_ROOT, dir, 'package-lock.json'), join(copy, dir, 'package-lock.json'));
    }
    cpSync(join(REPO_ROOT, 'sandbox', 'package.json'), join(copy, 'sandbox', 'package.json'));
    const lockPath = join(copy, 'scripts', 'tools', 'package-lock.json');
    const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as Lock;
    delete lock.packages['node_modules/@unrs/resolver-binding-darwin-arm64'];
    writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    const before = readFileSync(lockPath, 'utf8');
    const result = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'check-locks.mjs'), copy], { env: OFFLINE, encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('check-locks: scripts/tools/package-lock.json: node_modules/unrs-resolver: needs @unrs/resolver-binding-darwin-arm64@');
    expect(readFileSync(lockPath, 'utf8')).toBe(before);
  });
});
