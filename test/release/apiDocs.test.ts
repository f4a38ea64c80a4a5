/**
 * Every TypeScript block of docs/api.md is compiled (tsc, strict, against the package's main
 * export) and run against a live-mode sandbox (issue 24: its generateDocument example failed with
 * unknown_document_type). A block that imports the package itself runs as written, with
 * https://api.example.com pointed at the sandbox; the others get a prelude with a client and the
 * values they name (signal, jobId, policyText, content, revisedContent, a policy.pdf).
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, liveSandbox, ROOT } from '../cli/helpers.js';

const PRELUDE = `import { ComplianceClient } from 'compliance-engine-cli';
import { openAsBlob, writeFileSync } from 'node:fs';
const client = new ComplianceClient({ apiKey: process.env.COMPLIANCE_API_KEY!, baseUrl: process.env.COMPLIANCE_BASE_URL! });
const signal = new AbortController().signal;
const policyText = 'Access to systems holding protected health information is granted by role, reviewed quarterly by each system owner and revoked on the last working day. '.repeat(3);
const content = policyText;
const revisedContent = \`\${policyText} Every access review is recorded in the access log.\`;
const prepared = await client.generateAndDownload({ framework: 'hipaa-security', type: 'access_control_policy' }, { format: 'pdf' });
if (prepared.download.kind !== 'binary') throw new Error('expected a pdf');
writeFileSync('policy.pdf', prepared.download.data);
const jobId = prepared.job.jobId;
void openAsBlob; void signal; void content; void revisedContent; void jobId;
`;

let box: RunningSandbox;
let dir: string;
let blocks: string[];

beforeAll(async () => {
  box = await liveSandbox(100_000_000);
  dir = mkdtempSync(join(tmpdir(), 'api-docs-'));
  const markdown = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');
  blocks = [...markdown.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1]!);
  blocks.forEach((block, index) => {
    const selfContained = block.includes("from 'compliance-engine-cli'");
    writeFileSync(join(dir, `block${index}.ts`), selfContained ? block : `${PRELUDE}\n${block}\nexport {};\n`);
  });
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: {
      strict: true, noEmit: true, target: 'es2023', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: ['node'],
      typeRoots: [join(ROOT, 'node_modules/@types')],
      baseUrl: ROOT, paths: { 'compliance-engine-cli': ['api/node/index.ts'] }, allowImportingTsExtensions: true, rewriteRelativeImportExtensions: false,
    },
    include: ['*.ts'],
  }));
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }');
}, 120_000);

afterAll(async () => {
  await box?.close();
});

it('docs/api.md has TypeScript blocks, and they type-check', () => {
  expect(blocks.length).toBeGreaterThanOrEqual(3);
  try {
    execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', dir], { encoding: 'utf8' });
  } catch (error) {
    throw new Error(`tsc:\n${(error as { stdout?: string }).stdout ?? String(error)}`);
  }
}, 120_000);

it('each block runs against the sandbox', async () => {
  for (const [index, block] of blocks.entries()) {
    const entry = join(dir, `block${index}.ts`);
    if (block.includes("from 'compliance-engine-cli'")) writeFileSync(entry, block.replaceAll('https://api.example.com', box.baseUrl));
    const out = join(dir, `block${index}.mjs`);
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', target: 'node24', outfile: out, logLevel: 'silent',
      // CommonJS dependencies (undici) inside an ESM bundle need require.
      banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
      alias: { 'compliance-engine-cli': join(ROOT, 'api/node/index.ts') } });
    try {
      // Not execFileSync: the sandbox answers from this process's event loop.
      await promisify(execFile)(process.execPath, [out], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', COMPLIANCE_API_KEY: LIVE_KEY, COMPLIANCE_BASE_URL: box.baseUrl } });
    } catch (error) {
      throw new Error(`block ${index} of docs/api.md failed:\n${block}\n${(error as { stderr?: string }).stderr ?? String(error)}`);
    }
  }
}, 180_000);
