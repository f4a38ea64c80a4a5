#!/usr/bin/env node
// `npm run lint:n8n`: `n8n-node lint` (from @n8n/node-cli) in strict mode, as n8n's verification
// runs it, over everything the n8n package ships or bundles: the nodes, the credential, the API
// core they inline (api/, without the Node-only adapters of api/node/, which the nodes never
// import) and the artifact's package.json (packages/n8n-nodes-compliance with the root's shared
// fields, `"strict": true`). The repository's own eslint.config.mjs serves the whole repository,
// so the check runs in a staging folder holding n8n's default eslint.config.mjs, copied unmodified
// from @n8n/node-cli (strict mode refuses any other). No rule is turned off or ignored.
// Exit code: n8n-node lint's (0 only without findings: warnings fail too).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { artifactPackageJson } from '../artifacts.mjs';
import { toolsDir } from '../tools/install.mjs';

const repo = resolve(import.meta.dirname, '../..');
const ARTIFACT = 'n8n-nodes-compliance';
const tools = join(toolsDir(), 'node_modules');
const nodeCli = join(tools, '@n8n/node-cli');

function reviewFilesShipped() {
  const found = new Set();
  const walk = (file) => {
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^import (?!type )[^;]*? from '([^']+)'/gms)) {
      if (!specifier.startsWith('.')) continue;
      const target = resolve(dirname(file), specifier.replace(/\.js$/, '.ts'));
      const inReview = target.startsWith(join(repo, 'review') + sep);
      if (inReview && !found.has(target)) {
        found.add(target);
        walk(target);
      }
    }
  };
  for (const entry of readdirSync(join(repo, 'nodes'), { recursive: true })) if (String(entry).endsWith('.ts')) walk(join(repo, 'nodes', String(entry)));
  return [...found].map((path) => relative(join(repo, 'review'), path));
}

const stage = mkdtempSync(join(tmpdir(), 'n8n-lint-'));
try {
  for (const entry of ['tsconfig.json', 'nodes', 'credentials', 'api']) {
    cpSync(join(repo, entry), join(stage, entry), { recursive: true });
  }
  rmSync(join(stage, 'api/node'), { recursive: true, force: true });
  // The files of review/ the nodes inline (their Review resource), found by following the value
  // imports from nodes/: what ships, not the rest of review/ (the CLI's YAML config, GitHub port).
  for (const file of reviewFilesShipped()) {
    mkdirSync(dirname(join(stage, 'review', file)), { recursive: true });
    cpSync(join(repo, 'review', file), join(stage, 'review', file));
  }
  const manifest = artifactPackageJson(repo, ARTIFACT);
  if (manifest.n8n?.strict !== true) throw new Error(`lint:n8n: packages/${ARTIFACT}/package.json must set "n8n": { "strict": true }`);
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(nodeCli, 'dist/template/templates/shared/default/eslint.config.mjs'), join(stage, 'eslint.config.mjs'));
  // n8n's lint CLI and its plugins come from the on-demand tools (scripts/tools); what the sources
  // import (n8n-workflow, zod, Node's types) from the contributor install, at the versions they build with.
  const ours = ['n8n-workflow', 'zod', '@types/node'];
  const link = (target, name) => symlinkSync(target, join(stage, 'node_modules', name), 'dir');
  mkdirSync(join(stage, 'node_modules/@types'), { recursive: true });
  for (const name of ours) link(join(repo, 'node_modules', name), name);
  for (const name of readdirSync(tools)) if (!name.startsWith('.') && name !== '@types' && !ours.includes(name)) link(join(tools, name), name);
  for (const name of readdirSync(join(tools, '@types'))) if (!ours.includes(`@types/${name}`)) link(join(tools, '@types', name), `@types/${name}`);
  // Not under a test runner's NODE_ENV=test, which makes eslint-plugin-n8n-nodes-base lint every
  // file as if it were named "Test.node.ts".
  const { NODE_ENV: _testMode, ...env } = process.env;
  const result = spawnSync(join(tools, '.bin/n8n-node'), ['lint'], {
    cwd: stage,
    encoding: 'utf8',
    env: { ...env, CI: 'true', FORCE_COLOR: '0' },
  });
  process.stdout.write(result.stdout);
  process.stderr.write(result.stderr);
  // n8n-node lint exits 0 on warnings; a warning is a finding here.
  const warned = /\d+ problems? \(0 errors?, [1-9]\d* warnings?\)/.test(result.stdout + result.stderr);
  process.exitCode = result.status === 0 && warned ? 1 : (result.status ?? 1);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
