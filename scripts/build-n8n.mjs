// Builds the n8n community package into dist/: one CommonJS bundle per node and credential (the
// API core and zod inlined, `n8n-workflow` left to the n8n instance), next to its icons and codex
// file, at the paths package.json's "n8n" section lists.
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const N8N_ENTRIES = [
  { source: 'nodes/Compliance/Compliance.node.ts', outfile: 'dist/nodes/Compliance/Compliance.node.js' },
  { source: 'nodes/ComplianceTrigger/ComplianceTrigger.node.ts', outfile: 'dist/nodes/ComplianceTrigger/ComplianceTrigger.node.js' },
  { source: 'credentials/ComplianceApi.credentials.ts', outfile: 'dist/credentials/ComplianceApi.credentials.js' },
];

/** Icons and codex files beside each source are copied beside its bundle. */
const ASSET = /\.(svg|png|node\.json)$/;

export async function build({ esbuild, common, selected = () => true }) {
  if (!selected('n8n')) return;
  for (const folder of ['dist/nodes', 'dist/credentials']) rmSync(folder, { recursive: true, force: true });
  for (const { source, outfile } of N8N_ENTRIES) {
    await esbuild({
      ...common,
      entryPoints: [source],
      outfile,
      format: 'cjs',
      // n8n supplies n8n-workflow (a peer dependency); everything else is bundled: no runtime dependencies.
      external: ['n8n-workflow'],
      // Class names are what n8n registers: keep them.
      keepNames: true,
    });
    const from = dirname(source);
    const to = dirname(outfile);
    mkdirSync(to, { recursive: true });
    for (const file of readdirSync(from)) {
      if (ASSET.test(file) && existsSync(join(from, file))) copyFileSync(join(from, file), join(to, file));
    }
  }
}
