// Builds every bundle we ship: the API module (ESM + CJS + types), the CLI, the n8n package and the
// GitHub Actions (one self-contained bundle per action, committed). Each bundle inlines its
// dependencies: the package has no runtime `dependencies`.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { writeLicenses } from './licenses.mjs';
import { nodeVersionBanner } from './nodeVersionCheck.mjs';

const ESM_REQUIRE_SHIM = "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";
const common = { bundle: true, platform: 'node', target: 'node24', sourcemap: false, legalComments: 'none', logLevel: 'warning' };

// The CLI and API package (packages/compliance-engine-cli) ships the api, sandbox and cli bundles.
const PACKAGE = 'compliance-engine-cli';
const VERSION = JSON.parse(readFileSync('package.json', 'utf8')).version;
const first = (what, on) => `${nodeVersionBanner(what, on)}\n`;

// The bin is CommonJS so its first statement, the Node-version check, runs before any bundled code
// (an ES module's imports would load first); the command itself is the split ESM build below.
// `--version` is answered here, as cli/main.ts would (first argument, rest ignored): starting Node's
// ES module loader for main.mjs cost more than the version is worth (bench/cli.ts).
const CLI_LAUNCHER = `#!/usr/bin/env node
${first('compliance (compliance-engine-cli)', 'exit')}if (process.argv[2] === '--version' || process.argv[2] === '-v') process.stdout.write(${JSON.stringify(`${VERSION}\n`)});
// The command is ES modules split per command (dist/cli/main.mjs + chunks/), so \`--help\` loads no command.
else import('./main.mjs').catch((error) => {
  process.stderr.write(\`compliance: \${error instanceof Error ? error.message : String(error)}\\n\`);
  process.exit(3);
});
`;

