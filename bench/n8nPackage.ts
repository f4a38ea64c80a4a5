/**
 * The n8n package: each node bundle's size (as `npm run bench`'s build leaves it in dist/) beside
 * its target from scripts/build-n8n.mjs, which test/release/n8nPackage.test.ts enforces.
 */
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { N8N_SIZE_TARGETS } from '../scripts/build-n8n.mjs';
import type { BenchReport } from './report.js';

export async function bench(report: BenchReport): Promise<void> {
  for (const [path, maxBytes] of Object.entries(N8N_SIZE_TARGETS)) {
    report.figure(`${basename(path)}: bundle size (minified)`, statSync(path).size / 1000, 'kB', `≤ ${maxBytes / 1000} kB`);
  }
  report.note('kB = 1,000 bytes; the bundles inline the API core and the zod it uses, n8n-workflow comes from n8n');
}
