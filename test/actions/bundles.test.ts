/**
 * The committed bundles are what the runner executes: each must be exactly what a fresh build of
 * the current sources produces (same esbuild options, built to a temporary file and compared byte
 * for byte), and each action.yml must run it on node24 with documented inputs and outputs.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { parse } from 'yaml';
import { actionBundleOptions, actionNames } from '../../scripts/build-actions.mjs';
import { REPO_ROOT } from './harness.js';

const ACTIONS = ['call', 'gap-issues', 'generate', 'map', 'review', 'suggest', 'sync'];

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

  it.each(ACTIONS)('%s: action.yml runs the bundle on node24 and documents every input and output used', (name) => {
    const metadata = parse(readFileSync(join(REPO_ROOT, 'actions', name, 'action.yml'), 'utf8'));
    expect(metadata.runs).toEqual({ using: 'node24', main: 'dist/index.js' });
    expect(metadata.branding).toMatchObject({ icon: expect.any(String), color: expect.any(String) });
    expect(metadata.description.length).toBeLessThanOrEqual(125);
    const inputs = metadata.inputs ?? {};
    const outputs = metadata.outputs ?? {};
    for (const [key, spec] of Object.entries<{ description?: string }>({ ...inputs, ...outputs })) expect(spec.description, key).toBeTruthy();
    const entry = readFileSync(join(REPO_ROOT, 'actions', name, 'src', 'main.ts'), 'utf8');
    // A thin entry: imports and one call, the implementation lives in actions/shared.
    expect(entry.split('\n').filter((line) => line.trim() && !line.startsWith('//') && !line.startsWith('import')).join('\n').trim()).toMatch(/^void runAction\(\w+\);$/);
    for (const required of name === 'gap-issues' ? ['github-token', 'report'] : ['api-key', 'base-url']) expect(inputs, required).toHaveProperty([required]);
  });
});
