/** The built CLI end to end: gate exit codes, config errors, init, call, downloads, --json shapes. */
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { buildCli, cli, liveSandbox, removeRepo, tempRepo } from './helpers.js';

describe('compliance CLI', () => {
  let box: RunningSandbox;
  const repos: string[] = [];
  const repo = (options?: Parameters<typeof tempRepo>[0]) => {
    const root = tempRepo(options);
    repos.push(root);
    return root;
  };
  beforeAll(async () => {
    buildCli();
    box = await liveSandbox(50_000_000);
  });
  afterAll(async () => {
    await box?.close();
    repos.forEach(removeRepo);
  });

  it('review exits 0 when the gate passes and 1 when it fails; --json is a usable baseline', async () => {
    const pass = await cli(['review', '--json'], { cwd: repo({ threshold: 10 }), box });
    expect(pass.code, pass.stderr).toBe(0);
    expect(pass.json).toMatchObject({ schema: 'compliance-review-report', passed: true, status: 'completed', exitCode: 0, mode: 'live' });
    expect(pass.json.frameworks[0].framework.slug).toBe('hipaa-security');
    expect(pass.json.sync.counts.new).toBe(3);

    const failRoot = repo({ threshold: 99 });
    const fail = await cli(['review', '--report-dir', 'out'], { cwd: failRoot, box });
    expect(fail.code).toBe(1);
    expect(fail.stdout).toContain('Review FAILED');
    expect(fail.stdout).toMatch(/below the threshold of 99%/);
    const report = JSON.parse(readFileSync(join(failRoot, 'out/report.json'), 'utf8'));
    expect(report.passed).toBe(false);
    expect(readFileSync(join(failRoot, 'out/report.md'), 'utf8')).toContain('# Compliance review');

    // The same gaps as the baseline: no new gaps, so only coverage decides.
    writeFileSync(join(failRoot, 'base.json'), pass.stdout);
    const newGaps = await cli(['map', '--fail-on', 'new-gaps', '--baseline', 'base.json', '--threshold', '0', '--json'], { cwd: failRoot, box });
    expect(newGaps.code, newGaps.stderr).toBe(0);
    expect(newGaps.json.frameworks[0].newGaps).toEqual([]);
  });

  it('npm start equivalent: review of examples/ against the embedded sandbox passes and lists the training gap', async () => {
    const run = await cli(['review', '-C', 'examples']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('embedded sandbox');
    expect(run.stdout).toContain('HIPAA Security Rule');
    expect(run.stdout).toContain('164.308(a)(5)(i)');
  });

  it('config errors exit 2 naming file:line and key', async () => {
    const root = repo({ config: 'repository: acme/policies\ndocuments:\n  - paths: ["policies/*.md"]\nframeworks:\n  - framework: hipaa-security\n    treshold: 80\n' });
    const run = await cli(['config', 'check'], { cwd: root });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('compliance.yml:6 frameworks[0].treshold: unknown key (did you mean "threshold"?)');
    const glob = repo({ config: 'repository: acme/p\ndocuments:\n  - paths: ["nothing/*.md"]\n' });
    const noMatch = await cli(['sync', '--json'], { cwd: glob, box });
    expect(noMatch.code).toBe(2);
    expect(noMatch.json.error.code).toBe('glob_no_match');
    const badFlag = await cli(['sync', '--max-tokens', 'lots'], { cwd: glob });
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr).toContain('--max-tokens must be a whole number');
    expect((await cli(['sync', '--bogus'])).code).toBe(2);
  });

  it('a framework listed twice is a configuration error before anything is spent, by text and by slug', async () => {
    const config = (second: string) => `repository: acme/policies\ndocuments:\n  - paths: ["policies/*.md"]\nframeworks:\n  - framework: hipaa-security\n    threshold: 50\n  - framework: ${second}\n    threshold: 60\n`;
    const literal = await cli(['config', 'check'], { cwd: repo({ config: config('HIPAA-Security') }) });
    expect(literal.code).toBe(2);
    expect(literal.stderr).toContain('compliance.yml:7 frameworks[1].framework: "HIPAA-Security" is already listed at frameworks[0]');
    const before = (await cli(['billing', '--json'], { box })).json.balanceTokens;
    const byName = await cli(['review', '--json'], { cwd: repo({ config: config('HIPAA Security Rule') }), box });
    expect(byName.code, byName.stderr).toBe(2);
    expect(byName.json.error.message).toContain('frameworks[1] "HIPAA Security Rule" is the same framework as frameworks[0] "hipaa-security" (hipaa-security)');
    expect((await cli(['billing', '--json'], { box })).json.balanceTokens).toBe(before);
  });

  it('init writes a config that config check accepts, and refuses to overwrite without --force', async () => {
    const root = repo();
    const refused = await cli(['init'], { cwd: root });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--force');
    expect((await cli(['init', '--force'], { cwd: root })).code).toBe(0);
    expect(readFileSync(join(root, 'compliance.yml'), 'utf8')).toContain('# compliance.yml');
    // The example's procedures/*.md matches nothing here: init wrote its starter document (policies/ has files).
    expect(existsSync(join(root, 'procedures/access-review.md'))).toBe(true);
    expect(readFileSync(join(root, 'policies/information-security.md'), 'utf8')).not.toContain('Starter document');
    const check = await cli(['config', 'check', '--json'], { cwd: root });
    expect(check.code, check.stderr).toBe(0);
    const ok = await cli(['config', 'check', '--json'], { cwd: repo() });
    expect(ok.code).toBe(0);
    expect(ok.json).toMatchObject({ valid: true, documents: expect.any(Array) });
    expect(ok.json.documents).toHaveLength(3);
  });

  it('call reaches operations, uploads with --file and saves a pdf download to --output', async () => {
    const root = repo();
    const ping = await cli(['call', 'ping'], { box });
    expect(ping.code).toBe(0);
    expect(ping.json.mode).toBe('live');
    const mapped = await cli(['call', 'mapDocument', '--input', '{"framework":"hipaa-security"}', '--file', join(root, 'policies/access-control.md')], { box });
    expect(mapped.code, mapped.stderr).toBe(0);
    expect(mapped.stderr).toMatch(/Spending 250,000 tokens/);
    const jobId = mapped.json.jobId as string;
    const waited = await cli(['jobs', 'wait', jobId, '--json'], { box });
    expect(waited.json.status).toBe('completed');
    const pdf = join(root, 'report.pdf');
    const download = await cli(['call', 'downloadDocument', '--input', JSON.stringify({ jobId, format: 'pdf' }), '--output', pdf], { box, cwd: root });
    expect(download.code, download.stderr).toBe(0);
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const viaDownload = await cli(['download', jobId, '--format', 'docx', '-o', 'r.docx', '--json'], { box, cwd: root });
    expect(viaDownload.json.bytes).toBeGreaterThan(100);
    expect(existsSync(join(root, 'r.docx'))).toBe(true);
    // Every write is confined to the working directory: outside it, or through a link, nothing is written.
    symlinkSync(tmpdir(), join(root, 'linked'));
    for (const target of [join(tmpdir(), `escape-${process.pid}.docx`), '../escape.docx', 'linked/escape.docx']) {
      const refused = await cli(['download', jobId, '--format', 'docx', '-o', target], { box, cwd: root });
      expect(refused.code, target).toBe(2);
      expect(refused.stderr, target).toMatch(/outside|symbolic link|leave the repository/);
    }
    for (const escaped of [join(tmpdir(), `escape-${process.pid}.docx`), join(root, '../escape.docx'), join(tmpdir(), 'escape.docx')]) expect(existsSync(escaped), escaped).toBe(false);
    const unknown = await cli(['call', 'noSuchOperation'], { box });
    expect(unknown.code).toBe(2);
    const badInput = await cli(['call', 'getJob', '--input', '{"jobId":"nope"}', '--json'], { box });
    expect(badInput.code).toBe(2);
    expect(badInput.json.error.message).toContain('jobId');
  });

  it('service errors exit 3: a wrong key, a job that does not exist', async () => {
    const wrongKey = await cli(['billing', '--json'], { box, key: 'csk_live_not_a_real_key_9' });
    expect(wrongKey.code).toBe(3);
    expect(wrongKey.json.error.code).toBe('invalid_api_key');
    const missing = await cli(['jobs', 'get', '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a', '--json'], { box });
    expect(missing.code).toBe(3);
    expect(missing.json.error.code).toBe('job_not_found');
  });

  it('--json shapes of the account commands parse', async () => {
    const [billing, usage, checkout, calendar, topup, frameworks, library] = await Promise.all([
      cli(['billing', '--json'], { box }),
      cli(['usage', '--json'], { box }),
      cli(['checkout', 'pack25', '--json'], { box }),
      cli(['calendar', 'set', '--cadence', 'quarterly', '--json'], { box }),
      cli(['auto-topup', 'set', '--threshold', '500000', '--pack', 'pack50', '--json'], { box }),
      cli(['frameworks', 'get', 'hipaa-security', '--json'], { box }),
      cli(['library', 'list', '--json'], { box }),
    ]);
    expect(billing.json.balanceTokens).toEqual(expect.any(Number));
    expect(usage.code).toBe(0);
    expect(checkout.json.url).toMatch(/^http/);
    expect(calendar.json.cadence).toBe('quarterly');
    expect(topup.json).toMatchObject({ enabled: true, thresholdTokens: 500_000, pack: 'pack50' });
    expect(frameworks.json.slug).toBe('hipaa-security');
    expect(library.json.documents).toEqual(expect.any(Array));
    const badPack = await cli(['checkout', 'pack7'], { box });
    expect(badPack.code).toBe(2);
    const lowThreshold = await cli(['auto-topup', 'set', '--threshold', '5', '--pack', 'pack10'], { box });
    expect(lowThreshold.code).toBe(2);
    expect(lowThreshold.stderr).toContain('--threshold must be a whole number of at least 100000');
  });
});
