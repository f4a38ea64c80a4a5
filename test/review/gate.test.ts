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
import { baselineShapes, REPORT_SCHEMA, REPORT_SCHEMA_VERSION } from '../../review/reportDocument.js';

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

describe('evaluateGate, what it says and counts (mutants that survived the tests above)', () => {
  const mapped = report({ 'GV.OC-01': 'covered', 'PR.AA-01': 'covered', 'PR.AT-01': 'missing', 'RS.MA-01': 'partial' });

  it('a single report keeps its quotes without a source, names no job, and summarises as the service did', () => {
    const bare = report({ C1: 'covered', C2: 'missing' }, {
      controls: [{ id: 'C1', title: 'C1', status: 'covered', evidence: [{ quote: 'we do', location: {} }] }, { id: 'C2', title: 'C2', status: 'missing', evidence: [] }],
    });
    const result = evaluateGate(bare, base);
    expect(result.controls[0]?.evidence[0]?.location).toEqual({});
    expect(result.jobIds).toEqual([]);
    expect(result.summary).toEqual({ controls: 2, covered: 1, partial: 0, missing: 1 });
    expect(evaluateGate([{ source: 'a.md', jobId: 'j1', report: bare }, { source: 'b.md', jobId: 'j2', report: bare }], base).jobIds).toEqual(['j1', 'j2']);
  });

  it('without a summary, counts the controls it lists; without a framework, goes by the configured name', () => {
    const { summary: _summary, framework: _framework, ...rest } = report({ A: 'covered', B: 'covered', C: 'covered', D: 'partial', E: 'missing' });
    const result = evaluateGate(rest as typeof mapped, { ...base, framework: 'NIST CSF' });
    expect(result.summary).toEqual({ controls: 5, covered: 3, partial: 1, missing: 1 });
    expect(result.framework).toEqual({ key: 'nist-csf', name: 'NIST CSF', slug: undefined, version: undefined, configured: 'NIST CSF' });
    expect(result.effectiveCoverage).toBe(70);
  });

  it('keys the framework by the report\'s slug, not the configured spelling', () => {
    expect(evaluateGate(mapped, { ...base, framework: 'NIST Cybersecurity Framework 2.0' }).framework).toMatchObject({ key: 'nist-csf-2', slug: 'nist-csf-2' });
  });

  it('no controls, whichever of the summary and the list says so, is an error naming the framework and the fix', () => {
    const noControls = { code: 'no_controls', message: 'NIST Cybersecurity Framework 2.0: the mapping report lists no controls, so coverage means nothing', hint: expect.stringMatching(/^Check that the framework is a verified one/) };
    expect(() => evaluateGate({ ...mapped, summary: { ...mapped.summary!, controls: 0 } }, base)).toThrowError(expect.objectContaining(noControls));
    expect(() => evaluateGate({ ...mapped, controls: [] }, base)).toThrowError(expect.objectContaining(noControls));
    expect(() => evaluateGate({ ...mapped, controls: undefined } as unknown as typeof mapped, base)).toThrowError(expect.objectContaining(noControls));
    expect(() => evaluateGate({ ...mapped, coverage: Number.NaN }, base)).toThrowError(expect.objectContaining({
      message: 'NIST Cybersecurity Framework 2.0: the mapping report has no coverage figure',
      hint: expect.stringMatching(/^The gate cannot pass or fail without one/),
    }));
  });

  it('a gap of a control the report does not list has no evidence', () => {
    const result = evaluateGate({ ...mapped, gaps: [...mapped.gaps, { controlId: 'XX-9', title: 'X', status: 'missing', missing: 'x', recommendation: 'y' }] }, base);
    expect(result.gaps.find((gap) => gap.controlId === 'XX-9')?.evidence).toEqual([]);
  });

  it('a waived partial control adds back half a control, and a shortfall says the coverage before waivers', () => {
    const result = evaluateGate(mapped, { ...base, threshold: 90, waivers: [waiver('RS.MA-01', '2026-12-31')] });
    expect(result.effectiveCoverage).toBe(75);
    expect(result.reasons).toEqual(['coverage 75% (62.5% before waivers) is below the threshold of 90%']);
  });

  it('matches waivers and gaps whatever the spaces around the control id', () => {
    const expired = evaluateGate(mapped, { ...base, waivers: [waiver(' PR.AT-01 ', '2026-01-01')] });
    expect(expired.expiredWaivers.map((entry) => entry.control)).toEqual([' PR.AT-01 ']);
    expect(expired.unusedWaivers).toEqual([]);
    const spaced = { ...mapped, gaps: mapped.gaps.map((gap) => ({ ...gap, controlId: ` ${gap.controlId} ` })) };
    const active = evaluateGate(spaced, { ...base, waivers: [waiver('PR.AT-01', '2026-12-31')] });
    expect(active.unusedWaivers).toEqual([]);
    expect(active.effectiveCoverage).toBe(87.5);
  });

  it('says every waiver notice and new gap word for word', () => {
    const result = evaluateGate(mapped, { ...base, waivers: [waiver('PR.AT-01', '2026-05-31'), waiver('GV.OC-01', '2027-01-01')] });
    expect(result.warnings).toEqual([
      'EXPIRED WAIVER: PR.AT-01 (ciso@northwind.example) expired on 2026-05-31; the gap counts again. Reason was: moving to new HR platform',
      'waiver for GV.OC-01 is unused: it is no longer a gap; remove it from compliance.yml',
    ]);
    const twoNew = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'new-gaps', baseline: new Set() });
    expect(twoNew.reasons).toEqual(['2 new gaps not in the baseline: PR.AT-01, RS.MA-01']);
    expect(twoNew.warnings).toEqual([]);
  });

  it('warns that new-gaps without a baseline checks the threshold only, and only then', () => {
    const withoutBaseline = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'new-gaps' });
    expect(withoutBaseline).toMatchObject({ passed: true, newGaps: [] });
    expect(withoutBaseline.warnings).toEqual([expect.stringMatching(/^no baseline given: no gap can be told new, so failOn new-gaps checks the threshold only/)]);
    expect(evaluateGate(mapped, { ...base, threshold: 50 }).warnings).toEqual([]);
  });

  it('front matter declarations without evidence fail declared-without-evidence and only warn otherwise', () => {
    const declarations = [
      { file: 'policies/a.md', framework: 'nist-csf-2', controlId: 'PR.AT-01' },
      { file: 'policies/b.md', framework: 'nist-csf-2', controlId: 'PR.AT-01' },
      { file: 'policies/a.md', framework: 'nist-csf-2', controlId: 'GV.OC-01' },
    ];
    const strict = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'declared-without-evidence', declarations });
    expect(strict.passed).toBe(false);
    expect(strict.reasons).toEqual(['1 control declared in front matter without evidence: PR.AT-01 (policies/a.md, policies/b.md)']);
    expect(strict.warnings).toEqual([]);
    const two = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'declared-without-evidence', declarations: [...declarations, { file: 'c.md', framework: 'nist-csf-2', controlId: 'XX-1' }] });
    expect(two.reasons).toEqual(['2 controls declared in front matter without evidence: PR.AT-01 (policies/a.md, policies/b.md), XX-1 (c.md)']);
    const lenient = evaluateGate(mapped, { ...base, threshold: 50, declarations });
    expect(lenient).toMatchObject({ passed: true, warnings: ['declared in front matter without evidence: PR.AT-01 (policies/a.md, policies/b.md)'] });
    const backed = evaluateGate(mapped, { ...base, threshold: 50, failOn: 'declared-without-evidence', declarations: declarations.slice(2) });
    expect(backed).toMatchObject({ passed: true, reasons: [], warnings: [] });
  });
});

