/**
 * The benchmark runner. bench/run.mjs bundles this with every bench module it finds in bench/
 * (each exports `async function bench(report: BenchReport)`, e.g. sandbox.ts, library.ts) and calls
 * runBenches; figures are printed, written to bench/out/results.json and to bench/REPORT.md, each
 * beside its target (from the issues) and its anchor measured in the same run, with the machine.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem, type as osType, release } from 'node:os';
import { Collector, formatValue, median, meetsTarget, type BenchModule, type Figure } from './report.js';

/** Targets the issues named for figures whose modules do not carry one (issue 3: none numeric; 5, 6: see notes). */
const TARGETS: Array<{ match: RegExp; target: string; source: string }> = [
  { match: /^library policy 500 × 20k chars: ingest until searchable$/, target: '≤ 5000 ms', source: 'issue 4' },
  { match: /^library policy 500 × 20k chars: search p95$/, target: '≤ 10 ms', source: 'issue 4' },
  { match: /^library policy 50 × 300k chars: search p95$/, target: '≤ 50 ms', source: 'issue 4' },
  { match: /^unchanged re-sync of 500 files: tokens$/, target: '0', source: 'issue 5 (never re-ingest unchanged)' },
];

/** Anchors: for each figure, the figure of the same run it is judged against. */
const ANCHORS: Array<{ match: RegExp; anchor: (name: string) => RegExp; label?: string }> = [
  { match: /^cold start to listening/, anchor: () => /^bare node -e '' \(start to exit\), runner$/ },
  { match: /: cold start to first request \(bundle\)$/, anchor: (name) => new RegExp(`^${escape(name.replace(' (bundle)', ' (unbundled TS)'))}$`) },
  { match: /: cold start to first request \(unbundled TS\)$/, anchor: () => /^bare node: start to first request/ },
  { match: /^unchanged re-sync of 500 files: tokens$/, anchor: () => /^first sync of 500 files: tokens$/, label: 'naive re-ingest-everything sync (= a first sync)' },
  { match: /^unchanged re-sync of 500 files: requests$/, anchor: () => /^first sync of 500 files: requests$/, label: 'naive re-ingest-everything sync (= a first sync)' },
  { match: /: wall time$/, anchor: () => /^floor at /, label: 'floor the rate limit implies' },
];

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function timeToExit(args: string[]): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: 'ignore' });
  await new Promise<void>((resolve) => child.on('close', () => resolve()));
  return performance.now() - started;
}

function machine(): string[] {
  const cpu = cpus();
  return [
    `- CPU: ${cpu[0]?.model ?? 'unknown'}, ${cpu.length} core(s) visible to Node`,
    `- Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `- OS: ${osType()} ${release()}`,
    `- Node: ${process.version}`,
    `- Date: ${new Date().toISOString()}`,
    `- Load average at the end (1/5/15 min): ${loadavg().map((l) => l.toFixed(2)).join(' / ')} — the machine is shared, so timings carry that noise`,
  ];
}

export function renderReport(figures: Figure[], notes: string[], failedModules: string[]): string {
  const byName = (pattern: RegExp) => figures.find((figure) => pattern.test(figure.name));
  const rows = new Map<string, string[]>();
  const missed: string[] = [];
  for (const figure of figures) {
    const targetRule = TARGETS.find((rule) => rule.match.test(figure.name));
    const target = figure.target ?? targetRule?.target;
    let anchorText = '';
    const anchorRule = ANCHORS.find((rule) => rule.match.test(figure.name));
    const anchorFigure = figure.anchor ? byName(new RegExp(`^${escape(figure.anchor.name)}$`)) : anchorRule ? byName(anchorRule.anchor(figure.name)) : undefined;
    if (figure.anchor?.value !== undefined) anchorText = `${figure.anchor.name}: ${formatValue(figure.anchor.value)} ${figure.anchor.unit ?? figure.unit}`;
    else if (anchorFigure) anchorText = `${anchorRule?.label ?? anchorFigure.name}: ${formatValue(anchorFigure.value)} ${anchorFigure.unit}`;
    const verdict = target === undefined ? '' : meetsTarget(figure.value, target) === undefined ? '' : meetsTarget(figure.value, target) ? 'met' : '**missed**';
    if (verdict === '**missed**') missed.push(`${figure.name}: ${formatValue(figure.value)} ${figure.unit} (target ${target})`);
    const row = `| ${figure.name} | ${formatValue(figure.value)} ${figure.unit} | ${target ?? '—'} | ${anchorText || '—'} | ${verdict} |`;
    rows.set(figure.module, [...(rows.get(figure.module) ?? []), row]);
  }
  const lines = [
    '# Benchmark report',
    '',
    'Written by `npm run bench` (bench/main.ts). Every figure stands beside its target, where an issue named one, and its',
    'anchor: a comparable figure measured in the same run on the same machine (bare `node -e \'\'` beside each cold start, the',
    'unbundled action beside the bundled one, a naive re-ingest-everything sync beside ours, the floor a rate limit implies',
    'beside the wall time). Raw figures: `bench/out/results.json`.',
    '',
    '## Machine',
    '',
    ...machine(),
    '',
  ];
  if (missed.length) lines.push('## Targets missed', '', ...missed.map((line) => `- ${line}`), '');
  if (failedModules.length) lines.push('## Modules that failed', '', ...failedModules.map((line) => `- ${line}`), '');
  for (const [module, moduleRows] of rows) {
    lines.push(`## ${module}`, '', '| Figure | Value | Target | Anchor (same run) | |', '|---|---|---|---|---|', ...moduleRows, '');
    const moduleNotes = notes.filter((note) => note.startsWith(`${module}: `)).map((note) => `- ${note.slice(module.length + 2)}`);
    if (moduleNotes.length) lines.push(...moduleNotes, '');
  }
  return `${lines.join('\n')}\n`;
}

