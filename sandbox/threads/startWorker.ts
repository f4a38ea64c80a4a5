/**
 * Starting a pool's worker thread: from the TypeScript sources when they are there (tests, vitest),
 * else from the bundled worker file beside the running bundle.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { getCallSites } from 'node:util';
import { Worker } from 'node:worker_threads';
import type { WorkerKind } from './workerPool.js';

/**
 * Loads a worker entry from the TypeScript sources (tests, vitest): Node strips the types, and
 * relative imports written `./x.js` (as the sources spell them for bundlers) resolve to `./x.ts`.
 */
const SOURCE_LOADER = `
const { registerHooks, stripTypeScriptTypes } = require('node:module');
const { readFileSync } = require('node:fs');
const { fileURLToPath, pathToFileURL } = require('node:url');
const { workerData } = require('node:worker_threads');
registerHooks({
  resolve(specifier, context, next) {
    try {
      return next(specifier, context);
    } catch (error) {
      if (/^\\.\\.?\\//.test(specifier) && specifier.endsWith('.js') && context.parentURL && context.parentURL.endsWith('.ts')) return next(specifier.slice(0, -3) + '.ts', context);
      throw error;
    }
  },
  load(url, context, next) {
    if (url.startsWith('file:') && url.endsWith('.ts')) {
      return { format: 'module', shortCircuit: true, source: stripTypeScriptTypes(readFileSync(fileURLToPath(url), 'utf8'), { mode: 'transform' }) };
    }
    return next(url, context);
  },
});
import(pathToFileURL(workerData.entry).href);
`;

/**
 * The directory of this module's file: sandbox/threads in the sources; in a bundle the bundle's own
 * directory (dist/sandbox, dist/cli, dist/cli/chunks).
 */
function moduleDirectory(): string {
  const script = getCallSites()[0]?.scriptName ?? '';
  return dirname(script.startsWith('file:') ? fileURLToPath(script) : script);
}

export function startWorker(kind: WorkerKind<unknown>): Worker {
  const here = moduleDirectory();
  const { resourceLimits } = kind;
  const source = join(dirname(here), kind.sourceEntry);
  if (existsSync(source)) return new Worker(SOURCE_LOADER, { eval: true, workerData: { entry: source }, resourceLimits });
  // Beside a bundle under dist/ (dist/workers/); a bundle elsewhere in the checkout (bench/out/) finds dist/ at its root.
  for (const directory of [here, dirname(here), dirname(dirname(here))]) {
    for (const file of [join(directory, kind.bundledFile), join(directory, 'dist', kind.bundledFile)]) {
      if (existsSync(file)) return new Worker(file, { resourceLimits });
    }
  }
  throw new Error(`The ${kind.name} ${kind.bundledFile} is missing near ${pathToFileURL(here).href}; rebuild with node scripts/build.mjs cli.`);
}
