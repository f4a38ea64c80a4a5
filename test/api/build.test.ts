/** The published entry (compliance-engine-cli's main export): the built bundles import (ESM and CommonJS) and construct a client. */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { olderNode } from '../release/olderNode.js';

const root = resolve(import.meta.dirname, '../..');
const KEY = 'cmp_live_BuildTestKey000';
const OLD_NODE = olderNode();

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'api', 'sandbox'], { cwd: root, stdio: 'pipe' });
}, 120_000);

/**
 * Run in a plain Node process, not in vitest's module runner (which provides `require` even to ES
 * modules and would hide a broken ESM bundle).
 */
const PROBE = `
  const key = ${JSON.stringify(KEY)};
  const client = new api.ComplianceClient({ apiKey: key, baseUrl: 'https://api.example.test' });
  console.log(JSON.stringify({
    operations: Object.keys(api.operations).length,
    baseUrl: client.baseUrl,
    ping: typeof client.ping,
    leaked: JSON.stringify(client).includes(key),
    uploadKinds: api.UPLOAD_KINDS.length,
    errors: ['ComplianceError', 'ComplianceApiError', 'ComplianceValidationError', 'ComplianceJobError', 'ComplianceJobTimeoutError'].filter((name) => typeof api[name] === 'function').length,
    // Issue 24: the request, retry and normalising machinery is not part of the main export.
    internals: ['prepareRequest', 'errorFromResponse', 'withRetries', 'normalizers', 'createNodeTransport', 'requestSchemas'].filter((name) => name in api),
  }));
`;

const EXPECTED = { operations: 23, baseUrl: 'https://api.example.test/api/public/v1', ping: 'function', leaked: false, uploadKinds: 8, errors: 5, internals: [] };

function run(args: string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }));
}

describe('the built compliance-engine-cli entry', () => {
  it('dist/api/index.cjs requires and constructs a client', () => {
    expect(run(['-e', `const api = require('./dist/api/index.cjs');${PROBE}`])).toEqual(EXPECTED);
  });

  it('dist/api/index.mjs imports and constructs a client', () => {
    expect(run(['--input-type=module', '-e', `import * as api from './dist/api/index.mjs';${PROBE}`])).toEqual(EXPECTED);
  });

  it('packages/compliance-engine-cli exports those files (and their types) as its main entry', () => {
    const pkg = createRequire(import.meta.url)(resolve(root, 'packages/compliance-engine-cli/package.json')) as { exports: Record<string, Record<string, string>> };
    expect(pkg.exports['.']).toEqual({ import: './dist/api/index.mjs', require: './dist/api/index.cjs', types: './dist/types/api/node/index.d.ts' });
    for (const file of Object.values(pkg.exports['.']!)) expect(existsSync(resolve(root, file)), file).toBe(true);
  });

  // Skipped only when this machine has no Node older than 24 (`which -a node`, /usr/bin/node).
  it.skipIf(!OLD_NODE)('on an older Node each bundle stops with one line naming Node 24 before any bundled code runs', () => {
    const entries = [
      ['compliance-engine-cli', ['-e', "require('./dist/api/index.cjs')"]],
      ['compliance-engine-cli', ['--input-type=module', '-e', "await import('./dist/api/index.mjs')"]],
      ['compliance-engine-cli/sandbox', ['-e', "require('./dist/sandbox/index.cjs')"]],
      ['compliance-engine-cli/sandbox', ['--input-type=module', '-e', "await import('./dist/sandbox/index.mjs')"]],
    ] as const;
    for (const [what, args] of entries) {
      const result = spawnSync(OLD_NODE!, args, { cwd: root, encoding: 'utf8' });
      expect(result.status, args[args.length - 1]).toBe(1);
      expect(result.stderr).toContain(`Error: ${what} needs Node.js 24 or newer; this is Node.js ${execFileSync(OLD_NODE!, ['-v'], { encoding: 'utf8' }).trim()}. Get it with: nvm install 24`);
      expect(result.stderr).not.toMatch(/undici|ReferenceError|SyntaxError/);
    }
  });
});
