// The GitHub Actions bundles: one self-contained CommonJS file per action
// (actions/<name>/dist/index.js, committed, run by the runner's node24), built from the thin entry
// actions/<name>/src/main.ts with everything it imports inlined. test/actions/bundles.test.ts
// rebuilds each with these exact options and fails when a committed bundle differs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { writeLicenses } from './licenses.mjs';

export const ACTIONS_DIR = 'actions';

/** The actions: every folder of actions/ with an action.yml (shared/ has none). */
export function actionNames(root = '.') {
  return readdirSync(`${root}/${ACTIONS_DIR}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${root}/${ACTIONS_DIR}/${entry.name}/action.yml`))
    .map((entry) => entry.name)
    .sort();
}

/** Packages that several dependencies each carry a copy of (undici 6 under @actions/github and @actions/http-client). */
const DEDUPED_PACKAGES = ['undici'];

/** Every installed copy of `name` (top level and one level of nesting), as package directories, sorted. */
function installedCopies(name) {
  const roots = ['node_modules'];
  for (const entry of readdirSync('node_modules', { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(join('node_modules', entry.name))) roots.push(join('node_modules', entry.name, scoped, 'node_modules'));
    } else roots.push(join('node_modules', entry.name, 'node_modules'));
  }
  return roots.map((root) => join(root, name)).filter((dir) => existsSync(join(dir, 'package.json'))).sort();
}

const versionOf = (dir) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;

/**
 * One copy per package name and version: nested copies of the same version resolve to the first
 * installed copy in path order (deterministic, so rebuilds stay byte-identical) and the bundle
 * holds it once; a different version stays separate. Saves about 0.8 MB per action and changes no
 * behaviour: the copies are the same release.
 */
function dedupePackages() {
  return {
    name: 'dedupe-packages',
    setup(build) {
      const canonical = new Map();
      for (const name of DEDUPED_PACKAGES) {
        for (const dir of installedCopies(name)) {
          const key = `${name}@${versionOf(dir)}`;
          if (!canonical.has(key)) canonical.set(key, resolve(dir));
        }
      }
      const filter = new RegExp(`^(${DEDUPED_PACKAGES.join('|')})$`);
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData?.deduped) return undefined;
        const resolved = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: { deduped: true } });
        if (resolved.errors.length > 0) return resolved;
        let dir = dirname(resolved.path);
        while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
        const home = canonical.get(`${args.path}@${versionOf(dir)}`);
        return { path: home ? join(home, relative(dir, resolved.path)) : resolved.path };
      });
    },
  };
}

/**
 * The complete esbuild options of one action's bundle (complete, so the freshness test builds
 * exactly what the build does): CommonJS because the runner loads `main` with a plain `node` and
 * ESM-only dependencies are converted on the way in; no minification, so the committed file stays
 * readable in review; no source maps. `outfile` defaults to the committed location.
 */
export function actionBundleOptions(name, { outfile } = {}) {
  return {
    entryPoints: [`${ACTIONS_DIR}/${name}/src/main.ts`],
    outfile: outfile ?? `${ACTIONS_DIR}/${name}/dist/index.js`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node24',
    sourcemap: false,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
    plugins: [dedupePackages()],
    banner: { js: `// Bundled by scripts/build-actions.mjs from ${ACTIONS_DIR}/${name}/src/main.ts. Do not edit: run npm run build.` },
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
