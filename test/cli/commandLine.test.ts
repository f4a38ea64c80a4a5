/**
 * The command line as a terminal user meets it (issue 36), through the built CLI: global options
 * anywhere on the line, `help <command>`, "did you mean" at every level, completion scripts that
 * real bash, zsh and fish complete with, tables piped at 100 columns that cut nothing, and
 * `library ingest` paths resolved as a shell user means them, inside the repository only.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipReason } from '../systemPackages.js';
import { buildCli, cli, removeRepo, ROOT } from './helpers.js';

let scratch: string;

beforeAll(() => {
  buildCli();
  scratch = mkdtempSync(join(tmpdir(), 'compliance-command-line-'));
}, 120_000);

afterAll(() => removeRepo(scratch));

/** Runs with a fresh embedded sandbox. */
const run = (args: string[], cwd?: string, env: Record<string, string> = {}) => cli([...args], { ...(cwd ? { cwd } : {}), env: { COMPLIANCE_DATA_DIR: join(scratch, 'data'), ...env } });

describe('the command line', () => {
  it('takes the global options before the command as after it', async () => {
    const before = await run(['--json', 'ping']);
    expect(before.code).toBe(0);
    expect(before.json).toMatchObject({ ok: true, mode: 'sandbox' });
    const connection = await run(['--no-color', '--base-url', 'http://127.0.0.1:9/api/public/v1', '--api-key', 'csk_sandbox_x_0001', '--json', 'ping']);
    expect(connection.json.error.message).toMatch(/127\.0\.0\.1:9/);
    expect((await run(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('prints a command\'s help for help <command>, and names the closest for a typo', async () => {
    const help = await run(['help', 'library']);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe((await run(['library', '--help'])).stdout);
    expect(help.stdout).toMatch(/^Usage: compliance library/);
    const typo = await run(['help', 'lbrary']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "lbrary". Did you mean compliance library?');
    expect((await run(['help'])).code).toBe(0);
  });

  it.each([
    [['pign'], 'Did you mean compliance ping?'],
    [['frameworks', 'lst'], 'unknown subcommand "lst" of compliance frameworks. Did you mean compliance frameworks list?'],
    [['library', 'serch', 'x'], 'Did you mean compliance library search?'],
    [['calendar', 'gte'], 'Did you mean compliance calendar get?'],
    [['auto-topup', 'sett'], 'Did you mean compliance auto-topup set?'],
    [['config', 'chek'], 'Did you mean compliance config check?'],
    [['jobs', 'wiat', '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a'], 'Did you mean compliance jobs wait?'],
    [['completion', 'fsh'], 'Did you mean compliance completion fish or compliance completion zsh?'],
    [['map', '--framwork', 'x'], 'Did you mean --framework?'],
  ])('did you mean, at every level: compliance %s', async (args, expected) => {
    const answer = await run(args);
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain(expected);
  });
});

describe('shell completion', () => {
  let scripts: Record<'bash' | 'zsh' | 'fish', string>;
  beforeAll(async () => {
    scripts = { bash: '', zsh: '', fish: '' };
    for (const shell of ['bash', 'zsh', 'fish'] as const) {
      const answer = await run(['completion', shell]);
      expect(answer.code, answer.stderr).toBe(0);
      scripts[shell] = join(scratch, `completion.${shell}`);
      writeFileSync(scripts[shell], answer.stdout);
    }
  });

  /** What bash completes for the words typed so far (the last one being completed). */
  const bash = (...typed: string[]) => execFileSync('bash', ['-c', `source "$0"; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _compliance; printf '%s\\n' "\${COMPREPLY[@]}"`, scripts.bash, 'compliance', ...typed], { encoding: 'utf8' }).split('\n').filter(Boolean);

  it('bash completes commands, subcommands, options and operation ids', () => {
    expect(bash('fr')).toEqual(['frameworks']);
    expect(bash('library', '')).toEqual(['list', 'get', 'delete', 'search', 'ingest', 'refresh']);
    expect(bash('library', 'list', '--ca')).toEqual(['--category']);
    expect(bash('--json', 'map', '--fr')).toEqual(['--framework']);
    expect(bash('call', 'getLib')).toEqual(['getLibraryDocument']);
    expect(bash('help', 'auto')).toEqual(['auto-topup']);
    // A FILE argument: nothing offered, so bash falls back to file names (-o default).
    expect(bash('library', 'ingest', '')).toEqual([]);
  });

  /** What zsh's completion function offers: the completion system's builtins replaced by ones that print what they are given. */
  const zsh = (...typed: string[]) => execFileSync('zsh', ['-c', [
    'compdef() { :; }',
    'compadd() { if [[ $1 == -a ]]; then print -l -- ${(P)2}; else [[ $1 == -- ]] && shift; print -l -- "$@"; fi }',
    '_describe() { local name=${@[-1]}; print -l -- ${${(P)name}%%:*}; }',
    '_files() { print FILES; }',
    'source "$1"; shift',
    'words=(compliance "$@"); CURRENT=$(( $# + 1 )); PREFIX=${words[CURRENT]}; _compliance',
  ].join('\n'), 'zsh', scripts.zsh, ...typed], { encoding: 'utf8' }).split('\n').filter(Boolean);

  it.skipIf(Boolean(skipReason('shell-completion')))('zsh completes commands, subcommands, options and files', () => {
    expect(zsh('')).toContain('frameworks');
    expect(zsh('frameworks', '')).toEqual(['list', 'get']);
    expect(zsh('map', '--')).toContain('--framework');
    expect(zsh('library', 'ingest', '')).toEqual(['FILES']);
  });

  /** What fish completes for a command line (its own `complete -C`). */
  const fish = (line: string) => execFileSync('fish', ['-c', 'source $argv[1]; complete -C $argv[2]', scripts.fish, line], { encoding: 'utf8' }).split('\n').filter(Boolean).map((entry) => entry.split('\t')[0]);

  it.skipIf(Boolean(skipReason('shell-completion')))('fish completes commands, subcommands and options', () => {
    expect(fish('compliance fr')).toEqual(['frameworks']);
    expect(fish('compliance frameworks ')).toEqual(['get', 'list']);
    expect(fish('compliance map --fr')).toEqual(['--framework']);
  });
});

describe('tables piped at 100 columns', () => {
  it('cut no title, path or tag and break no word', async () => {
    const repo = join(scratch, 'tables');
    mkdirSync(join(repo, 'policies/information-security'), { recursive: true });
    const file = 'policies/information-security/acceptable-use-of-company-devices.md';
    const title = 'Acceptable use of company devices, accounts and information for every member of staff';
    writeFileSync(join(repo, file), `# ${title}\n\n${'Staff use company devices for work and protect them with a screen lock and disk encryption. '.repeat(4)}`);
    expect((await run(['library', 'ingest', file, '--tags', 'security,acceptable-use,devices,repo:acme/policies'], repo)).code).toBe(0);
    const listed = await run(['library', 'list'], repo);
    expect(listed.code).toBe(0);
    expect(listed.stdout).not.toContain('…');
    expect(Math.max(...listed.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(100);
    const printed = new Set(listed.stdout.split(/\s+/));
    for (const word of [...title.split(' '), file, 'acceptable-use,', 'repo:acme/policies,']) expect(printed.has(word), word).toBe(true);
  });
});

describe('library ingest paths, as a shell user means them', () => {
  let repo: string;
  beforeAll(() => {
    repo = join(scratch, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    mkdirSync(join(repo, 'policies'));
    mkdirSync(join(repo, 'docs'));
    writeFileSync(join(repo, 'policies/access.md'), readFileSync(join(ROOT, 'examples/policies/access-control.md')));
    writeFileSync(join(scratch, 'outside.md'), readFileSync(join(ROOT, 'examples/policies/vendor-management.md')));
  });

  it('takes an absolute path, and a path outside the current directory, inside the repository; names each by its path from the root', async () => {
    const fromDocs = await run(['library', 'ingest', '../policies/access.md', join(repo, 'policies/access.md'), '--dry-run', '--json'], join(repo, 'docs'));
    expect(fromDocs.code, fromDocs.stderr).toBe(0);
    expect(fromDocs.json.results.map((result: { path: string }) => result.path)).toEqual(['policies/access.md', 'policies/access.md']);
  });

  it('refuses a path outside the repository, saying why, before anything is sent', async () => {
    for (const path of ['../outside.md', join(scratch, 'outside.md')]) {
      const refused = await run(['library', 'ingest', path, '--json'], repo);
      expect(refused.code).toBe(2);
      expect(refused.json.error.message).toBe(`${path}: outside the repository (${repo}), whose files alone the library takes`);
      expect(refused.json.error.hint).toContain('nearest directory with .git');
    }
  });
});