/** Runs one module in this process and writes what it reported to `out` (the child side of runBenches; without `out`, it only prints). */
async function runOneModule(module: BenchModule, name: string, out: string | undefined): Promise<void> {
  const collector = new Collector();
  await module.bench(collector.forModule(name));
  if (out) writeFileSync(out, JSON.stringify({ figures: collector.figures, notes: collector.notes }));
}

/** Spawns this bundle for one module, waits for it and returns what the module reported. */
async function runModuleProcess(name: string): Promise<{ figures: Figure[]; notes: string[] }> {
  const out = `bench/out/module-${name}.json`;
  rmSync(out, { force: true });
  const child = spawn(process.execPath, [process.argv[1]!, '--module', name, '--out', out], { stdio: 'inherit' });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`exited with code ${code}`);
  return JSON.parse(readFileSync(out, 'utf8')) as { figures: Figure[]; notes: string[] };
}

/**
 * Each module runs in its own process, one after another: a module's figures must not depend on
 * what ran before it in the same process (an earlier module's heap, threads and timers made the
 * library's search figures 15-20% slower).
 */
export async function runBenches(modules: Array<[name: string, module: BenchModule]>): Promise<void> {
  const argument = (flag: string) => {
    const at = process.argv.indexOf(flag);
    return at < 0 ? undefined : process.argv[at + 1];
  };
  const only = argument('--module');
  if (only) {
    const entry = modules.find(([name]) => name === only);
    if (!entry) throw new Error(`no bench module ${only}`);
    await runOneModule(entry[1], only, argument('--out'));
    return;
  }
  const collector = new Collector();
  console.log(`bench: node ${process.version}, ${cpus().length} CPU(s), modules: ${modules.map(([name]) => name).join(', ')}`);
  const failed: string[] = [];
  {
    // The runner's own anchor for every cold start: a bare node process, start to exit.
    const report = collector.forModule('runner');
    const bare: number[] = [];
    for (let i = 0; i < 7; i++) bare.push(await timeToExit(['-e', '']));
    console.log('\n[runner]');
    report.figure("bare node -e '' (start to exit), runner", Math.round(median(bare) * 10) / 10, 'ms');
  }
  mkdirSync('bench/out', { recursive: true });
  for (const [name] of modules) {
    console.log(`\n[${name}]`);
    try {
      const reported = await runModuleProcess(name);
      collector.figures.push(...reported.figures);
      collector.notes.push(...reported.notes);
    } catch (error) {
      failed.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`  ${name} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  writeFileSync(
    'bench/out/results.json',
    `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: cpus().length, figures: collector.figures, notes: collector.notes }, null, 2)}\n`,
  );
  writeFileSync('bench/REPORT.md', renderReport(collector.figures, collector.notes, failed));
  console.log('\nbench: figures written to bench/out/results.json and bench/REPORT.md');
  if (failed.length) process.exitCode = 1;
}
