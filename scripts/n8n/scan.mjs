#!/usr/bin/env node
// n8n's verification scanner (@n8n/scan-community-package) on our packed n8n package, before it is
// published. For a published package the scanner (its `analyzePackageByName`) checks npm provenance,
// then lints two legs with one ESLint config:
//   source   the folder of the attested commit whose package.json bears the package's name
//            (here: the tree a commit of this checkout holds, where that is packages/<name>/),
//            files `package.json` and `{nodes,credentials}/**/*.{js,ts,json}`;
//   tarball  the unpacked tarball, files `**/*.js` and `package.json`.
// Both run here through the scanner's own `analyzePackage` (its verdict: ESLint errors) and through
// ESLint with the scanner's `buildScanConfig` for the warnings it does not count. A third leg, the
// scanner's source rules over our node and credential sources (they live outside packages/<name>/,
// so the real scan never lints them), holds them to the same rules.
//
//   node scripts/n8n/scan.mjs [--json] [tarball]   (default: dist/packages' n8n-nodes-compliance)
// Exit 1 on any finding, warnings included. Run it outside a test runner's NODE_ENV=test:
// eslint-plugin-n8n-nodes-base then treats every file as "Test.node.ts".
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { toolPath } from '../tools/install.mjs';

const REPO = resolve(import.meta.dirname, '../..');
const PACKAGE_NAME = 'n8n-nodes-compliance';
const SCANNER = toolPath('@n8n/scan-community-package/scanner/scanner.mjs');
const scannerRequire = createRequire(SCANNER);
const TARBALL_PATTERNS = ['**/*.js', 'package.json'];

/**
 * The one finding the scanner's rule set reports wrongly for us: its community-nodes plugin (0.29)
 * does not know n8n's versioned-node layout and asks for each version file (v1/ComplianceV1.node.ts,
 * v1/ComplianceTriggerV1.node.ts) to be registered, which n8n reaches through the registered
 * Compliance.node.ts and ComplianceTrigger.node.ts. The plugin of `n8n-node lint`
 * (0.32, npm run lint:n8n) knows the layout and reports nothing. Matched exactly, in one leg only.
 */
const VERSIONED_NODE_FALSE_POSITIVE =
  /^package\.json:\d+ warning @n8n\/community-nodes\/node-registration-complete The node file "nodes\/(\w+)\/v\d+\/\1V\d+\.node\.ts" is not registered/;

function packedTarball() {
  const manifest = JSON.parse(readFileSync(join(REPO, 'dist/packages/manifest.json'), 'utf8'));
  return join(REPO, manifest[PACKAGE_NAME].tarball);
}

/** ESLint's messages for the leg, warnings included: "file:line severity rule message". */
async function findings(scanner, dir, patterns) {
  const { ESLint } = await import(scannerRequire.resolve('eslint'));
  const glob = scannerRequire('fast-glob');
  const eslint = new ESLint({ cwd: dir, allowInlineConfig: false, overrideConfigFile: true, overrideConfig: await scanner.buildScanConfig() });
  const files = glob.sync(patterns, { cwd: dir, absolute: true, ignore: ['node_modules/**', '**/package-lock.json'] });
  const results = await eslint.lintFiles(files);
  const messages = results.flatMap((result) =>
    result.messages.map((m) => `${relative(dir, result.filePath)}:${m.line} ${m.severity === 2 ? 'error' : 'warning'} ${m.ruleId ?? ''} ${m.message}`),
  );
  return { files: files.map((file) => relative(dir, file)).sort(), messages };
}

async function leg(scanner, name, dir, patterns, allowed) {
  const verdict = await scanner.analyzePackage(dir, patterns);
  const { files, messages } = await findings(scanner, dir, patterns);
  const known = allowed ? messages.filter((m) => allowed.test(m)) : [];
  const unexpected = messages.filter((m) => !known.includes(m));
  return { leg: name, passed: verdict.passed && unexpected.length === 0, verdict: { passed: verdict.passed, message: verdict.message ?? null, details: verdict.details ?? null }, files, findings: unexpected, known };
}

export async function scan(tarball = packedTarball()) {
  if (!existsSync(tarball)) throw new Error(`scan: no tarball ${tarball}; run node scripts/build.mjs n8n && node scripts/pack.mjs --no-build ${PACKAGE_NAME}`);
  const scanner = await import(SCANNER);
  const work = mkdtempSync(join(tmpdir(), 'n8n-scan-'));
  try {
    const unpacked = join(work, 'package');
    mkdirSync(unpacked);
    // As the scanner (and n8n's installer) unpack it.
    execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);

    // The tree a commit of this checkout holds (tracked files and new ones not ignored; dist/ with
    // its staged package.json is not part of it): the package.json files the scanner searches, and
    // everything under the artifact's folder.
    const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: REPO, encoding: 'utf8' })
      .split('\0')
      .filter((path) => path && existsSync(join(REPO, path)) && !path.includes('node_modules/'));
    const source = join(work, 'source');
    for (const path of listed.filter((p) => p === 'package.json' || p.endsWith('/package.json') || p.startsWith(`packages/${PACKAGE_NAME}/`))) {
      mkdirSync(dirname(join(source, path)), { recursive: true });
      cpSync(join(REPO, path), join(source, path));
    }
    const sourceRoot = scanner.findPackageRoot(source, PACKAGE_NAME);

    const beside = join(work, 'beside');
    mkdirSync(beside);
    cpSync(join(REPO, 'packages', PACKAGE_NAME, 'package.json'), join(beside, 'package.json'));
    for (const folder of ['nodes', 'credentials']) cpSync(join(REPO, folder), join(beside, folder), { recursive: true });

    const legs = [await leg(scanner, 'tarball', unpacked, TARBALL_PATTERNS)];
    if (sourceRoot) legs.push({ ...(await leg(scanner, 'source', sourceRoot, scanner.SOURCE_FILE_PATTERNS)), root: relative(source, sourceRoot) });
    else legs.push({ leg: 'source', passed: false, root: null, findings: [`no package.json named ${PACKAGE_NAME} in the committed tree`], known: [], files: [] });
    legs.push(await leg(scanner, 'node and credential sources', beside, scanner.SOURCE_FILE_PATTERNS, VERSIONED_NODE_FALSE_POSITIVE));
    return { tarball: relative(REPO, tarball), passed: legs.every((l) => l.passed), legs };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const args = process.argv.slice(2);
  const report = await scan(args.find((a) => !a.startsWith('--')) ? resolve(args.find((a) => !a.startsWith('--'))) : undefined);
  if (args.includes('--json')) {
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    for (const l of report.legs) {
      console.log(`${l.passed ? 'pass' : 'FAIL'}  ${l.leg}${l.root ? ` (${l.root})` : ''}: ${l.files.length} files, ${l.findings.length} findings${l.known.length ? `, ${l.known.length} known false positive(s)` : ''}`);
      for (const f of [...l.findings, ...(l.verdict?.passed === false ? [l.verdict.details ?? l.verdict.message] : [])]) console.log(`      ${f}`);
      for (const f of l.known) console.log(`      known: ${f}`);
    }
    console.log(report.passed ? `scan: ${report.tarball} passes n8n's scanner` : `scan: ${report.tarball} FAILS n8n's scanner`);
  }
  process.exitCode = report.passed ? 0 : 1;
}
