/**
 * The compliance-engine-cli artifact as a user gets it: built, packed by scripts/pack.mjs, installed
 * from the tarball into a fresh project outside this checkout (no network: the package has no
 * dependencies, so `npm install --offline` must succeed), and used there through npx, require and
 * import. npm_config_yes=false throughout, so nothing can be fetched from the registry behind our
 * back (a bare `npx compliance` would otherwise run an unrelated registry package of that name).
 */
import { execFileSync, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { olderNode } from './olderNode.js';
import { tinyPdf } from './tinyPdf.js';

const ROOT = resolve(import.meta.dirname, '../..');
const NAME = 'compliance-engine-cli';
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const OLD_NODE = olderNode();

/** The environment of a user's shell: Node 24 on PATH, no connection variables, no implicit npx installs. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, HOME: process.env.HOME, COMPLIANCE_DATA_DIR: process.env.COMPLIANCE_DATA_DIR, NO_COLOR: '1', CI: 'true', COMPLIANCE_SANDBOX: '1', npm_config_yes: 'false', npm_config_update_notifier: 'false', ...extra };
  return env;
}

function run(command: string, args: string[], cwd: string, extra: Record<string, string> = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: userEnv(extra), encoding: 'utf8', timeout: 120_000 });
}

let project: string;
let tarball: string;
let entries: string[];

beforeAll(() => {
  execFileSync(process.execPath, ['scripts/build.mjs', 'cli', 'api', 'sandbox'], { cwd: ROOT, stdio: 'pipe' });
  const packed = execFileSync(process.execPath, ['scripts/pack.mjs', '--no-build', NAME], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const file = /^pack: (\S+\.tgz)/m.exec(packed)?.[1];
  expect(file, packed).toMatch(new RegExp(`^${NAME}-${VERSION.replace(/\./g, '\\.')}\\.tgz$`));
  project = mkdtempSync(join(tmpdir(), 'cli-package-'));
  // A private copy: another suite may pack again while this one runs.
  tarball = join(project, file!);
  copyFileSync(join(ROOT, 'dist/packages', file!), tarball);
  entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter(Boolean);

  writeFileSync(join(project, 'policy.pdf'), tinyPdf(['Access control policy', 'Access to systems holding health information is granted on least privilege and reviewed quarterly.']));
  expect(run('npm', ['init', '-y'], project).status).toBe(0);
  const install = run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], project);
  expect(install.status, install.stderr).toBe(0);
}, 300_000);

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the compliance-engine-cli tarball', () => {
  it('holds the bundles, their types, README and LICENSE, and nothing of the repository', () => {
    const top = new Set(entries.map((entry) => entry.split('/').slice(1, 3).join('/')));
    expect([...top].sort()).toEqual(['LICENSE', 'README.md', 'dist/api', 'dist/cli', 'dist/sandbox', 'dist/types', 'dist/workers', 'package.json']);
    expect(entries.filter((entry) => /\.ts$/.test(entry) && !entry.endsWith('.d.ts'))).toEqual([]);
    expect(entries.filter((entry) => /(^|\/)(test|tests|src|scripts|bench|examples|node_modules|\.github)\//.test(entry))).toEqual([]);
    for (const file of ['dist/cli/compliance.cjs', 'dist/cli/main.mjs', 'dist/api/index.cjs', 'dist/api/index.mjs', 'dist/sandbox/index.cjs', 'dist/sandbox/index.mjs', 'dist/types/api/node/index.d.ts', 'dist/types/sandbox/index.d.ts', 'dist/types/vendor/zod/v4/index.d.ts', 'dist/types/vendor/zod/LICENSE', 'dist/types/vendor/undici/index.d.ts', 'dist/workers/upload-extraction.cjs', 'dist/workers/mapping.cjs']) {
      expect(entries, file).toContain(`package/${file}`);
    }
    // Every chunk the CLI imports is in the tarball (an incomplete dist/cli fails here or in ping below).
    expect(entries.filter((entry) => entry.startsWith('package/dist/cli/chunks/')).length).toBeGreaterThan(5);
  });

  it('has no dependencies and no scripts, needs Node 24 and names its bin', () => {
    const pkg = JSON.parse(readFileSync(join(project, 'node_modules', NAME, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg).toMatchObject({ name: NAME, version: VERSION, bin: { compliance: 'dist/cli/compliance.cjs' }, engines: { node: '>=24' }, license: 'MIT' });
    for (const field of ['dependencies', 'scripts', 'private', 'devDependencies']) expect(pkg, field).not.toHaveProperty(field);
  });
});

describe('installed from the tarball into a project outside the repository', () => {
  it('npx compliance --version prints the version of the package', () => {
    const result = run('npx', ['compliance', '--version'], project);
    expect(result.stderr).not.toMatch(/Permission denied|not found/);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(`${VERSION}\n`);
  });

  it('npx compliance ping works against the embedded sandbox with no COMPLIANCE_* set', () => {
    const result = run('npx', ['compliance', 'ping', '--json'], project);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, mode: 'sandbox', embedded: true, key: '(embedded sandbox key)' });
    expect(result.stderr).toContain('using an embedded sandbox');
  });

  it('npx compliance call mapDocument --file reads a PDF (the upload worker and its PDF reader are in the package)', () => {
    const result = run('npx', ['compliance', 'call', 'mapDocument', '--input', '{"framework":"hipaa-security"}', '--file', 'policy.pdf'], project);
    expect(result.stderr).not.toMatch(/could not be read|missing/);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ jobId: expect.any(String) });
  });

  it("require('compliance-engine-cli') gives the client (CommonJS)", () => {
    const result = run(process.execPath, ['-e', `const api = require('${NAME}'); const c = new api.ComplianceClient({ apiKey: 'csk_live_x_0001', baseUrl: 'https://api.example.test' }); console.log(JSON.stringify([typeof api.clientFromEnv, c.baseUrl, Object.keys(api.operations).length, require.resolve('${NAME}').endsWith('dist/api/index.cjs')]))`], project);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(['function', 'https://api.example.test/api/public/v1', 23, true]);
  });

  it("import('compliance-engine-cli/sandbox') gives startSandbox; the installed client pings the sandbox it starts and uploads a PDF to it (ESM)", () => {
    const script = `
      import { ComplianceClient } from '${NAME}';
      import { startSandbox } from '${NAME}/sandbox';
      import { readFileSync } from 'node:fs';
      const sandbox = await startSandbox({ port: 0, keys: ['csk_live_release_0001:live:1000000'] });
      try {
        const client = new ComplianceClient({ apiKey: sandbox.keys[0].key, baseUrl: sandbox.baseUrl });
        const answer = await client.ping();
        // The upload is read, then mapped, by the sandbox's workers, which this entry finds in the package.
        const mapped = await client.mapDocument({ framework: 'hipaa-security', file: { data: new Uint8Array(readFileSync('policy.pdf')), filename: 'policy.pdf' } });
        const job = await client.waitForJob(mapped.jobId);
        console.log(JSON.stringify({ mode: answer.mode, loopback: sandbox.baseUrl.startsWith('http://127.0.0.1:'), job: job.status }));
      } finally {
        await sandbox.close();
      }`;
    const result = run(process.execPath, ['--input-type=module', '-e', script], project);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ mode: 'live', loopback: true, job: 'completed' });
  });

  it("require('compliance-engine-cli/sandbox') gives startSandbox too (CommonJS)", () => {
    const result = run(process.execPath, ['-e', `const { startSandbox } = require('${NAME}/sandbox'); startSandbox({ port: 0 }).then(async (s) => { console.log(s.keys[0].mode); await s.close(); })`], project);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe('sandbox\n');
  });

  it('its types check a user\'s strict TypeScript (ESM and CommonJS, no skipLibCheck) and are not `any`', () => {
    writeFileSync(join(project, 'esm.mts'), [
      `import { ComplianceClient, clientFromEnv, type JobStatusModel } from '${NAME}';`,
      `import { startSandbox, type RunningSandbox } from '${NAME}/sandbox';`,
      'const sandbox: RunningSandbox = await startSandbox({ port: 0, jobSeconds: 0 });',
      'const client = new ComplianceClient({ apiKey: sandbox.keys[0]!.key, baseUrl: sandbox.baseUrl });',
      "const mode: 'sandbox' | 'live' = (await client.ping()).mode;",
      '// @ts-expect-error the mode is a string union (unused if the types were `any`)',
      'const wrong: number = (await client.ping()).mode;',
      "const job: JobStatusModel = await client.getJob({ jobId: 'job_1' });",
      '// @ts-expect-error getJob needs a jobId',
      'await client.getJob({});',
      'console.log(mode, wrong, job.status, clientFromEnv);',
    ].join('\n'));
    writeFileSync(join(project, 'cjs.cts'), [
      `import api = require('${NAME}');`,
      `import sandboxModule = require('${NAME}/sandbox');`,
      'void sandboxModule.startSandbox({ port: 0 }).then(async (sandbox) => {',
      '  const client = new api.ComplianceClient({ apiKey: sandbox.keys[0]!.key, baseUrl: sandbox.baseUrl });',
      '  // @ts-expect-error a string union, not a number',
      '  const wrong: number = (await client.ping()).mode;',
      '  console.log(wrong);',
      '});',
    ].join('\n'));
    const options = { module: 'nodenext', target: 'es2023', strict: true, noEmit: true, skipLibCheck: false, types: ['node'], typeRoots: [join(ROOT, 'node_modules/@types')] };
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, files: ['esm.mts', 'cjs.cts'] }));
    const result = run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', '.'], project);
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('npx -y compliance-engine-cli --help resolves the installed package (offline: nothing fetched)', () => {
    const result = run('npx', ['-y', NAME, '--help'], project, { npm_config_offline: 'true' });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: compliance <command> \[subcommand\] \[options\]/);
    expect(result.stdout).toContain('  ping ');
  });

  it('npx -y compliance-engine-cli mcp, as the README\'s assistant configurations run it, answers an MCP client over stdio (offline)', async () => {
    const transport = new StdioClientTransport({ command: 'npx', args: ['-y', NAME, 'mcp'], cwd: project, env: userEnv({ npm_config_offline: 'true' }) as Record<string, string>, stderr: 'pipe' });
    const client = new Client({ name: 'release-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getInstructions()).toContain('Connected to an embedded sandbox');
      // The 23 operation ids less getOpenApi (a resource now), plus getMappingReport and planReview.
      expect((await client.listTools()).tools).toHaveLength(24);
      expect(await client.callTool({ name: 'ping' })).toMatchObject({ structuredContent: { result: { mode: 'sandbox' } } });
    } finally {
      await client.close();
    }
  }, 60_000);

  // Skipped only when this machine has no Node older than 24 (`which -a node`, /usr/bin/node).
  it.skipIf(!OLD_NODE)('on an older Node the bin stops with one line naming Node 24 and how to get it, exit 1', () => {
    // The bin through its shebang (`#!/usr/bin/env node`) with the old Node first on PATH, as a user with an old Node runs it.
    const result = spawnSync(join(project, 'node_modules/.bin/compliance'), ['--help'], { cwd: project, encoding: 'utf8', env: { PATH: `${dirname(OLD_NODE!)}:/usr/bin:/bin` } });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^compliance \(compliance-engine-cli\) needs Node\.js 24 or newer; this is Node\.js v(1\d|2[0-3])\.[\d.]+\. Get it with: nvm install 24 .*\n$/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('npx compliance inside this checkout (the root bin, for contributors)', () => {
  it('the build leaves the bin executable, and npx runs it with no implicit install', () => {
    // The beforeAll build above is a partial build; the bin must be executable after it.
    expect(statSync(join(ROOT, 'dist/cli/compliance.cjs')).mode & 0o111).toBe(0o111);
    const result = run('npx', ['compliance', '--version'], ROOT);
    expect(result.stderr).not.toMatch(/Permission denied/);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toBe(`${VERSION}\n`);
  });
});
