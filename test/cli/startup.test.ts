/**
 * `compliance --help` and `--version` load no command: the modules the built bin loads before it
 * reads its arguments (dist/cli/main.mjs and its static imports) hold none of the sandbox, the PDF
 * reader, undici or a command. The timing itself is bench/cli.ts; this catches the static import
 * that would undo it, whatever the machine's load.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, buildCli, cli } from './helpers.js';

const STATIC_IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s*"(\.[^"]+)"/gm;
const DYNAMIC_IMPORT = /\bimport\("(\.[^"]+)"\)/g;

/** The files `file` loads: itself and, transitively, its static imports (and with `dynamic`, its `import()`s too). */
function graph(file: string, dynamic = false, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  for (const match of [...text.matchAll(STATIC_IMPORT), ...(dynamic ? text.matchAll(DYNAMIC_IMPORT) : [])]) graph(join(dirname(file), match[1]!), dynamic, seen);
  return seen;
}

/** The source files esbuild inlined into `files` (it heads each with a `// path` comment). */
function sources(files: Iterable<string>): string[] {
  return [...files].flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/^\/\/ ((?:[\w@.-]+\/)+[\w.-]+\.[cm]?[jt]s)$/gm)].map((m) => m[1]!));
}

beforeAll(() => buildCli(), 120_000);

describe('compliance start-up', () => {
  it('the bin loads only the router, its output and exit codes before reading its arguments', () => {
    const loaded = sources(graph(join(dirname(CLI), 'main.mjs')));
    expect(loaded).toContain('cli/main.ts');
    expect(loaded).toContain('cli/commands/index.ts');
    // review/neutralise.ts is the one escape every printed line passes (a few regular expressions).
    expect(loaded.filter((path) => path !== 'review/neutralise.ts' && /^(sandbox|review|actions)\/|node_modules|^cli\/commands\/(?!index\.ts)|^api\/node\//.test(path))).toEqual([]);
    // The lazily loaded parts do exist, as chunks of their own.
    const chunks = join(dirname(CLI), 'chunks');
    const all = sources(readdirSync(chunks).map((file) => join(chunks, file)));
    expect(all).toEqual(expect.arrayContaining(['cli/commands/ping.ts', 'cli/commands/sandbox.ts', 'sandbox/index.ts', 'api/node/transport.ts']));
    // The one Node transport is node:http(s): no HTTP library is bundled.
    expect(all.filter((path) => path.includes('node_modules/undici/'))).toEqual([]);
  });

  it('every chunk the build wrote is one the bin can load (no dead weight in the package)', () => {
    const chunks = join(dirname(CLI), 'chunks');
    const reachable = graph(join(dirname(CLI), 'main.mjs'), true);
    // esbuild may leave an empty chunk (only the banner) for a module it shook out entirely.
    const hasCode = (file: string) => readFileSync(file, 'utf8').split('\n').slice(1).join('').trim() !== '';
    expect(readdirSync(chunks).map((file) => join(chunks, file)).filter((file) => !reachable.has(file) && hasCode(file))).toEqual([]);
  });

  it('--version prints the package version and --help every command, without loading one', async () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(await cli(['--version'])).toMatchObject({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['review', 'sync', 'map', 'gaps', 'generate', 'ping', 'call', 'sandbox', 'init', 'config', 'auto-topup']) expect(help.stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
  });

  it('the bin answers --version and -v itself, without starting the ES module graph', () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    // The bin alone, without main.mjs beside it: only an answer of its own can succeed.
    const alone = mkdtempSync(join(tmpdir(), 'cli-bin-'));
    try {
      copyFileSync(CLI, join(alone, 'compliance.cjs'));
      for (const flag of ['--version', '-v']) {
        const run = spawnSync(process.execPath, [join(alone, 'compliance.cjs'), flag], { encoding: 'utf8' });
        expect({ code: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
      }
      expect(spawnSync(process.execPath, [join(alone, 'compliance.cjs'), '--help'], { encoding: 'utf8' }).status).toBe(3);
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  });
});
