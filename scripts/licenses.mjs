// Writes the license notices of every npm package a bundle inlines (from esbuild's metafile) next
// to the bundle, as MIT/ISC/BSD/Apache licenses ask of redistributed code.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** `node_modules/@scope/name/...` or `node_modules/name/...` → the package directory. */
function packageDirOf(input) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match ? match[1] : undefined;
}

/** `metafiles`: one esbuild metafile, or those of every file the bundle is made of. */
export function writeLicenses(metafiles, outfile) {
  const dirs = new Set();
  for (const input of [metafiles].flat().flatMap((metafile) => Object.keys(metafile.inputs))) {
    const dir = packageDirOf(input);
    if (dir) dirs.add(dir);
  }
  const sections = new Map();
  for (const dir of dirs) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const id = `${pkg.name}@${pkg.version}`;
    if (sections.has(id)) continue;
    const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\..*)?$/i.test(f));
    const text = licenseFile && existsSync(join(dir, licenseFile)) ? readFileSync(join(dir, licenseFile), 'utf8').trim() : `License: ${pkg.license ?? 'see package'}`;
    sections.set(id, `${id} (${typeof pkg.license === 'string' ? pkg.license : 'see below'})\n\n${text}`);
  }
  const body = [...sections.keys()].sort().map((id) => sections.get(id)).join('\n\n' + '-'.repeat(72) + '\n\n');
  writeFileSync(outfile, `Third-party software inlined in this bundle\n\n${body}\n`);
}