describe('baselineGapKeys at its edges', () => {
  it('refuses a report of a newer schema version, and a file of neither kind, each with its fix', () => {
    expect(() => baselineGapKeys({ schema: REPORT_SCHEMA, schemaVersion: REPORT_SCHEMA_VERSION + 1, frameworks: [] })).toThrowError(
      expect.objectContaining({ code: 'invalid_report', message: `the baseline has schema version ${REPORT_SCHEMA_VERSION + 1}; this version reads up to ${REPORT_SCHEMA_VERSION}`, hint: 'Upgrade the compliance package.' }),
    );
    expect(() => baselineGapKeys([{ framework: { slug: 'x' }, gaps: [{}] }])).toThrowError(
      expect.objectContaining({ message: 'the baseline is neither a review report (--json output or report.json) nor a mapping report', hint: 'Pass the JSON report a previous run wrote.' }),
    );
  });
});

// baselineGapKeys reads the shapes built once per process; built fresh here, so a change to them is seen.
describe('baselineShapes', () => {
  it('takes what a baseline needs of each kind of report, and refuses one that lacks it', () => {
    const { report: ours, mappingReport } = baselineShapes();
    expect(ours.safeParse({ schema: REPORT_SCHEMA, schemaVersion: 1, frameworks: [{ gaps: [{ key: 'k' }] }] }).success).toBe(true);
    expect(ours.safeParse({ schema: REPORT_SCHEMA, schemaVersion: 1, frameworks: [{ gaps: [{}] }] }).success).toBe(false);
    expect(mappingReport.safeParse({ framework: {}, gaps: [{ controlId: 'A' }] }).success).toBe(true);
    expect(mappingReport.safeParse({ framework: { slug: 5 }, gaps: [] }).success).toBe(false);
    expect(mappingReport.safeParse({ framework: {}, gaps: [{}] }).success).toBe(false);
  });
});
