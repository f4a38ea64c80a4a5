/**
 * The committed bundles are what the runner executes: each must be exactly what a fresh build of
 * the current sources produces (same esbuild options, built to a temporary file and compared byte
 * for byte), and each action.yml must run it on node24 with documented inputs and outputs.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { actionBundleOptions, actionNames } from '../../scripts/build-actions.mjs';
import { nodeVersionBanner } from '../../scripts/nodeVersionCheck.mjs';
import { REPO_ROOT } from './harness.js';

const ACTIONS = ['call', 'gap-issues', 'generate', 'map', 'review', 'suggest', 'sync'];
/** The actions that call the GitHub API: only their bundles may carry Octokit. */
const GITHUB_ACTIONS = ['gap-issues', 'map', 'review'];
const MAX_BUNDLE_BYTES = 1024 * 1024;

describe('action bundles', () => {
  it('lists every action', () => {
    expect(actionNames(REPO_ROOT)).toEqual(ACTIONS);
  });

  it.each(ACTIONS)('%s: the committed dist/index.js equals a fresh build', { timeout: 60_000 }, async (name) => {
    const dir = mkdtempSync(join(tmpdir(), `bundle-${name}-`));
    try {
      const outfile = join(dir, 'index.js');
      await build(actionBundleOptions(name, { outfile }));
      const committed = join(REPO_ROOT, 'actions', name, 'dist', 'index.js');
      expect(existsSync(committed), `${committed} is missing: run npm run build`).toBe(true);
      const fresh = readFileSync(outfile);
      const same = Buffer.compare(fresh, readFileSync(committed)) === 0;
      expect(same, `actions/${name}/dist/index.js is stale: run \`node scripts/build.mjs actions\` and commit it`).toBe(true);
      // A CommonJS bundle the runner can load: no top-level await, no ESM syntax left.
      expect(fresh.toString('utf8')).not.toMatch(/^(import|export) /m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(ACTIONS)('%s: small, one HTTP stack, Octokit only where used, the Node-version banner first, run() exported', { timeout: 60_000 }, async (name) => {
    const result = await build({ ...actionBundleOptions(name), write: false });
    const [output] = result.outputFiles ?? [];
    expect(output).toBeDefined();
    const text = output!.text;
    expect(output!.contents.byteLength, `actions/${name}/dist/index.js`).toBeLessThanOrEqual(MAX_BUNDLE_BYTES);
    expect(text.startsWith(nodeVersionBanner(name, 'action') + '\n')).toBe(true);
    const packages = new Set(Object.keys(result.metafile!.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
    expect([...packages].filter((pkg) => /^(undici|axios|node-fetch|@actions\/http-client|@actions\/github)$/.test(pkg))).toEqual([]);
    expect([...packages].some((pkg) => pkg.startsWith('@octokit/')), 'Octokit in the bundle').toBe(GITHUB_ACTIONS.includes(name));
    // Required, the bundle exports run() and does not run by itself; run as the main module it runs once (the footer).
    const loaded = await import(join(REPO_ROOT, 'actions', name, 'dist', 'index.js'));
    expect(typeof (loaded.run ?? loaded.default?.run)).toBe('function');
    expect(text.trimEnd().endsWith('if(require.main===module)module.exports.run();')).toBe(true);
  });

  it.each(ACTIONS)('%s: loading the bundle loads neither node:crypto nor node:https (the first request is made without them)', { timeout: 30_000 }, (name) => {
    // A script file, not `node -e`: eval mode loads node:crypto itself.
    const dir = mkdtempSync(join(tmpdir(), `bundle-load-${name}-`));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(probe, `require(${JSON.stringify(join(REPO_ROOT, 'actions', name, 'dist', 'index.js'))});
process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (crypto|https|tls)$/.test(m))));`);
      expect(JSON.parse(execFileSync(process.execPath, [probe], { encoding: 'utf8' }))).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each(ACTIONS)('%s: action.yml runs the bundle on node24 and documents every input and output used', (name) => {
    const metadata = parse(readFileSync(join(REPO_ROOT, 'actions', name, 'action.yml'), 'utf8'));
    expect(metadata.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(metadata.branding).toMatchObject({ icon: expect.any(String), color: expect.any(String) });
    expect(metadata.description.length).toBeLessThanOrEqual(125);
    const inputs = metadata.inputs ?? {};
    const outputs = metadata.outputs ?? {};
    for (const [key, spec] of Object.entries<{ description?: string }>({ ...inputs, ...outputs })) expect(spec.description, key).toBeTruthy();
    const entry = readFileSync(join(REPO_ROOT, 'actions', name, 'src', 'main.ts'), 'utf8');
    // A thin entry exporting run() (what @github/local-action calls): the implementation lives in actions/shared.
    expect(entry.split('\n').filter((line) => line.trim() && !/^\s*(\/\/|\/\*\*|import)/.test(line)).join('\n').trim()).toMatch(/^export function run\(\): Promise<void> \{\n {2}return runAction\(\w+\);\n\}$/);
    for (const required of name === 'gap-issues' ? ['github-token', 'report'] : ['api-key', 'base-url']) expect(inputs, required).toHaveProperty([required]);
  });
});
