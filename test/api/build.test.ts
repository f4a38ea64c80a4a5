/** The published entry: `npm run build` output imports (ESM and CommonJS) and constructs a client. */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const KEY = 'cmp_live_BuildTestKey000';

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'api'], { cwd: root, stdio: 'pipe' });
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
  }));
`;

const EXPECTED = { operations: 23, baseUrl: 'https://api.example.test/api/public/v1', ping: 'function', leaked: false, uploadKinds: 8 };

function run(args: string[]): unknown {
  return JSON.parse(execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8' }));
}

describe('the built n8n-nodes-compliance/api entry', () => {
  it('dist/api/index.cjs requires and constructs a client', () => {
    expect(run(['-e', `const api = require('./dist/api/index.cjs');${PROBE}`])).toEqual(EXPECTED);
  });

  it('dist/api/index.mjs imports and constructs a client', () => {
    expect(run(['--input-type=module', '-e', `import * as api from './dist/api/index.mjs';${PROBE}`])).toEqual(EXPECTED);
  });

  it('package.json exports ./api to those files', () => {
    const pkg = createRequire(import.meta.url)(resolve(root, 'package.json')) as { exports: Record<string, Record<string, string>> };
    expect(pkg.exports['./api']).toMatchObject({ import: './dist/api/index.mjs', require: './dist/api/index.cjs', types: './dist/types/api/index.d.ts' });
  });
});
