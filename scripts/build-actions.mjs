// The GitHub Actions bundles: one self-contained CommonJS file per action
// (actions/<name>/dist/index.js, committed, run by the runner's node24), built from the thin entry
// actions/<name>/src/main.ts with everything it imports inlined. test/actions/bundles.test.ts
// rebuilds each with these exact options and fails when a committed bundle differs.
import { existsSync, readdirSync } from 'node:fs';
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
      build.onResolve({ filter: /^\.\.?\// }, async ({ path, pluginData, ...args }) => {
        if (pluginData === pureSources) return undefined;
        const resolved = await build.resolve(path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: pureSources });
        return pure(resolved.path) ? { ...resolved, sideEffects: false } : resolved;
      });
    },
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
    plugins: [oneHttpStack(), pureSources()],
    banner: { js: `${nodeVersionBanner(name, 'action')}\n// Bundled by scripts/build-actions.mjs from ${ACTIONS_DIR}/${name}/src/main.ts (third-party notices: licenses.txt). Do not edit: run node scripts/build.mjs actions.` },
    footer: { js: 'if(require.main===module)module.exports.run();' },
  };
}

/** Called by scripts/build.mjs (`node scripts/build.mjs actions` builds only these). */
export async function build({ esbuild, selected }) {
  if (!selected('actions')) return;
  for (const name of actionNames()) {
    const result = await esbuild(actionBundleOptions(name));
    writeLicenses(result.metafile, `${ACTIONS_DIR}/${name}/dist/licenses.txt`);
  }
}
