#!/usr/bin/env node
// `npm run pack`: builds everything, then packs each artifact of packages/ into dist/packages/ as
// the registry would receive it.
//
// An artifact is a folder packages/<name>/ with the package.json and README.md its users see. The
// fields every artifact shares (version, license, author, repository, bugs, engines) are written
// once, in the root package.json, and copied in here (scripts/artifacts.mjs); each path of the
// artifact's `files` is copied from the same path of this repository (so `dist/nodes` in its
// `files` ships this build's dist/nodes), beside the root LICENSE. dist/packages/manifest.json maps each artifact to its tarball.
//
//   node scripts/pack.mjs [--no-build] [artifact ...]
//     --no-build  pack what dist/ holds (after a partial `node scripts/build.mjs <part>`)
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { artifactPackageJson } from './artifacts.mjs';

const REPO = resolve(import.meta.dirname, '..');
const OUT = join(REPO, 'dist/packages');

const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const wanted = args.filter((a) => !a.startsWith('--'));
const artifacts = readdirSync(join(REPO, 'packages')).filter((name) => existsSync(join(REPO, 'packages', name, 'package.json'))).sort();
for (const name of wanted) if (!artifacts.includes(name)) throw new Error(`pack: no artifact "${name}"; there are: ${artifacts.join(', ')}`);

if (build) execFileSync(process.execPath, [join(REPO, 'scripts/build.mjs')], { cwd: REPO, stdio: 'inherit' });

const manifestPath = join(OUT, 'manifest.json');
const manifest = existsSync(manifestPath) ? JSON.parse(readFileSync(manifestPath, 'utf8')) : {};
mkdirSync(OUT, { recursive: true });

for (const artifact of wanted.length ? wanted : artifacts) {
  const source = join(REPO, 'packages', artifact);
  const template = JSON.parse(readFileSync(join(source, 'package.json'), 'utf8'));
  const stage = join(OUT, 'stage', artifact);
  rmSync(stage, { recursive: true, force: true });
  mkdirSync(stage, { recursive: true });

  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(artifactPackageJson(REPO, artifact), null, 2)}\n`);
  for (const file of ['README.md']) cpSync(join(source, file), join(stage, file));
  cpSync(join(REPO, 'LICENSE'), join(stage, 'LICENSE'));
  for (const path of template.files ?? []) {
    if (!existsSync(join(REPO, path))) throw new Error(`pack: ${artifact} ships "${path}", which the build did not produce (run npm run build)`);
    cpSync(join(REPO, path), join(stage, path), { recursive: true });
  }

  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', OUT], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
  manifest[artifact] = { name: packed.name, version: packed.version, tarball: join('dist/packages', packed.filename), size: packed.size, unpackedSize: packed.unpackedSize, files: packed.entryCount };
  console.log(`pack: ${packed.filename} (${(packed.size / 1024).toFixed(0)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(0)} KiB unpacked, ${packed.entryCount} files)`);
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
