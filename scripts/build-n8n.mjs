// Builds the n8n community package into dist/: one minified CommonJS bundle per node and credential
// (the API core and the zod it uses inlined, `n8n-workflow` left to the n8n instance), next to its
// icons and codex file, at the paths packages/n8n-nodes-compliance/package.json's "n8n" section
// lists, and dist/nodes/licenses.txt for what the bundles inline.
// Size targets (checked by test/release/n8nPackage.test.ts, reported by bench/n8nPackage.ts).
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeLicenses } from './licenses.mjs';

export const N8N_ENTRIES = [
  { source: 'nodes/Compliance/Compliance.node.ts', outfile: 'dist/nodes/Compliance/Compliance.node.js' },
  { source: 'nodes/ComplianceTrigger/ComplianceTrigger.node.ts', outfile: 'dist/nodes/ComplianceTrigger/ComplianceTrigger.node.js' },
  { source: 'credentials/ComplianceApi.credentials.ts', outfile: 'dist/credentials/ComplianceApi.credentials.js' },
];

/**
 * Bytes each bundle may take: n8n loads every installed node at start-up. The request fields'
 * descriptions for assistants live apart from the schemas (api/schemas/fieldDescriptions.ts, read by
 * the MCP server and the OpenAPI document only), so neither node bundles them.
 */
export const N8N_SIZE_TARGETS = {
  'dist/nodes/Compliance/Compliance.node.js': 250_000,
  'dist/nodes/ComplianceTrigger/ComplianceTrigger.node.js': 150_000,
};

/** Names every exported class by its export name (Compliance, ComplianceTrigger, ComplianceApi). */
const NAME_EXPORTS = "for(const[k,v]of Object.entries(module.exports))if(typeof v=='function')Object.defineProperty(v,'name',{value:k});";

/** Icons and codex files beside each source are copied beside its bundle. */
const ASSET = /\.(svg|png|node\.json)$/;

export async function build({ esbuild, common, selected = () => true }) {
  if (!selected('n8n')) return;
  for (const folder of ['dist/nodes', 'dist/credentials']) rmSync(folder, { recursive: true, force: true });
  const inlined = {};
  for (const { source, outfile } of N8N_ENTRIES) {
    const result = await esbuild({
      ...common,
      entryPoints: [source],
      outfile,
      format: 'cjs',
      // n8n supplies n8n-workflow (a peer dependency); everything else is bundled: no runtime dependencies.
      external: ['n8n-workflow'],
      // n8n records an exported class's constructor.name as its class name (and loads it by that name
      // later), so each export is named after its export name here; esbuild's keepNames did this for
      // every function of the bundle and cost 10.6 kB of the node's 250 kB.
      footer: { js: NAME_EXPORTS },
      minify: true,
      metafile: true,
    });
    Object.assign(inlined, result.metafile.inputs);
    const from = dirname(source);
    const to = dirname(outfile);
    mkdirSync(to, { recursive: true });
    for (const file of readdirSync(from)) {
      if (ASSET.test(file) && existsSync(join(from, file))) copyFileSync(join(from, file), join(to, file));
    }
  }
  writeLicenses({ inputs: inlined }, 'dist/nodes/licenses.txt');
}
