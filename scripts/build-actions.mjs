// The GitHub Actions bundles: one self-contained CommonJS file per action
// (actions/<name>/dist/index.js, committed, run by the runner's node24), built from the thin entry
// actions/<name>/src/main.ts with everything it imports inlined. test/actions/bundles.test.ts
// rebuilds each with these exact options and fails when a committed bundle differs.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeLicenses } from './licenses.mjs';
import { nodeVersionBanner } from './nodeVersionCheck.mjs';

export const ACTIONS_DIR = 'actions';

/** The actions: every folder of actions/ with an action.yml (shared/ has none). */
export function actionNames(root = '.') {
  return readdirSync(`${root}/${ACTIONS_DIR}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${root}/${ACTIONS_DIR}/${entry.name}/action.yml`))
    .map((entry) => entry.name)
    .sort();
}

/**
 * One HTTP stack per bundle (actions/shared/runtime/transport.ts, on node:http). @actions/core
 * imports @actions/http-client (node:http plus tunnel, and undici 6 for its ProxyAgent) for
 * `getIDToken` alone, which no action calls: the bundle gets a stand-in whose classes refuse, in
 * words, to be constructed, so neither undici nor a second client is inlined.
 */
function oneHttpStack() {
  const contents = `const refuse = () => { throw new Error('@actions/http-client is not bundled in this action: getIDToken and toolkit HTTP calls are unavailable'); };
export class HttpClient { constructor() { refuse(); } }
export class BearerCredentialHandler { constructor() { refuse(); } }`;
  return {
    name: 'one-http-stack',
    setup(build) {
      build.onResolve({ filter: /^@actions\/http-client(\/|$)/ }, (args) => ({ path: args.path, namespace: 'http-client-stand-in' }));
      build.onLoad({ filter: /.*/, namespace: 'http-client-stand-in' }, () => ({ contents, loader: 'js' }));
    },
  };
}

/**
 * Node built-ins on first use. Loading node:crypto (with the stream machinery it pulls in) was the
 * largest share of Node's own start-up work in every action, and node:child_process (git, for the
 * base commit of a pull request) about 5 ms of every action that reads git: yet nothing hashes,
 * draws random bytes or writes a step output (@actions/core's delimiter) before the first request,
 * and git runs only on the events that gate from the base branch. Each stand-in exports what the
 * bundled code imports; an import of anything else fails the build (esbuild: no such export).
 */
export const LAZY_BUILTINS = { crypto: ['createHash', 'randomBytes', 'randomUUID'], child_process: ['execFile'] };

function builtinsOnFirstUse() {
  const names = Object.keys(LAZY_BUILTINS).join('|');
  return {
    name: 'builtins-on-first-use',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(node:)?(${names})$`) }, ({ path }) => ({ path: path.replace(/^node:/, ''), namespace: 'builtin-on-first-use' }));
      build.onLoad({ filter: /.*/, namespace: 'builtin-on-first-use' }, ({ path }) => ({
        contents: LAZY_BUILTINS[path].map((name) => `export function ${name}(...args) { return process.getBuiltinModule('node:${path}').${name}(...args); }`).join('\n'),
        loader: 'js',
      }));
    },
  };
}

/**
 * yaml as ES modules. Its Node entry is CommonJS: esbuild keeps each of its forty modules whole in
 * a wrapper, all run on first use, yaml's every feature compiled and initialised before the
 * configuration is read. The package's other entry is the same code as ES modules (its `default`
 * export condition, taken by bundlers for browsers), which esbuild scope-hoists and trims to what
 * we call. The two differ only where we never go: a warning goes to console.warn, not
 * process.emitWarning (we parse with logLevel 'error': none is emitted), and YAML 1.1's
 * `!!binary` reads into a Uint8Array rather than a Buffer (we parse the core schema).
 */
function yamlAsModules() {
  return {
    name: 'yaml-as-modules',
    setup(build) {
      build.onResolve({ filter: /^yaml$/ }, async ({ path, pluginData, ...args }) => {
        if (pluginData === yamlAsModules) return undefined;
        const node = await build.resolve(path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: yamlAsModules });
        return { path: join(node.path, '..', '..', 'browser', 'index.js') };
      });
    },
  };
}

/**
 * api/ and review/ only declare when loaded: a module of theirs whose exports an action never uses
 * can be left out of its bundle, with everything only it imports. esbuild cannot know that (a
 * top-level `z.object(...)` might do anything), so each action carried the barrels' every module:
 * the call action review's compliance.yml parser and yaml (119 kB of its 296 kB), compiled and
 * evaluated before its first request. The files listed in LOADING_HAS_EFFECTS do something when
 * loaded and stay whole; test/actions/pureSources.test.ts keeps the list true.
 */
export const PURE_SOURCE_DIRS = ['api', 'review'];
export const LOADING_HAS_EFFECTS = ['api/schemas/common.ts'];

function pureSources() {
  const root = fileURLToPath(new URL('../', import.meta.url));
  const pure = (path) => path.startsWith(root) && PURE_SOURCE_DIRS.some((dir) => path.startsWith(`${root}${dir}/`)) && !LOADING_HAS_EFFECTS.includes(path.slice(root.length));
  return {
    name: 'pure-sources',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\//, namespace: 'file' }, async ({ path, pluginData, ...args }) => {
        if (pluginData === pureSources) return undefined;
        const resolved = await build.resolve(path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: pureSources });
        return pure(resolved.path) ? { ...resolved, sideEffects: false } : resolved;
      });
    },
  };
}

/**
 * Octokit in a second file of dist/, loaded on first use. review/node/octokit.ts imports its four
 * packages dynamically, yet inlined they were compiled with the rest of the bundle (60 kB with
 * bottleneck) before review's and map's first request, which is the service's, not GitHub's. Their
 * dynamic imports become `require('./octokit.js')`, a file of the action's own dist/ built from
 * GITHUB_CLIENT_ENTRY (nothing is shared between actions). A require, not an external `import()`:
 * Node would start its ES module loader (about 2 ms of CPU before gap-issues' first request) to load what is
 * CommonJS anyway.
 */
export const GITHUB_CLIENT_FILE = 'octokit.js';
const GITHUB_CLIENT_PACKAGES = { '@octokit/core': 'Octokit', '@octokit/plugin-paginate-rest': 'paginateRest', '@octokit/plugin-retry': 'retry', '@octokit/plugin-throttling': 'throttling' };
const GITHUB_CLIENT_ENTRY = Object.entries(GITHUB_CLIENT_PACKAGES).map(([pkg, name]) => `export { ${name} } from '${pkg}';`).join('\n');

function gitHubClientInSecondFile() {
  return {
    name: 'github-client-in-second-file',
    setup(build) {
      build.onResolve({ filter: /^@octokit\// }, ({ path, kind }) => (kind === 'dynamic-import' && path in GITHUB_CLIENT_PACKAGES ? { path: GITHUB_CLIENT_FILE, namespace: 'github-client-file' } : undefined));
      build.onLoad({ filter: /.*/, namespace: 'github-client-file' }, () => ({ contents: `module.exports = require('./${GITHUB_CLIENT_FILE}');`, loader: 'js' }));
      build.onResolve({ filter: /.*/, namespace: 'github-client-file' }, ({ path }) => ({ path, external: true }));
    },
  };
}

/** True when the main bundle's result (its metafile) loads the GitHub client file. */
export function loadsGitHubClient(metafile) {
  return Object.values(metafile.outputs).some((output) => output.imports.some((entry) => entry.external && entry.path === `./${GITHUB_CLIENT_FILE}`));
}

/** The esbuild options of an action's GitHub client file (dist/octokit.js): the main bundle's, for another entry. */
export function gitHubClientBundleOptions(name, { outfile } = {}) {
  const main = actionBundleOptions(name);
  return {
    ...main,
    entryPoints: undefined,
    stdin: { contents: GITHUB_CLIENT_ENTRY, resolveDir: fileURLToPath(new URL('../', import.meta.url)), sourcefile: 'github-client.js', loader: 'js' },
    outfile: outfile ?? `${ACTIONS_DIR}/${name}/dist/${GITHUB_CLIENT_FILE}`,
    plugins: [oneHttpStack(), builtinsOnFirstUse()],
    // zod's setting is the main bundle's: Octokit has no schema.
    inject: undefined,
    banner: { js: `// Octokit for actions/${name}, loaded by dist/index.js on its first GitHub call. Bundled by scripts/build-actions.mjs (third-party notices: licenses.txt). Do not edit: run node scripts/build.mjs actions.` },
    footer: undefined,
  };
}

