#!/usr/bin/env node
// Checks the committed npm locks against the package.json files beside them, offline: it reads
// files and nothing else, so its answer changes only when this repository does. A publish inside a
// locked range cannot turn it red (the lock still satisfies every range); what it catches is a lock
// npm ci would install wrongly or incompletely on some machine: entries missing for a declared
// dependency (the other platforms' optional bindings an npm with a warm cache once left out), entries
// whose version no longer satisfies the range that asks for them, entries nothing needs, entries
// without an integrity hash, a root that disagrees with package.json. Updating the locks is a
// Dependabot pull request (.github/dependabot.yml), never a side effect of CI.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

/** The locks of this repository: the contributor install, the real suites' tools and n8n, and StrykerJS. */
export const LOCK_DIRS = ['.', 'scripts/tools', 'scripts/n8n', 'scripts/mutation'];

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROOT_KINDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];
const REGISTRY = 'https://registry.npmjs.org/';

/**
 * Every problem of one lock, as sentences naming the lock path and the fix; empty when it is sound.
 * `manifests` maps a folder of the lock (`""` for its root, `sandbox` for a workspace) to its package.json.
 * `outerPackages`, for a lock installed inside the checkout without its peers (`peerSource`), are the
 * root lock's entries, where Node's lookup finds those peers.
 * @param {{ lockfileVersion?: number, packages?: Record<string, any> }} lock
 * @param {Record<string, any>} manifests
 * @param {Record<string, any>} [outerPackages]
 * @returns {string[]}
 */
export function lockProblems(lock, manifests, outerPackages) {
  const problems = [];
  if (lock.lockfileVersion !== 3) problems.push(`lockfileVersion is ${lock.lockfileVersion}, not 3: write it with the npm of package.json's devEngines`);
  const packages = lock.packages ?? {};
  const overrides = flatOverrides(manifests['']?.overrides);

  for (const [folder, manifest] of Object.entries(manifests)) {
    const entry = packages[folder];
    if (!entry) {
      problems.push(`${folder || 'the root'}: no entry in the lock for ${folder || '.'}/package.json: run npm install`);
      continue;
    }
    for (const kind of ROOT_KINDS) {
      const declared = manifest[kind] ?? {};
      const locked = entry[kind] ?? {};
      for (const name of new Set([...Object.keys(declared), ...Object.keys(locked)])) {
        if (declared[name] !== locked[name]) {
          problems.push(`${folder || 'the root'}: ${kind}.${name} is ${JSON.stringify(declared[name])} in package.json but ${JSON.stringify(locked[name])} in the lock: run npm install`);
        }
      }
    }
  }

  const reached = new Set(['']);
  const queue = [''];
  // A lock's own peers are checked for presence only: npm accepts a peer outside its range when
  // ranges conflict. A peer taken from the root lock (installed without peers) is range-checked: no
  // npm sees that pairing, so a root bump past the range would show only when the tool runs.
  const follow = (from, name, spec, edge) => {
    const found = resolve(packages, from, name);
    if (!found) {
      const outer = edge === 'peer' ? outerPackages?.[`node_modules/${name}`] : undefined;
      if (outer) {
        const mismatch = versionMismatch(outer, spec);
        if (mismatch) problems.push(`${from}: its peer ${name}@${spec} comes from the root lock, whose ${mismatch}: update this lock or the root's ${name}`);
        return;
      }
      if (edge !== 'optional peer') problems.push(`${from || 'the root'}: needs ${name}@${spec}, which has no entry the lock can resolve from there: run npm install with an empty cache to write the missing entries`);
      return;
    }
    const target = packages[found].link ? packages[packages[found].resolved] : packages[found];
    const wanted = overrides.get(name) ?? spec;
    const mismatch = edge === 'dependency' && target && versionMismatch(target, wanted);
    if (mismatch) problems.push(`${found}: ${mismatch} asked for by ${from || 'the root'} (${name}@${wanted}): run npm install`);
    for (const path of packages[found].link ? [found, packages[found].resolved] : [found]) {
      if (!reached.has(path)) {
        reached.add(path);
        queue.push(path);
      }
    }
  };
  // Workspaces are reached from the root, with the link npm makes to each.
  for (const [path, entry] of Object.entries(packages)) {
    if (entry.link && entry.resolved in manifests) reached.add(path);
  }
  for (const folder of Object.keys(manifests)) {
    if (!reached.has(folder) && packages[folder]) {
      reached.add(folder);
      queue.push(folder);
    }
  }
  while (queue.length > 0) {
    const path = /** @type {string} */ (queue.shift());
    const entry = packages[path];
    if (!entry || entry.link) continue;
    const kinds = path in manifests ? ['dependencies', 'devDependencies', 'optionalDependencies'] : ['dependencies', 'optionalDependencies'];
    for (const kind of kinds) {
      for (const [name, spec] of Object.entries(entry[kind] ?? {})) follow(path, name, spec, 'dependency');
    }
    for (const [name, spec] of Object.entries(entry.peerDependencies ?? {})) {
      follow(path, name, spec, entry.peerDependenciesMeta?.[name]?.optional === true ? 'optional peer' : 'peer');
    }
  }

  for (const [path, entry] of Object.entries(packages)) {
    if (path === '') continue;
    if (!reached.has(path)) problems.push(`${path}: nothing in the lock depends on it: run npm install to prune it`);
    if (entry.link || path in manifests || entry.inBundle) continue;
    if (typeof entry.version !== 'string') problems.push(`${path}: no version`);
    if (typeof entry.integrity !== 'string') problems.push(`${path}: no integrity hash, so npm ci could not verify what it downloads`);
    if (typeof entry.resolved === 'string' && !entry.resolved.startsWith(REGISTRY)) {
      problems.push(`${path}: resolved from ${entry.resolved}, outside the npm registry`);
    }
  }
  return problems;
}

