#!/usr/bin/env node
// The real suites' heavy tools (n8n's lint CLI and scanner, GitHub's local-action, the MCP conformance suite
// and inspector, the OpenAPI linter, the public policy set the mapping is measured on) are not part of the
// contributor install: they are pinned by version and integrity in scripts/tools/package-lock.json and
// installed on demand with `npm ci` into a cache outside the repository, one folder per lock content.
//
//   node scripts/tools/install.mjs     installs (once) and prints the folder holding node_modules/
//   import { toolPath } from '…/scripts/tools/install.mjs'; toolPath('@github/local-action/bin/local-action.js')
//
// COMPLIANCE_TOOLS_DIR overrides the cache root (default ~/.cache/compliance-tools). Safe to call from
// parallel test workers: each installs into its own staging folder and the first rename wins.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// This folder; from a bundle elsewhere (the bench's), the checkout's scripts/tools as seen from the working directory.
const HERE = existsSync(join(import.meta.dirname, 'package-lock.json')) ? import.meta.dirname : resolve('scripts/tools');
const MANIFESTS = ['package.json', 'package-lock.json'];

/** Where the tools of this lock live, installed or not: `<cache root>/<first 16 hex of the lock's sha256>`. */
export function toolsLocation() {
  const root = process.env.COMPLIANCE_TOOLS_DIR || join(homedir(), '.cache', 'compliance-tools');
  const lock = createHash('sha256');
  for (const file of MANIFESTS) lock.update(readFileSync(join(HERE, file)));
  return join(root, lock.digest('hex').slice(0, 16));
}

/** The folder the tools of this lock live in, installed first if they are not. */
export function toolsDir() {
  const dir = toolsLocation();
  if (existsSync(join(dir, '.complete'))) return dir;
  const root = dirname(dir);

  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, '.staging-'));
  try {
    for (const file of MANIFESTS) cpSync(join(HERE, file), join(staging, file));
    process.stderr.write(`tools: installing the real suites' tools into ${dir} (once; a few minutes)\n`);
    // No install script runs (none of these tools needs one: the ones that have scripts are native
    // extras n8n's CLI never loads), so the install never calls npx or a compiler, whatever the
    // user's npm `yes` setting.
    const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: staging,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, npm_config_yes: 'false' },
    });
    if (result.status !== 0) throw new Error(`tools: npm ci in ${staging} failed (exit ${result.status ?? result.signal})`);
    cpSync(join(staging, 'package.json'), join(staging, '.complete'));
    try {
      renameSync(staging, dir);
    } catch (error) {
      // Another process finished first: its copy is the same lock's.
      if (!existsSync(join(dir, '.complete'))) throw error;
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/** A package as the lock pins it: its version, the registry's integrity and its license. */
export function lockedPackage(name) {
  const entry = JSON.parse(readFileSync(join(HERE, 'package-lock.json'), 'utf8')).packages[`node_modules/${name}`];
  if (!entry) throw new Error(`tools: ${name} is not in scripts/tools/package-lock.json`);
  return { name, version: entry.version, integrity: entry.integrity, license: entry.license };
}

/** An installed tool's file, e.g. `toolPath('@redocly/cli/bin/cli.js')`. */
export function toolPath(relative) {
  return join(toolsDir(), 'node_modules', relative);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${toolsDir()}\n`);
