import { describe, expect, it } from 'vitest';
import { mappingReport } from '../../api/schemas/responses.js';
import { hipaaSecurityControls } from '../../sandbox/catalogue/controls/hipaa-security.js';
import { mapText, mappingReportToDocument, type MappingFramework, type MappingResult } from '../../sandbox/mapping/index.js';
import { combinedPolicySet, loadPolicies, loadUnrelated } from '../fixtures/policies/corpus.js';

const hipaa: MappingFramework = { slug: 'hipaa-security-rule', name: 'HIPAA Security Rule', version: '2013', controls: hipaaSecurityControls };
const policies = loadPolicies();
const full = mapText({ text: combinedPolicySet(policies), title: 'Northwind Health policy set', framework: hipaa });

function byId(report: MappingResult, id: string) {
  return report.controls.find((c) => c.id === id)!;
}

describe('evidence mapping', () => {
  it('scores a policy set written for the HIPAA Security Rule high', () => {
    expect(mappingReport.safeParse(full).success).toBe(true);
    expect(full.coverage).toBeGreaterThanOrEqual(85);
    expect(full.summary.controls).toBe(hipaaSecurityControls.length);
    expect(full.summary.covered + full.summary.partial + full.summary.missing).toBe(full.summary.controls);
    expect(full.coverage).toBe(Math.round(((full.summary.covered + full.summary.partial / 2) / full.summary.controls) * 1000) / 10);
    // What the set deliberately leaves out (it is no clearinghouse, has no group health plan) is missing.
    for (const id of ['164.308(a)(4)(ii)(A)', '164.314(a)(2)(ii)', '164.314(b)(1)']) expect(byId(full, id).status).toBe('missing');
  });

  it.each(['sourdough-recipe.md', 'football-match-report.md'] as const)('scores unrelated text (%s) near zero', (file) => {
    const report = mapText({ text: loadUnrelated(file), framework: hipaa });
    expect(report.coverage).toBeLessThanOrEqual(5);
    expect(report.gaps).toHaveLength(hipaaSecurityControls.length - report.summary.covered);
  });

  it.each(policies.map((p) => p.file))('removing %s changes only the controls it evidenced', (file) => {
    const reduced = mapText({ text: combinedPolicySet(policies.filter((p) => p.file !== file)), framework: hipaa });
    const changed = full.controls.filter((c, i) => c.status !== reduced.controls[i]!.status || c.score !== reduced.controls[i]!.score);
    expect(changed.length).toBeGreaterThan(0);
    full.controls.forEach((control, i) => {
      const evidencedHere = control.evidence.some((e) => e.location.source === `policies/${file}`);
      if (!evidencedHere) {
        expect(reduced.controls[i], control.id).toEqual({ ...control, evidence: reduced.controls[i]!.evidence });
        expect(reduced.controls[i]!.evidence.map((e) => e.quote)).toEqual(control.evidence.map((e) => e.quote));
      }
    });
    const total = (r: MappingResult) => r.controls.reduce((sum, c) => sum + c.score, 0);
    expect(total(reduced)).toBeLessThan(total(full));
  });

  it('removing the section on one topic removes exactly the control it evidenced', () => {
    const hr = policies.find((p) => p.file === 'hr-security-policy.md')!;
    const withoutSanctions = hr.content.replace(/## Sanctions\n[\s\S]*?(?=\n## )/, '');
    expect(withoutSanctions).not.toContain('sanction');
    const infosec = policies.find((p) => p.file === 'information-security-policy.md')!;
    const withoutEnforcement = infosec.content.replace(/## Enforcement\n[\s\S]*$/, '');
    const edited = policies.map((p) => (p === hr ? { ...p, content: withoutSanctions } : p === infosec ? { ...p, content: withoutEnforcement } : p));
    const reduced = mapText({ text: combinedPolicySet(edited), framework: hipaa });
    const changed = full.controls.filter((c, i) => c.status !== reduced.controls[i]!.status);
    expect(changed.map((c) => c.id)).toEqual(['164.308(a)(1)(ii)(C)']);
    expect(byId(reduced, '164.308(a)(1)(ii)(C)').status).not.toBe('covered');
    expect(byId(reduced, '164.308(a)(1)(ii)(C)').score).toBeLessThan(byId(full, '164.308(a)(1)(ii)(C)').score / 2);
  });

  it('quotes real sentences with their source file, line within the file and section', () => {
    const sanctions = byId(full, '164.308(a)(1)(ii)(C)');
    expect(sanctions.status).toBe('covered');
    const quote = sanctions.evidence.find((e) => e.location.source === 'policies/hr-security-policy.md')!;
    expect(quote.location.section).toBe('Sanctions');
    const lines = policies.find((p) => p.file === 'hr-security-policy.md')!.content.split('\n');
    expect(lines[quote.location.line - 1]).toContain(quote.quote);
    for (const control of full.controls) {
      for (const e of control.evidence) {
        expect(e.quote.length).toBeLessThanOrEqual(300);
        const source = policies.find((p) => `policies/${p.file}` === e.location.source)!;
        expect(source.content.split('\n')[e.location.line - 1]).toContain(e.quote.replace(/…$/, ''));
      }
    }
  });

  it('matches inflections through stemming', () => {
    const framework: MappingFramework = {
      slug: 'f', name: 'F', version: '1',
      controls: [{ id: 'C-1', title: 'Encryption', group: 'G', description: 'Encrypt data at rest.', keywords: ['encryption at rest', 'encrypted storage'] }],
    };
    const report = mapText({ text: 'Customer records are encrypted at rest, and backups are held in encrypting storage.', framework });
    expect(byId(report, 'C-1')).toMatchObject({ status: 'covered', score: 1 });
  });

  it('is deterministic', () => {
    expect(mapText({ text: combinedPolicySet(policies), title: 'Northwind Health policy set', framework: hipaa })).toEqual(full);
  });

  it('lists a gap with what is missing and an actionable recommendation for every control not covered', () => {
    const notCovered = full.controls.filter((c) => c.status !== 'covered').map((c) => c.id);
    expect(full.gaps.map((g) => g.controlId)).toEqual(notCovered);
    const groupPlan = full.gaps.find((g) => g.controlId === '164.314(b)(1)')!;
    expect(groupPlan.status).toBe('missing');
    expect(groupPlan.missing).toContain('group health plan');
    expect(groupPlan.recommendation).toContain('Group health plan documents must require the plan sponsor to safeguard ePHI');
    expect(groupPlan.recommendation).toMatch(/^Add a policy statement or procedure that meets 164\.314\(b\)\(1\)/);
  });

  it('renders the report as a document with coverage, a control table, gaps and evidence', () => {
    const document = mappingReportToDocument({ ...full, jobId: 'job-1', generatedAt: '2025-03-01T09:00:00Z' }, { watermark: 'SANDBOX' });
    expect(document.title).toBe('Evidence mapping: HIPAA Security Rule');
    expect(document.watermark).toBe('SANDBOX');
    expect(document.meta).toContainEqual(['Coverage', `${full.coverage}%`]);
    const table = document.sections.find((s) => s.heading === 'Controls')!.table!;
    expect(table).toHaveLength(hipaaSecurityControls.length + 1);
    const gaps = document.sections.find((s) => s.heading === 'Gaps and recommendations')!.bullets!;
    expect(gaps).toHaveLength(full.gaps.length);
    const evidence = document.sections.find((s) => s.heading === 'Evidence')!.bullets!;
    expect(evidence.some((b) => b.includes('policies/hr-security-policy.md, line'))).toBe(true);
  });
});
