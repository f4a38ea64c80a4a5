/**
 * Evidence mapping through the real API client over loopback, in both key modes: only verified
 * frameworks map, the report means something (a written-for-it policy set scores high, unrelated text
 * near zero, evidence quotes are real sentences at the lines and files the report names), gaps say
 * what is missing, the job is charged and refunded like the price list says, and the report downloads
 * as json, md, pdf and docx carrying the same figures.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceClient, ComplianceJobError } from '../../api/node/index.js';
import { mappingReport } from '../../api/schemas/responses.js';
import { extractText } from '../../sandbox/formats/index.js';
import { SANDBOX_WATERMARK } from '../../sandbox/generation/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { combinedPolicySet, loadPolicies, loadUnrelated } from '../fixtures/policies/corpus.js';
import { apiClient, client, envelope, failure, LIVE_KEY, sandbox, SANDBOX_KEY } from './helpers.js';

const MAPPING_PRICE = 250_000;
const policies = loadPolicies();
const policySet = combinedPolicySet(policies);
const sourceText = new Map(policies.map((p) => [`policies/${p.file}`, p.content]));

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

const api = (key: string): ComplianceClient => apiClient(box!, key);

interface Evidence {
  quote: string;
  location: { source?: string; line: number; section?: string };
}
interface Control {
  id: string;
  title: string;
  status: 'covered' | 'partial' | 'missing';
  score: number;
  evidence: Evidence[];
}
interface Report {
  coverage: number;
  summary: { controls: number; covered: number; partial: number; missing: number };
  controls: Control[];
  gaps: Array<{ controlId: string; title: string; status: string; missing: string; recommendation: string }>;
  framework: { slug: string; name: string };
  mode: string;
  jobId: string;
}

const modes = [
  { mode: 'sandbox', key: SANDBOX_KEY },
  { mode: 'live', key: LIVE_KEY },
] as const;

describe.each(modes)('mapping through the client, $mode key', ({ mode, key }) => {
  it('maps a policy set written for the HIPAA Security Rule: high coverage, real quotes at real places, gaps for the rest', async () => {
    box = await sandbox();
    const compliance = api(key);
    const before = (await compliance.getBilling()).balanceTokens;
    const accepted = await compliance.mapDocument({ framework: 'HIPAA Security Rule', content: policySet, title: 'Northwind policy set' });
    expect(accepted).toMatchObject({ status: expect.any(String), jobId: expect.any(String) });
    await compliance.waitForJob(accepted.jobId);
    const download = await compliance.downloadDocument({ jobId: accepted.jobId, format: 'json' });
    if (download.kind !== 'json') throw new Error('expected json');
    const report = download.data as unknown as Report;
    expect(mappingReport.safeParse(report).success).toBe(true);
    expect(report).toMatchObject({ framework: { slug: 'hipaa-security' }, mode, jobId: accepted.jobId });

    expect(report.coverage).toBeGreaterThanOrEqual(85);
    const { summary } = report;
    expect(summary.covered + summary.partial + summary.missing).toBe(report.controls.length);
    expect(report.coverage).toBe(Math.round(((summary.covered + summary.partial / 2) / summary.controls) * 1000) / 10);

    for (const control of report.controls) {
      expect(control.id).toBeTruthy();
      expect(control.title).toBeTruthy();
      // A missing control may quote weak mentions (its score stays under the partial threshold).
      if (control.status === 'missing') expect(control.score).toBeLessThan(0.25);
      else expect(control.evidence.length).toBeGreaterThan(0);
      expect(control.evidence.length).toBeLessThanOrEqual(3);
      for (const evidence of control.evidence) {
        // The quote is a sentence of the file the report names, starting on the line it names.
        const source = sourceText.get(evidence.location.source ?? '');
        expect(source, `${control.id}: ${evidence.location.source}`).toBeDefined();
        const line = source!.split('\n')[evidence.location.line - 1] ?? '';
        const start = evidence.quote.replace(/…$/, '').slice(0, 25);
        expect(line.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, ''), `${control.id} line ${evidence.location.line}`).toContain(start);
      }
    }
    // Gaps: exactly the partial and missing controls, each saying what is missing and what to do.
    const open = report.controls.filter((c) => c.status !== 'covered');
    expect(report.gaps.map((g) => g.controlId)).toEqual(open.map((c) => c.id));
    for (const gap of report.gaps) {
      expect(gap.missing.length).toBeGreaterThan(3);
      expect(gap.recommendation.length).toBeGreaterThan(20);
    }
    // What the set deliberately leaves out (no clearinghouse, no group health plan) is a gap.
    for (const id of ['164.308(a)(4)(ii)(A)', '164.314(b)(1)']) expect(report.controls.find((c) => c.id === id)?.status).toBe('missing');

    // Deterministic: the same request gives the same report.
    const again = await compliance.mapAndDownload({ framework: 'hipaa-security', content: policySet, title: 'Northwind policy set' });
    expect(again.report.coverage).toBe(report.coverage);
    expect((again.report as unknown as Report).controls).toEqual(report.controls);

    const billing = await compliance.getBilling();
    expect(billing.balanceTokens).toBe(before - (mode === 'live' ? 2 * MAPPING_PRICE : 0));
    expect(billing.ledger.filter((e) => e.operation === 'mapDocument').length).toBe(mode === 'live' ? 2 : 0);
  });

  it('scores unrelated text near zero, with every control a gap', async () => {
    box = await sandbox();
    const { report } = await api(key).mapAndDownload({ framework: 'hipaa-security', content: loadUnrelated('sourdough-recipe.md') });
    expect(report.coverage).toBeLessThanOrEqual(5);
    expect(report.gaps.length).toBeGreaterThanOrEqual(report.controls.length - 1);
  });

  it('downloads the report as md, pdf and docx with the same figures', async () => {
    box = await sandbox();
    const compliance = api(key);
    const accepted = await compliance.mapDocument({ framework: 'hipaa-security', content: policySet, title: 'Northwind policy set' });
    await compliance.waitForJob(accepted.jobId);
    const json = await compliance.downloadDocument({ jobId: accepted.jobId });
    if (json.kind !== 'json') throw new Error('expected json');
    const report = json.data as unknown as Report;
    const coverage = `${report.coverage}%`;
    const gap = report.gaps[0]!;

    const md = await compliance.downloadDocument({ jobId: accepted.jobId, format: 'md' });
    if (md.kind !== 'text') throw new Error('expected text');
    expect(md.filename).toMatch(/\.md$/);
    for (const expected of [coverage, gap.controlId, gap.recommendation.slice(0, 30)]) expect(md.text).toContain(expected);
    expect(md.text.includes(SANDBOX_WATERMARK)).toBe(mode === 'sandbox');

    for (const format of ['pdf', 'docx'] as const) {
      const file = await compliance.downloadDocument({ jobId: accepted.jobId, format });
      if (file.kind !== 'binary') throw new Error('expected a file');
      expect(file.filename).toMatch(new RegExp(`\\.${format}$`));
      const text = (await extractText({ data: file.data, filename: file.filename })).text.replace(/\s+/g, ' ');
      expect(text, format).toContain(coverage);
      expect(text, format).toContain(gap.controlId);
      expect(text.includes(SANDBOX_WATERMARK.replace(/\s+/g, ' ')), format).toBe(mode === 'sandbox');
    }
    expect(await failure<ComplianceApiError>(compliance.call('downloadDocument', { jobId: accepted.jobId, format: 'html' as never }))).toMatchObject({ code: 'unsupported_format' });
  });

  it('maps only verified frameworks, naming the closest verified ones otherwise, and charges nothing for a refusal', async () => {
    box = await sandbox();
    const compliance = api(key);
    const call = client(box, key);
    const before = (await compliance.getBilling()).balanceTokens;

    const unverified = await failure<ComplianceApiError>(compliance.mapDocument({ framework: 'hitrust-csf', content: policySet }));
    expect(unverified).toMatchObject({ status: 400, code: 'framework_not_verified' });
    const closest = unverified.details.closest as string[];
    expect(closest.length).toBeGreaterThan(0);
    for (const slug of closest) expect((await compliance.getFramework({ slug })).verified, slug).toBe(true);
    expect(unverified.hint).toContain(closest[0]!);

    const unknown = envelope(await call('POST', '/documents/map', { body: { framework: 'Klingon Data Act', content: policySet } }), 404, 'framework_not_found');
    for (const slug of unknown.closest as string[]) expect((await compliance.getFramework({ slug })).verified, slug).toBe(true);

    envelope(await call('POST', '/documents/map', { body: { content: policySet } }), 400, 'missing_framework');
    expect((await compliance.getBilling()).balanceTokens).toBe(before);
  });

  it('refunds a mapping job that fails after admission', async () => {
    box = await sandbox({ faults: true });
    const compliance = api(key);
    const call = client(box, key);
    const before = (await compliance.getBilling()).balanceTokens;
    const accepted = await call('POST', '/documents/map', { body: { framework: 'hipaa-security', content: policySet }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(accepted.status).toBe(202);
    expect(await failure(compliance.waitForJob(accepted.body.jobId))).toBeInstanceOf(ComplianceJobError);
    envelope(await call('GET', `/documents/${accepted.body.jobId}`), 409, 'generation_failed');
    expect((await compliance.getBilling()).balanceTokens).toBe(before);
  });
});