/** The lock entry Node's resolution would find for `name` required from the package at `from`. */
function resolve(packages, from, name) {
  let dir = from;
  for (;;) {
    const candidate = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (dir === '') return undefined;
    const up = dir.lastIndexOf('/node_modules/');
    dir = up >= 0 ? dir.slice(0, up) : '';
  }
}

/** Why `entry` does not satisfy `spec`, or undefined; specs that are not registry ranges are not compared. */
function versionMismatch(entry, spec) {
  let range = spec;
  let name;
  if (spec.startsWith('npm:')) {
    const at = spec.lastIndexOf('@');
    if (at <= 4) return undefined;
    name = spec.slice(4, at);
    range = spec.slice(at + 1);
  }
  if (name !== undefined && entry.name !== undefined && entry.name !== name) return `is ${entry.name}, not the alias's ${name},`;
  if (semver.validRange(range, { loose: true }) === null) return undefined;
  if (typeof entry.version !== 'string') return undefined;
  return semver.satisfies(entry.version, range, { loose: true, includePrerelease: true }) ? undefined : `version ${entry.version} does not satisfy the range`;
}

/** package.json `overrides` that pin a package by name (`"name": "spec"` or `"name": {".": "spec"}`). */
function flatOverrides(overrides) {
  const flat = new Map();
  for (const [key, value] of Object.entries(overrides ?? {})) {
    const spec = typeof value === 'string' ? value : value?.['.'];
    if (typeof spec === 'string') flat.set(key.replace(/(.)@.*$/, '$1'), spec);
  }
  return flat;
}

/** The package.json files a lock answers for: its folder's and its workspaces'. */
export function lockManifests(dir) {
  const root = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const manifests = { '': root };
  for (const workspace of root.workspaces ?? []) {
    manifests[workspace] = JSON.parse(readFileSync(join(dir, workspace, 'package.json'), 'utf8'));
  }
  return manifests;
}

/**
 * The root lock's entries when the lock in `dir` is installed without its peers (`legacy-peer-deps` in
 * its .npmrc) into node_modules/ inside the checkout, so that they resolve from the checkout's own
 * install (scripts/mutation: Stryker's vitest runner and the tests share one vitest); else undefined.
 * @param {string} root
 * @param {string} dir
 */
export function peerSource(root, dir) {
  const npmrc = join(root, dir, '.npmrc');
  if (dir === '.' || !existsSync(npmrc) || !/^legacy-peer-deps\s*=\s*true\s*$/m.test(readFileSync(npmrc, 'utf8'))) return undefined;
  return JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages;
}

/** `node scripts/check-locks.mjs [checkout]`: checks the checkout's locks (this one by default); exit 1 on a problem. */
function main(root) {
  let failed = false;
  for (const dir of LOCK_DIRS) {
    const lockPath = join(dir, 'package-lock.json');
    const problems = lockProblems(JSON.parse(readFileSync(join(root, lockPath), 'utf8')), lockManifests(join(root, dir)), peerSource(root, dir));
    if (problems.length === 0) {
      console.log(`check-locks: ${lockPath} is complete and consistent with its package.json`);
      continue;
    }
    failed = true;
    for (const problem of problems.slice(0, 50)) console.error(`check-locks: ${lockPath}: ${problem}`);
    if (problems.length > 50) console.error(`check-locks: ${lockPath}: … and ${problems.length - 50} more`);
  }
  if (failed) process.exitCode = 1;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main(process.argv[2] ?? REPO_ROOT);
