/**
 * The committed bundles are what the runner executes: each must be exactly what a fresh build of
 * the current sources produces (same esbuild options, built to a temporary file and compared byte
 * for byte), and each action.yml must run it on node24 with documented inputs and outputs.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { GITHUB_CLIENT_FILE, actionBundleOptions, actionNames, buildActionDist, gitHubClientBundleOptions, loadsGitHubClient } from '../../scripts/build-actions.mjs';
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

  it.each(ACTIONS)('%s: every committed file of dist/ (licenses.txt too) equals a fresh build, and nothing else is there', { timeout: 60_000 }, async (name) => {
    const dir = mkdtempSync(join(tmpdir(), `bundle-${name}-`));
    try {
      await buildActionDist(build, name, { dir });
      const fresh = readdirSync(dir).sort();
      const committedDir = join(REPO_ROOT, 'actions', name, 'dist');
      expect(readdirSync(committedDir).sort(), `actions/${name}/dist holds other files than a fresh build: run \`node scripts/build.mjs actions\``).toEqual(fresh);
      for (const file of fresh) {
        const built = readFileSync(join(dir, file));
        const same = Buffer.compare(built, readFileSync(join(committedDir, file))) === 0;
        expect(same, `actions/${name}/dist/${file} is stale: run \`node scripts/build.mjs actions\` and commit it`).toBe(true);
        // CommonJS the runner can load: no top-level await, no ESM syntax left.
        if (file.endsWith('.js')) expect(built.toString('utf8')).not.toMatch(/^(import|export) /m);
      }
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
    const packagesOf = (inputs: object) => new Set(Object.keys(inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)?.[1] ?? []));
    const packages = packagesOf(result.metafile!.inputs);
    // Octokit lives in dist/octokit.js, loaded on the first GitHub call, never in the main bundle.
    expect([...packages].filter((pkg) => pkg.startsWith('@octokit/') || pkg === 'bottleneck'), 'Octokit in dist/index.js').toEqual([]);
    expect(loadsGitHubClient(result.metafile!), `dist/index.js loads dist/${GITHUB_CLIENT_FILE}`).toBe(GITHUB_ACTIONS.includes(name));
    // Everything loads through require: an import() would start Node's ES module loader before gap-issues' first request.
    expect(text, 'an import() in dist/index.js').not.toMatch(/\bimport\(/);
    if (GITHUB_ACTIONS.includes(name)) {
      const client = await build({ ...gitHubClientBundleOptions(name), write: false });
      const clientPackages = packagesOf(client.metafile!.inputs);
      expect(clientPackages.has('@octokit/core') && clientPackages.has('@octokit/plugin-throttling')).toBe(true);
      for (const pkg of clientPackages) packages.add(pkg);
    }
    expect([...packages].filter((pkg) => /^(undici|axios|node-fetch|@actions\/http-client|@actions\/github)$/.test(pkg))).toEqual([]);
    // Required, the bundle exports run() and does not run by itself; run as the main module it runs once (the footer).
    const loaded = await import(join(REPO_ROOT, 'actions', name, 'dist', 'index.js'));
    expect(typeof (loaded.run ?? loaded.default?.run)).toBe('function');
    expect(text.trimEnd().endsWith('if(require.main===module)module.exports.run();')).toBe(true);
  });

  it.each(ACTIONS)('%s: loading the bundle loads none of node:crypto, node:https and node:child_process (the first request is made without them)', { timeout: 30_000 }, (name) => {
    // A script file, not `node -e`: eval mode loads node:crypto itself.
    const dir = mkdtempSync(join(tmpdir(), `bundle-load-${name}-`));
    try {
      const probe = join(dir, 'probe.cjs');
      writeFileSync(probe, `require(${JSON.stringify(join(REPO_ROOT, 'actions', name, 'dist', 'index.js'))});
process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (crypto|https|tls|child_process)$/.test(m))));`);
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
