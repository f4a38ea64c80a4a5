import { describe, expect, it } from 'vitest';
import {
  baselineGapKeys,
  buildReviewReport,
  combineReports,
  evaluateGate,
  renderReportMarkdown,
  type GateOptions,
  type Waiver,
} from '../../review/index.js';
import { report } from './fixtures.js';

const base: GateOptions = { framework: 'nist-csf-2', threshold: 70, waivers: [], today: '2026-06-01', failOn: 'coverage' };
const waiver = (control: string, expires: string): Waiver => ({ framework: 'NIST-CSF-2', control, reason: 'moving to new HR platform', owner: 'ciso@northwind.example', expires });

describe('evaluateGate', () => {
  const mapped = report({ 'GV.OC-01': 'covered', 'PR.AA-01': 'covered', 'PR.AT-01': 'missing', 'RS.MA-01': 'partial' });

  it('fails below the threshold and passes at it', () => {
    const result = evaluateGate(mapped, base);
    expect(result.coverage).toBe(62.5);
    expect(result.passed).toBe(false);
    expect(result.reasons).toEqual(['coverage 62.5% is below the threshold of 70%']);
    expect(evaluateGate(mapped, { ...base, threshold: 62.5 }).passed).toBe(true);
  });

  it('counts an actively waived gap as covered, through its expiry day', () => {
    const result = evaluateGate(mapped, { ...base, waivers: [waiver('pr.at-01', '2026-06-01')] });
    expect(result.effectiveCoverage).toBe(87.5);
    expect(result.passed).toBe(true);
    expect(result.gaps.find((gap) => gap.controlId === 'PR.AT-01')).toMatchObject({ waived: true, waiver: { daysLeft: 1 } });
    expect(result.expiredWaivers).toEqual([]);
  });

  it('reports an expired waiver loudly and counts its gap again', () => {
    const result = evaluateGate(mapped, { ...base, waivers: [waiver('PR.AT-01', '2026-05-31')] });
    expect(result.passed).toBe(false);
    expect(result.effectiveCoverage).toBe(62.5);
    expect(result.expiredWaivers.map((w) => w.control)).toEqual(['PR.AT-01']);
    expect(result.warnings[0]).toMatch(/^EXPIRED WAIVER: PR\.AT-01 .* expired on 2026-05-31/);
  });

  it('lists waivers for controls that are no longer gaps as unused', () => {
    const result = evaluateGate(mapped, { ...base, waivers: [waiver('GV.OC-01', '2027-01-01')] });
    expect(result.unusedWaivers.map((w) => w.control)).toEqual(['GV.OC-01']);
    expect(result.effectiveCoverage).toBe(62.5);
  });

  it('fails on new gaps only, with a baseline from a previous report', () => {
    const previous = buildReviewReport([evaluateGate(mapped, { ...base, threshold: 50 })], { generatedAt: '2026-05-01T00:00:00Z' });
    const baseline = baselineGapKeys(JSON.parse(JSON.stringify(previous)));
    expect(baseline).toEqual(new Set(['nist-csf-2/PR.AT-01', 'nist-csf-2/RS.MA-01']));

    const same = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'new-gaps', baseline });
    expect(same).toMatchObject({ passed: true, newGaps: [] });

    const worse = report({ 'GV.OC-01': 'covered', 'PR.AA-01': 'partial', 'PR.AT-01': 'missing', 'RS.MA-01': 'partial' });
    const result = evaluateGate(worse, { ...base, threshold: 50, failOn: 'new-gaps', baseline });
    expect(result.passed).toBe(false);
    expect(result.newGaps.map((gap) => gap.controlId)).toEqual(['PR.AA-01']);
    expect(result.reasons).toEqual(['1 new gap not in the baseline: PR.AA-01']);
    // Coverage below the threshold still fails in new-gaps mode.
    expect(evaluateGate(mapped, { ...base, failOn: 'new-gaps', baseline }).passed).toBe(false);
  });

  it('accepts a raw mapping report as the baseline', () => {
    expect(baselineGapKeys(mapped)).toEqual(new Set(['nist-csf-2/PR.AT-01', 'nist-csf-2/RS.MA-01']));
    expect(() => baselineGapKeys({ hello: 1 })).toThrowError(expect.objectContaining({ code: 'invalid_report' }));
  });

  it('is an error, never a pass, for zero controls or no coverage figure', () => {
    expect(() => evaluateGate(report({}, { coverage: 100 }), { ...base, threshold: 0 })).toThrowError(expect.objectContaining({ code: 'no_controls' }));
    const noCoverage = { ...mapped, coverage: undefined } as unknown as typeof mapped;
    expect(() => evaluateGate(noCoverage, { ...base, threshold: 0 })).toThrowError(expect.objectContaining({ code: 'no_coverage' }));
    expect(() => evaluateGate({ ...mapped, coverage: Number.NaN }, { ...base, threshold: 0 })).toThrowError(expect.objectContaining({ code: 'no_coverage' }));
  });
});

describe('per-document reports', () => {
  it('merge to the best status per control, with evidence citing each file', () => {
    const merged = combineReports([
      { source: 'policies/a.md', jobId: 'j1', report: report({ C1: 'covered', C2: 'missing' }, { controls: [
        { id: 'C1', title: 'C1', status: 'covered', evidence: [{ quote: 'a says', location: {} }] },
        { id: 'C2', title: 'C2', status: 'missing', evidence: [] },
      ] }) },
      { source: 'policies/b.md', jobId: 'j2', report: report({ C1: 'missing', C2: 'partial' }) },
    ]);
    expect(merged.controls.map((c) => [c.id, c.status])).toEqual([['C1', 'covered'], ['C2', 'partial']]);
    expect(merged.coverage).toBe(75);
    expect(merged.gaps.map((gap) => [gap.controlId, gap.status])).toEqual([['C2', 'partial']]);
    expect(merged.controls[0]?.evidence[0]?.location.source).toBe('policies/a.md');
  });
});

describe('renderReportMarkdown', () => {
  it('shows the coverage table, gaps with evidence and waivers, without live mentions or HTML', () => {
    const mapped = report({ C1: 'covered', C2: 'partial' }, {
      gaps: [{ controlId: 'C2', title: 'Training', status: 'partial', missing: 'Ask @octocat <img src=x onerror=alert(1)>', recommendation: 'Train staff' }],
    });
    const gate = evaluateGate(mapped, { ...base, waivers: [waiver('C2', '2026-12-31')] });
    const markdown = renderReportMarkdown(buildReviewReport([gate], { generatedAt: '2026-06-01T00:00:00Z' }));
    // Gaps counts what the `gaps` output counts (not waived); the waived one beside it.
    expect(markdown).toContain('| NIST Cybersecurity Framework 2.0 | 75% | 100% | 70% | 0 (+1 waived) | — | ✅ passed |');
    expect(markdown).toContain('### Gaps (0, +1 waived)');
    expect(markdown).toContain('#### C2 Training (waived until 2026-12-31)');
    expect(markdown).toContain('> Evidence for C2 (policies/security.md, line 3)');
    expect(markdown).toContain('| C2 | ciso@northwind.example | 2026-12-31 | active, 214 days left |');
    expect(markdown).not.toMatch(/(^|[^\w])@octocat/);
    expect(markdown).not.toContain('<img');
  });
});
