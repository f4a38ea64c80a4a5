/**
 * Bad-input catalogue, part 3: the built CLI (exit 2 for usage and configuration, 3 for service and
 * auth) and the bundled actions (exit 1 with one ::error:: line). Each row: the message names the
 * field or file and the fix, nothing is half-written (the report directory is absent, the library
 * and ledger are untouched).
 */
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAction, visibleLog } from '../actions/harness.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { cli } from '../cli/helpers.js';
import { buildCli, policyContent, policyRepo, removeDir } from './harness.js';
import { collect, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const KEY = 'csk_live_hardening_badinput_cli_0001';
let box: RunningSandbox;
const repos: string[] = [];

interface Row {
  name: string;
  args?: string[];
  /** Edits the repo before the run. */
  setup?: (repo: string) => void;
  env?: Record<string, string>;
  exit: number;
  says: RegExp;
}

const CONFIG_HEAD = 'repository: acme/policies\ndocuments:\n  - paths: ["policies/*.md"]\n';

export const CLI_ROWS: Row[] = [
  { name: 'unknown flag', args: ['review', '--max-tokenz', '5'], exit: 2, says: /max-tokenz|--help/ },
  { name: 'max-tokens not a number', args: ['review', '--max-tokens', 'lots'], exit: 2, says: /max-tokens/ },
  { name: 'max-tokens negative, as node reads it (an option)', args: ['review', '--max-tokens', '-5'], exit: 2, says: /--max-tokens: its value starts with "-".*--max-tokens=VALUE/ },
  { name: 'sandbox key with a balance that is not a number', args: ['sandbox', '--key', 'csk_live_abcdefgh:live:lots'], exit: 2, says: /--key: BALANCE must be a whole number[\s\S]*KEY\[:live\[:BALANCE/ },
  { name: 'sandbox port out of range', args: ['sandbox', '--port', '99999'], exit: 2, says: /--port must be a whole number from 0 to 65535/ },
  { name: 'sandbox flag misspelt', args: ['sandbox', '--prot', '0'], exit: 2, says: /unknown option --prot\. Did you mean --port\?/ },
  { name: 'concurrency of zero', args: ['sync', '--concurrency', '0'], exit: 2, says: /concurrency/ },
  { name: 'unknown operation id', args: ['call', 'deleteEverything'], exit: 2, says: /deleteEverything|operation/ },
  { name: 'call input that is not JSON', args: ['call', 'getJob', '--input', '{jobId:'], exit: 2, says: /input|JSON/ },
  { name: 'checkout of an unknown pack', args: ['checkout', 'pack7'], exit: 2, says: /pack/ },
  { name: 'auto-top-up threshold too low', args: ['auto-topup', 'set', '--threshold', '10', '--pack', 'pack10'], exit: 2, says: /threshold|100,000|100000/ },
  { name: 'calendar weekly cadence', args: ['calendar', 'set', '--cadence', 'weekly'], exit: 2, says: /cadence|monthly/ },
  { name: 'calendar date that does not exist', args: ['calendar', 'set', '--cadence', 'monthly', '--first-review-at', '2026-02-30T09:00:00Z'], exit: 2, says: /first-review-at|firstReviewAt|date/ },
  { name: 'review --since not a date', args: ['review', '--since', 'yesterday'], exit: 2, says: /since|date/i },
  { name: 'malformed compliance.yml', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), 'documents: [\n  - paths: "x\n'), args: ['review'], exit: 2, says: /compliance\.yml/ },
  { name: 'compliance.yml with a misspelt key', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), `${CONFIG_HEAD}frameworkz: []\n`), args: ['review'], exit: 2, says: /frameworkz/ },
  { name: 'compliance.yml threshold over 100', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), `${CONFIG_HEAD}frameworks:\n  - framework: hipaa-security\n    threshold: 150\n`), args: ['review'], exit: 2, says: /threshold/ },
  { name: 'compliance.yml cadence weekly', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), `${CONFIG_HEAD}review:\n  cadence: weekly\n`), args: ['review'], exit: 2, says: /cadence/ },
  { name: 'document path escaping the repo with ..', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), 'repository: acme/policies\ndocuments:\n  - paths: ["../outside/*.md"]\n'), args: ['review'], exit: 2, says: /\.\.|outside|repo/ },
  {
    // A glob leaves such links out (documented); naming one is refused.
    name: 'symlink pointing outside the repo, named in compliance.yml',
    setup: (repo) => {
      symlinkSync('/etc/hostname', join(repo, 'policies', 'zz-link.md'));
      writeFileSync(join(repo, 'compliance.yml'), 'repository: acme/policies\ndocuments:\n  - paths: ["policies/policy-000.md", "policies/zz-link.md"]\n');
    },
    args: ['review'], exit: 2, says: /zz-link\.md/,
  },
  { name: 'non-UTF-8 policy file', setup: (repo) => writeFileSync(join(repo, 'policies', 'latin1.md'), Buffer.from([0x23, 0x20, 0x50, 0x6f, 0x6c, 0x69, 0x63, 0xe9, 0x0a])), args: ['review'], exit: 2, says: /latin1\.md.*UTF-8|UTF-8/ },
  { name: 'glob matching nothing', setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), 'repository: acme/policies\ndocuments:\n  - paths: ["nothing/*.md"]\n'), args: ['review'], exit: 2, says: /nothing\/\*\.md/ },
  { name: 'plain http to a remote host', env: { COMPLIANCE_BASE_URL: 'http://api.example.com/api/public/v1', COMPLIANCE_API_KEY: KEY }, args: ['review'], exit: 2, says: /https|baseUrl|BASE_URL/ },
  { name: 'base URL that is not a URL', env: { COMPLIANCE_BASE_URL: 'not a url', COMPLIANCE_API_KEY: KEY }, args: ['review'], exit: 2, says: /URL/ },
  { name: 'unknown key', env: { COMPLIANCE_API_KEY: 'csk_live_not_issued_0000' }, args: ['review'], exit: 3, says: /key/i },
  { name: 'budget below the plan', setup: (repo) => writeFileSync(join(repo, 'policies', 'extra.md'), policyContent(999)), args: ['review', '--max-tokens', '1'], exit: 3, says: /Refused before spending.*\n.*cap of 1 tokens/ },
];

