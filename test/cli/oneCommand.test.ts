/**
 * One command per intent, through the built CLI against a live-mode sandbox on loopback: a document
 * generated and downloaded, files ingested and refreshed, init then review as-is, config check
 * against the service's capabilities, and a dry run that reports a shortfall. Every charge is
 * checked against the balance.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { PRICE, ROOT, balance, buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

describe('one command per intent (live mode)', () => {
  let box: RunningSandbox;
  let prices: Record<string, number>;
  const dirs: string[] = [];
  const dir = () => {
    const path = mkdtempSync(join(tmpdir(), 'compliance-one-'));
    dirs.push(path);
    return path;
  };
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(20_000_000);
    prices = (await cli(['billing', '--json'], { box })).json.prices;
  });
  afterAll(async () => {
    await box?.close();
    for (const path of dirs) removeRepo(path);
  });

  it('generate --framework submits, waits and downloads one document, charged once', async () => {
    const cwd = dir();
    const before = await balance(box);
    const run = await cli(['generate', '--framework', 'hipaa-security', '--type', 'information_security_policy', '--format', 'pdf', '-o', 'policy.pdf', '--json'], { cwd, box });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json).toMatchObject({ framework: 'hipaa-security', type: 'information_security_policy', format: 'pdf', contentType: 'application/pdf' });
    expect(readFileSync(join(cwd, 'policy.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(before - (await balance(box))).toBe(prices.generateDocument);
    expect(run.stderr).toContain(`Spending ${prices.generateDocument!.toLocaleString('en-US')} tokens`);
  });

  it('generate --no-wait prints the job; a wrong --type is refused before anything is charged', async () => {
    const queued = await cli(['generate', '--framework', 'gdpr', '--no-wait', '--json'], { box });
    expect(queued.code, queued.stderr).toBe(0);
    expect(queued.json.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const before = await balance(box);
    const wrong = await cli(['generate', '--framework', 'gdpr', '--type', 'policy'], { box });
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('unknown document type "policy"');
    expect(wrong.stderr).toContain('information_security_policy');
    const clash = await cli(['generate', '--framework', 'gdpr', '--all'], { box });
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('--all is for the documents compliance.yml lists');
    expect(await balance(box)).toBe(before);
  });

  it('library ingest FILE... prices each file, refuses over --max-tokens, then ingests with category and tags', async () => {
    const cwd = tempRepo({ count: 2 });
    dirs.push(cwd);
    const files = ['policies/access-control.md', 'policies/incident-response.md'];
    const before = await balance(box);
    const dry = await cli(['library', 'ingest', ...files, '--dry-run'], { cwd, box });
    expect(dry.code, dry.stderr).toBe(0);
    for (const file of files) expect(dry.stdout).toMatch(new RegExp(`${file}\\s+would ingest\\s+—\\s+${PRICE.toLocaleString('en-US')}`));
    const capped = await cli(['library', 'ingest', ...files, '--max-tokens', String(PRICE)], { cwd, box });
    expect(capped.code).toBe(3);
    expect(await balance(box)).toBe(before);
    const run = await cli(['library', 'ingest', ...files, '--category', 'Policies', '--tags', 'security,hr', '--json'], { cwd, box });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.results.map((r: { outcome: string }) => r.outcome)).toEqual(['ingested', 'ingested']);
    expect(before - (await balance(box))).toBe(2 * PRICE);
    const id = run.json.results[0].documentId as string;
    const stored = (await cli(['library', 'get', id, '--json'], { box })).json;
    expect(stored).toMatchObject({ filename: files[0], category: 'Policies', tags: expect.arrayContaining(['security', 'hr']) });

    // refresh: the same text is free; a change is charged once.
    const same = await cli(['library', 'refresh', id, files[0]!, '--json'], { cwd, box });
    expect(same.json.results[0].outcome).toBe('unchanged');
    appendFileSync(join(cwd, files[0]!), '\nAccess is also reviewed when a person changes role.\n');
    const mid = await balance(box);
    const refreshed = await cli(['library', 'refresh', id, files[0]!, '--json'], { cwd, box });
    expect(refreshed.code, refreshed.stderr).toBe(0);
    expect(refreshed.json.results[0].outcome).toBe('refreshed');
    expect(mid - (await balance(box))).toBe(prices.refreshLibraryDocument);
  });

  it('init writes a configuration that review runs as-is on the embedded sandbox, and config check accepts', async () => {
    const cwd = dir();
    const init = await cli(['init', '--json'], { cwd });
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.starterDocuments).toHaveLength(2);
    const check = await cli(['config', 'check'], { cwd });
    expect(check.code, check.stderr).toBe(0);
    const review = await cli(['review', '--json'], { cwd });
    // The starter documents cover little of NIST CSF: the gate's verdict, not an error.
    expect(review.stderr).not.toContain('error:');
    expect(review.json).toMatchObject({ status: 'completed', frameworkErrors: [] });
    expect(review.json.frameworks[0].framework.slug).toBe('nist-csf-2');
    expect(review.code).toBe(review.json.passed ? 0 : 1);
  });

  it('config check catches a document type or framework the service does not have, before anything is spent', async () => {
    const cwd = tempRepo({ count: 1, config: ['documents:', '  - paths: ["policies/*.md"]', 'frameworks:', '  - framework: nist-csf-3', '    threshold: 50', 'generate:', '  - type: policy', '    framework: nist-csf-2', '    output: generated/p', ''].join('\n') });
    dirs.push(cwd);
    const before = await balance(box);
    const check = await cli(['config', 'check'], { cwd, box });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('frameworks[0].framework: "nist-csf-3" is not a verified framework. Did you mean nist-csf-2?');
    expect(check.stderr).toContain('generate[0].type: unknown document type "policy"');
    expect((await cli(['config', 'check', '--offline'], { cwd })).code).toBe(0);
    const generate = await cli(['generate', '--all'], { cwd, box });
    expect(generate.code).toBe(2);
    expect(generate.stderr).toContain('unknown document type "policy"');
    expect(await balance(box)).toBe(before);
  });

  it('review --dry-run on a balance shortfall exits 0 with every charge itemised and the shortfall', async () => {
    const poor = await liveSandbox(500_000);
    try {
      const cwd = tempRepo({ count: 3 });
      dirs.push(cwd);
      const run = await cli(['review', '--dry-run'], { cwd, box: poor });
      expect(run.code, run.stderr).toBe(0);
      for (const name of ['access-control.md', 'incident-response.md', 'information-security.md']) {
        expect(run.stdout).toMatch(new RegExp(`ingest\\s+policies/${name}\\s+${PRICE.toLocaleString('en-US')}`));
      }
      expect(run.stdout).toMatch(new RegExp(`map\\s+hipaa-security\\s+${prices.mapDocument!.toLocaleString('en-US')}`));
      expect(run.stdout).toContain(`Total: ${(3 * PRICE + prices.mapDocument!).toLocaleString('en-US')} tokens; balance 500,000 tokens.`);
      expect(run.stdout).toContain('A real run would be refused before spending anything');
      expect(run.stdout).toMatch(/short/);
      expect((await cli(['review'], { cwd, box: poor })).code).toBe(3);
      expect(await balance(poor)).toBe(500_000);
    } finally {
      await poor.close();
    }
  });

  it('messages: did you mean, one prefix per error, a key pasted with Bearer', async () => {
    const typo = await cli(['pign']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe('error: unknown command "pign". Did you mean compliance ping?\n  Run `compliance --help` for the list of commands.\n');
    expect((await cli(['reveiw'])).stderr).toContain('Did you mean compliance review?');
    const option = await cli(['sync', '--dry-rn']);
    expect(option.stderr).toContain('error: unknown option --dry-rn. Did you mean --dry-run?');
    const down = await cli(['ping'], { env: { COMPLIANCE_BASE_URL: 'http://127.0.0.1:9/api/public/v1', COMPLIANCE_API_KEY: 'csk_live_unreachable_0001' } });
    expect(down.code).toBe(3);
    expect(down.stderr).toMatch(/^error: ping: could not connect/m);
    expect(down.stderr).not.toMatch(/ping: ping:/);
    const bearer = await cli(['ping'], { box, key: `Bearer ${'csk_live_clie2e_secret_0001'}` });
    expect(bearer.code).toBe(2);
    expect(bearer.stderr).toContain('COMPLIANCE_API_KEY starts with "Bearer": give the key alone');
    expect(bearer.stderr).not.toContain('csk_live_clie2e_secret_0001');
  });

  it('help of a command without a gate does not list exit code 1', async () => {
    expect((await cli(['library', '--help'])).stdout).not.toContain('gate failed');
    expect((await cli(['review', '--help'])).stdout).toContain('1  gate failed');
    expect(existsSync(join(ROOT, 'dist/cli/compliance.cjs'))).toBe(true);
  });
});
