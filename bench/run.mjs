// `npm run bench`: bundles bench/main.ts with every bench module in bench/ (any *.ts other than
// main.ts and report.ts, each exporting `bench(report)`) into bench/out/, then runs it (each module in its own process: main.ts).
// `npm run bench -- --module NAME` runs that module only and prints its figures (REPORT.md is left as it is).
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const modules = readdirSync('bench')
  .filter((f) => f.endsWith('.ts') && !['main.ts', 'report.ts'].includes(f) && !f.endsWith('.d.ts'))
  .sort((a, b) => (a === 'sandbox.ts' ? -1 : b === 'sandbox.ts' ? 1 : a.localeCompare(b)));
const entry = [
  "import { runBenches } from './main.ts';",
  ...modules.map((file, i) => `import * as m${i} from './${file}';`),
  `await runBenches([${modules.map((file, i) => `[${JSON.stringify(file.replace(/\.ts$/, ''))}, m${i}]`).join(', ')}]);`,
].join('\n');
await build({
  stdin: { contents: entry, resolveDir: 'bench', sourcefile: 'entry.ts', loader: 'ts' },
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  outfile: 'bench/out/bench.mjs',
  logLevel: 'warning',
  // CommonJS dependencies inside an ESM bundle need require.
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
});
try {
  execFileSync(process.execPath, ['bench/out/bench.mjs', ...process.argv.slice(2)], { stdio: 'inherit' });
} catch (error) {
  process.exitCode = error.status ?? 1;
}
