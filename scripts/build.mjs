// Builds every bundle we ship: the API module (ESM + CJS + types), the CLI, the n8n package and the
// GitHub Actions (one self-contained bundle per action, committed). Each bundle inlines its
// dependencies: the package has no runtime `dependencies`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { writeLicenses } from './licenses.mjs';

const ESM_REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";
const common = { bundle: true, platform: 'node', target: 'node24', sourcemap: false, legalComments: 'none', logLevel: 'warning' };

/** name → esbuild options; an entry whose source does not exist yet is skipped with a note. */
const bundles = [
  // undici is CommonJS: an ESM bundle of it needs a real `require` for Node built-ins.
  { name: 'api (esm)', entryPoints: ['api/node/index.ts'], outfile: 'dist/api/index.mjs', format: 'esm', banner: { js: ESM_REQUIRE_SHIM } },
  { name: 'api (cjs)', entryPoints: ['api/node/index.ts'], outfile: 'dist/api/index.cjs', format: 'cjs' },
  { name: 'cli', entryPoints: ['cli/main.ts'], outfile: 'dist/cli/compliance.cjs', format: 'cjs', banner: { js: '#!/usr/bin/env node' } },
];

const only = process.argv.slice(2);
const selected = (name) => !only.length || only.some((o) => name.startsWith(o));
// A partial build (`node scripts/build.mjs cli`, as the sandbox tests run it) replaces only its own
// bundles, so it never removes files another build or a running test relies on.
if (only.length) for (const b of bundles.filter((b) => selected(b.name))) rmSync(b.outfile, { force: true });
else rmSync('dist', { recursive: true, force: true });
for (const { name, ...options } of bundles) {
  if (!selected(name)) continue;
  if (!options.entryPoints.every((p) => existsSync(p))) {
    console.log(`build: skipped ${name} (no ${options.entryPoints.join(', ')})`);
    continue;
  }
  const result = await build({ ...common, ...options, metafile: true });
  writeLicenses(result.metafile, `${dirname(options.outfile)}/licenses.txt`);
}
// Parts with their own packaging own their build step: scripts/build-<part>.mjs exports
// `build({ esbuild, common, selected })` (GitHub Actions bundles, the n8n package).
for (const part of ['actions', 'n8n']) {
  const script = `scripts/build-${part}.mjs`;
  if (existsSync(script) && selected(part)) await (await import(`./build-${part}.mjs`)).build({ esbuild: build, common, selected });
}
if (selected('api')) execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
console.log('build: done');
