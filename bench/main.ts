/**
 * The benchmark runner. bench/run.mjs bundles this with every bench module it finds in bench/
 * (each exports `async function bench(report: BenchReport)`, e.g. sandbox.ts, library.ts) and calls
 * runBenches; figures are printed and written to bench/out/results.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { Collector, type BenchModule } from './report.js';

export async function runBenches(modules: Array<[name: string, module: BenchModule]>): Promise<void> {
  const collector = new Collector();
  console.log(`bench: node ${process.version}, ${cpus().length} CPU(s), modules: ${modules.map(([name]) => name).join(', ')}`);
  let failed = false;
  for (const [name, module] of modules) {
    console.log(`\n[${name}]`);
    try {
      await module.bench(collector.forModule(name));
    } catch (error) {
      failed = true;
      console.error(`  ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  mkdirSync('bench/out', { recursive: true });
  writeFileSync(
    'bench/out/results.json',
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, figures: collector.figures, notes: collector.notes }, null, 2)}\n`,
  );
  console.log('\nbench: figures written to bench/out/results.json');
  if (failed) process.exitCode = 1;
}