beforeAll(async () => {
  buildCli();
  registerSecret(KEY, 'csk_live_not_issued_0000');
  box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [`${KEY}:live:50000000`] });
});

afterAll(async () => {
  await box?.close();
  for (const repo of repos) removeDir(repo);
});

async function ledgerAndLibrary(): Promise<string> {
  const headers = { authorization: `Bearer ${KEY}` };
  const billing = (await (await fetch(`${box.baseUrl}/billing`, { headers })).json()) as { balanceTokens: number; ledger: unknown[] };
  const library = (await (await fetch(`${box.baseUrl}/library`, { headers })).json()) as { documents: unknown[] };
  return JSON.stringify([billing.balanceTokens, billing.ledger, library.documents]);
}

describe('bad input: the built CLI', () => {
  it.each(CLI_ROWS)('$name → exit $exit, says what to fix, nothing written or spent', { timeout: 60_000 }, async (row) => {
    const repo = policyRepo(3);
    repos.push(repo);
    row.setup?.(repo);
    const before = await ledgerAndLibrary();
    const env = { COMPLIANCE_BASE_URL: box.baseUrl, COMPLIANCE_API_KEY: KEY, ...row.env };
    const args = row.args ?? [];
    const run = await cli(args[0] === 'review' ? [...args, '--report-dir', 'out'] : args, { cwd: repo, env });
    collect(`cli ${row.name} stdout`, run.stdout);
    collect(`cli ${row.name} stderr`, run.stderr);
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(row.exit);
    expect(run.stderr + run.stdout).toMatch(row.says);
    expect(run.stderr + run.stdout).not.toMatch(/\n\s+at .+:\d+:\d+/);
    // "This is a bug" is for bugs: a wrong flag or file never says it.
    expect(run.stderr + run.stdout).not.toMatch(/this is a bug/i);
    expect(existsSync(join(repo, 'out'))).toBe(false);
    expect(await ledgerAndLibrary()).toBe(before);
  });
});

describe('bad input: the bundled actions', () => {
  const rows: Array<{ name: string; action: string; inputs: Record<string, string>; setup?: (repo: string) => void; says: RegExp }> = [
    { name: 'missing key', action: 'sync', inputs: { 'api-key': '' }, says: /api-key|COMPLIANCE_API_KEY/ },
    { name: 'plain http to a remote host', action: 'sync', inputs: { 'base-url': 'http://api.example.com/api/public/v1' }, says: /https|base-url|baseUrl/ },
    { name: 'max-tokens not a number', action: 'sync', inputs: { 'max-tokens': 'many' }, says: /max-tokens/ },
    { name: 'unknown operation', action: 'call', inputs: { operation: 'dropTables' }, says: /dropTables|operation/ },
    { name: 'call input not a JSON object', action: 'call', inputs: { operation: 'getJob', input: '[1,2' }, says: /input/ },
    { name: 'map threshold out of range', action: 'map', inputs: { framework: 'hipaa-security', threshold: '-5' }, says: /threshold/ },
    { name: 'malformed compliance.yml', action: 'sync', inputs: {}, setup: (repo) => writeFileSync(join(repo, 'compliance.yml'), 'documents:\n  - paths: [unclosed\n'), says: /compliance\.yml/ },
    { name: 'sync paths escaping the workspace', action: 'sync', inputs: { paths: '../../etc/*' }, says: /\.\.|outside|workspace|repo/ },
  ];
  it.each(rows)('$name → one clear ::error:: line, nothing spent', { timeout: 60_000 }, async (row) => {
    const repo = policyRepo(3);
    repos.push(repo);
    mkdirSync(join(repo, 'compliance-report'), { recursive: true });
    row.setup?.(repo);
    const before = await ledgerAndLibrary();
    const run = await runAction(row.action, { workspace: repo, inputs: { 'api-key': KEY, 'base-url': box.baseUrl, ...row.inputs } });
    collect(`action ${row.name}`, visibleLog(run.stdout) + run.stderr + run.summary);
    expect(run.code).toBe(1);
    const errors = run.annotations.filter((annotation) => annotation.kind === 'error');
    expect(errors.length, run.stdout).toBeGreaterThanOrEqual(1);
    expect(errors.map((error) => error.message).join('\n')).toMatch(row.says);
    expect(visibleLog(run.stdout) + run.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(await ledgerAndLibrary()).toBe(before);
  });
});