/**
 * The complete esbuild options of one action's bundle (complete, so the freshness test builds
 * exactly what the build does): CommonJS because the runner loads `main` with a plain `node` and
 * ESM-only dependencies are converted on the way in; minified (size and start-up: the runner parses
 * the whole file before the first request), names not kept (every error class of ours sets its
 * own `name`, and esbuild's keepNames cost each action 15-20 ms of start-up naming functions); no
 * source maps. The file starts with the Node-version banner. The entry exports `run()` (what
 * @github/local-action calls); the footer calls it once when the file is the main module, i.e.
 * when the runner runs `node dist/index.js`, and never when something requires it.
 * `outfile` defaults to the committed location.
 */
export function actionBundleOptions(name, { outfile } = {}) {
  return {
    entryPoints: [`${ACTIONS_DIR}/${name}/src/main.ts`],
    outfile: outfile ?? `${ACTIONS_DIR}/${name}/dist/index.js`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node24',
    minify: true,
    sourcemap: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [oneHttpStack(), builtinsOnFirstUse(), yamlAsModules(), pureSources(), gitHubClientInSecondFile()],
    inject: [ZOD_JITLESS],
    banner: { js: `${nodeVersionBanner(name, 'action')}\n// Bundled by scripts/build-actions.mjs from ${ACTIONS_DIR}/${name}/src/main.ts (third-party notices: licenses.txt). Do not edit: run node scripts/build.mjs actions.` },
    footer: { js: 'if(require.main===module)module.exports.run();' },
  };
}

/** zod without its compiled parsers, set before any schema is built: see the file. */
export const ZOD_JITLESS = `${ACTIONS_DIR}/shared/runtime/zodJitless.ts`;

/**
 * Writes an action's whole dist/ into `dir`: index.js, octokit.js when index.js loads it, and
 * licenses.txt over both. The build and the freshness test (a temporary `dir`) both call this.
 * Returns the files' metafiles.
 */
export async function buildActionDist(esbuild, name, { dir = `${ACTIONS_DIR}/${name}/dist` } = {}) {
  const main = await esbuild(actionBundleOptions(name, { outfile: join(dir, 'index.js') }));
  const metafiles = [main.metafile];
  if (loadsGitHubClient(main.metafile)) metafiles.push((await esbuild(gitHubClientBundleOptions(name, { outfile: join(dir, GITHUB_CLIENT_FILE) }))).metafile);
  writeLicenses(metafiles, join(dir, 'licenses.txt'));
  return metafiles;
}

/** Called by scripts/build.mjs (`node scripts/build.mjs actions` builds only these). */
export async function build({ esbuild, selected }) {
  if (!selected('actions')) return;
  for (const name of actionNames()) await buildActionDist(esbuild, name);
}