// An ES module's imports are linked before its first statement runs, so on an older Node a missing
// built-in (node:sqlite) would fail before the version banner can speak: the ESM library bundles
// take Node built-ins through require, evaluated in order, after the banner.
const builtinsAfterBanner = {
  name: 'builtins-after-banner',
  setup(b) {
    b.onResolve({ filter: /^[a-z_:/]+$/ }, (args) => (args.kind === 'import-statement' && isBuiltin(args.path) ? { path: args.path, namespace: 'builtin' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

/** name → esbuild options; an entry whose source does not exist yet is skipped with a note. */
const bundles = [
  // undici is CommonJS: an ESM bundle of it needs a real `require` for Node built-ins.
  { name: 'api (esm)', entryPoints: ['api/node/index.ts'], outfile: 'dist/api/index.mjs', format: 'esm', banner: { js: first(PACKAGE, 'throw') + ESM_REQUIRE_SHIM }, plugins: [builtinsAfterBanner] },
  { name: 'api (cjs)', entryPoints: ['api/node/index.ts'], outfile: 'dist/api/index.cjs', format: 'cjs', banner: { js: first(PACKAGE, 'throw') } },
  // `compliance-engine-cli/sandbox`: startSandbox for users' own tests.
  { name: 'sandbox (esm)', entryPoints: ['sandbox/index.ts'], outfile: 'dist/sandbox/index.mjs', format: 'esm', banner: { js: first(`${PACKAGE}/sandbox`, 'throw') + ESM_REQUIRE_SHIM }, plugins: [builtinsAfterBanner] },
  { name: 'sandbox (cjs)', entryPoints: ['sandbox/index.ts'], outfile: 'dist/sandbox/index.cjs', format: 'cjs', banner: { js: first(`${PACKAGE}/sandbox`, 'throw') } },
  // Code splitting: each command, the sandbox, the PDF reader and undici are chunks loaded on use,
  // so `compliance --version` and `--help` start about as fast as bare node (bench/cli.ts).
  {
    name: 'cli',
    entryPoints: ['cli/main.ts'],
    outdir: 'dist/cli',
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'chunks/[name]-[hash]',
    define: { __CLI_VERSION__: JSON.stringify(VERSION) },
    banner: { js: ESM_REQUIRE_SHIM },
    // PDFs are read only in the upload worker (its own bundle, below). The sandbox's formats barrel
    // still reaches extractPdf's `import('unpdf')`, tree-shaken here, yet esbuild would emit it as an
    // unreachable 2.2 MB chunk (test/cli/startup.test.ts checks every chunk is reachable).
    external: ['unpdf'],
    launcher: { file: 'compliance.cjs', text: CLI_LAUNCHER },
  },
  // The sandbox's worker threads (upload reader, mapping, JSON body parser), started by the cli and sandbox bundles (found under dist/workers/).
  {
    name: 'cli workers',
    entryPoints: [
      { in: 'sandbox/formats/upload/extractWorker.ts', out: 'upload-extraction' },
      { in: 'sandbox/mapping/mappingWorker.ts', out: 'mapping' },
      { in: 'sandbox/server/jsonBodyWorker.ts', out: 'json-body' },
    ],
    outdir: 'dist/workers',
    outExtension: { '.js': '.cjs' },
    format: 'cjs',
  },
];

const only = process.argv.slice(2);
const selected = (name) => !only.length || only.some((o) => name.startsWith(o));
// A partial build (`node scripts/build.mjs cli`, as test suites run it while others run the CLI)
// replaces only its own bundles, and without a moment where a file is missing or half written: each
// bundle is written to a staging directory and its files renamed into place (the CLI loads its
// chunks on use, so a rebuild must never pull one from under a running command).
if (!only.length) rmSync('dist', { recursive: true, force: true });
let staged = 0;
for (const { name, launcher, ...options } of bundles) {
  if (!selected(name)) continue;
  const sources = options.entryPoints.map((p) => p.in ?? p);
  if (!sources.every((p) => existsSync(p))) {
    console.log(`build: skipped ${name} (no ${sources.join(', ')})`);
    continue;
  }
  const staging = `dist/.staging-${process.pid}-${staged++}`;
  const output = options.outdir ? { outdir: staging } : { outfile: join(staging, basename(options.outfile)) };
  const result = await build({ ...common, ...options, ...output, metafile: true });
  writeLicenses(result.metafile, join(staging, 'licenses.txt'));
  if (launcher) {
    writeFileSync(join(staging, launcher.file), launcher.text);
    // `npx compliance` in this checkout runs the bin file itself: it must be executable after every build.
    chmodSync(join(staging, launcher.file), 0o755);
  }
  publish(staging, options.outdir ?? dirname(options.outfile), Boolean(options.outdir));
}
// Parts with their own packaging own their build step: scripts/build-<part>.mjs exports
// `build({ esbuild, common, selected })` (GitHub Actions bundles, the n8n package).
for (const part of ['actions', 'n8n']) {
  const script = `scripts/build-${part}.mjs`;
  if (existsSync(script) && selected(part)) await (await import(`./build-${part}.mjs`)).build({ esbuild: build, common, selected });
}
if (selected('api') || selected('sandbox')) {
  rmSync('dist/types', { recursive: true, force: true });
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.types.json'], { stdio: 'inherit' });
  vendorTypes();
}
console.log('build: done');

/**
 * Our declarations import types from zod and undici, which the bundles inline and the package does
 * not depend on: without their declarations a user's TypeScript sees every answer as `any`. Their
 * .d.ts files (and licenses) ship in dist/types/vendor/ and our imports of them point there.
 */
function vendorTypes() {
  const vendored = [
    { specifier: 'zod/v4/mini', from: 'node_modules/zod', paths: ['v4'], entry: 'v4/mini/index.js' },
    { specifier: 'undici', from: 'node_modules/undici', paths: ['index.d.ts', 'types'], entry: 'index.js' },
  ];
  const declarations = (dir) => readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.d.ts')).map((f) => join(dir, f));
  const ours = declarations('dist/types');
  for (const { specifier, from, paths, entry } of vendored) {
    const to = join('dist/types/vendor', from.replace(/^node_modules\//, ''));
    for (const path of paths) {
      for (const file of path.endsWith('.d.ts') ? [join(from, path)] : declarations(join(from, path))) cpSync(file, join(to, relative(from, file)));
    }
    cpSync(join(from, 'LICENSE'), join(to, 'LICENSE'));
    const quoted = new RegExp(`(from |import\\()(['"])${specifier.replace('/', '\\/')}\\2`, 'g');
    for (const file of ours) {
      const text = readFileSync(file, 'utf8');
      const target = relative(dirname(file), join(to, entry)).replace(/^(?!\.)/, './');
      if (quoted.test(text)) writeFileSync(file, text.replace(quoted, `$1$2${target}$2`));
      quoted.lastIndex = 0;
    }
  }
}

/**
 * Moves every file of `staging` into `target`, each by one rename (atomic); with `whole` (an outdir
 * the bundle owns), then removes the files of `target` this build no longer produces.
 */
function publish(staging, target, whole) {
  const filesOf = (dir) => readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => relative(dir, join(d.parentPath, d.name)));
  const files = filesOf(staging);
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    renameSync(join(staging, file), join(target, file));
  }
  if (whole) for (const file of filesOf(target)) if (!files.includes(file)) rmSync(join(target, file), { force: true });
  rmSync(staging, { recursive: true, force: true });
}
