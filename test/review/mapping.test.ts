/** review/mapping.ts: what mapping is charged, the blank documents refused before anything is sent, and per-document reports merged. */
import { describe, expect, it } from 'vitest';
import type { ComplianceApi, MappingReportModel } from '../../api/clientTypes.js';
import { combineReports, mappingCalls, runMapping } from '../../review/index.js';
import { report } from './fixtures.js';

type Control = MappingReportModel['controls'][number];
type Gap = MappingReportModel['gaps'][number];
const control = (id: string, status: Control['status'], title: string, quote?: string): Control => ({ id, title, status, evidence: quote ? [{ quote, location: { source: undefined } }] : [] });
const gap = (controlId: string, status: Gap['status'], missing: string): Gap => ({ controlId, title: controlId, status, missing, recommendation: '' });
const sourced = (source: string, controls: Control[], gaps: Gap[]) => ({ source, jobId: `job_${source}`, report: report({}, { controls, gaps, jobId: `job_${source}` }) });

/** A client that fails the test if anything is sent. */
const NOTHING_SENT = new Proxy({}, { get: () => { throw new Error('nothing may be sent'); } }) as ComplianceApi;

describe('mappingCalls', () => {
  it('combined: one upload for any number of files (none for none); per document: one each', () => {
    expect(mappingCalls('combined', 3)).toEqual({ operationId: 'mapDocument', count: 1 });
    expect(mappingCalls('combined', 0)).toEqual({ operationId: 'mapDocument', count: 0 });
    expect(mappingCalls('per-document', 3)).toEqual({ operationId: 'mapDocument', count: 3 });
  });
});

describe('runMapping refuses before sending', () => {
  const text = { path: 'policies/a.md', content: '# Access\n\nAccess is reviewed.\n' };
  const blank = { path: 'policies/blank.md', content: '---\ntitle: x\n---\n\n  ...\n' };

  it('no document at all', async () => {
    await expect(runMapping(NOTHING_SENT, { framework: 'hipaa-security', files: [], mode: 'combined' })).rejects.toMatchObject({ code: 'glob_no_match', message: 'framework hipaa-security: no document to map' });
  });

  it('a blank document of its own, or a policy set of blank documents only, naming them and the fix', async () => {
    await expect(runMapping(NOTHING_SENT, { framework: 'hipaa-security', files: [text, blank], mode: 'per-document' })).rejects.toMatchObject({
      code: 'empty_document',
      message: expect.stringMatching(/^framework hipaa-security: policies\/blank\.md has no letter or digit .*; nothing was sent or charged$/),
      hint: "Give the document its text, or leave it out of the framework's documents in compliance.yml.",
    });
    await expect(runMapping(NOTHING_SENT, { framework: 'hipaa-security', files: [blank, { ...blank, path: 'policies/blank2.md' }], mode: 'combined' })).rejects.toMatchObject({
      message: expect.stringContaining('policies/blank.md, policies/blank2.md has no letter'),
    });
  });
});

describe('combineReports', () => {
  it('no report is an error; one report stands as it is, its evidence citing its file', () => {
    expect(() => combineReports([])).toThrow(expect.objectContaining({ code: 'invalid_report', message: 'no mapping report to evaluate' }));
    const [single] = [sourced('policies/a.md', [control('A', 'covered', 'A', 'quote a')], [])];
    expect(combineReports([single!]).controls[0]?.evidence[0]?.location.source).toBe('policies/a.md');
    const combined = sourced('combined', [control('A', 'covered', 'A', 'quote a')], []);
    expect(combineReports([combined])).toBe(combined.report);
  });

  it('each control takes its best status with the evidence of all; a tie keeps the first; a gap closed elsewhere is no gap', () => {
    const merged = combineReports([
      sourced('policies/a.md', [control('A', 'covered', 'A first', 'a1'), control('B', 'partial', 'B first'), control('C', 'missing', 'C first'), control('D', 'partial', 'D first', 'd1')], [gap('B', 'partial', 'B from a'), gap('C', 'missing', 'C from a'), gap('D', 'partial', 'D from a')]),
      sourced('policies/b.md', [control('A', 'missing', 'A second'), control('B', 'covered', 'B second', 'b2'), control('C', 'partial', 'C second'), control('D', 'partial', 'D second', 'd2')], [gap('A', 'missing', 'A from b'), gap('C', 'partial', 'C from b'), gap('D', 'partial', 'D from b')]),
    ]);
    expect(merged.jobId).toBeUndefined();
    expect(merged.controls.map((entry) => [entry.id, entry.status, entry.title, entry.evidence.map((quote) => `${quote.quote}@${quote.location.source}`)])).toEqual([
      ['A', 'covered', 'A first', ['a1@policies/a.md']],
      ['B', 'covered', 'B second', ['b2@policies/b.md']],
      ['C', 'partial', 'C second', []],
      ['D', 'partial', 'D first', ['d1@policies/a.md', 'd2@policies/b.md']],
    ]);
    expect(merged.summary).toEqual({ controls: 4, covered: 2, partial: 2, missing: 0 });
    expect(merged.coverage).toBe(75);
    expect(merged.gaps.map((entry) => [entry.controlId, entry.status, entry.missing])).toEqual([['C', 'partial', 'C from b'], ['D', 'partial', 'D from a']]);
  });

  it('coverage rounds to a tenth; with no control at all it is not a number', () => {
    const merged = combineReports([
      sourced('policies/a.md', [control('A', 'covered', 'A'), control('B', 'missing', 'B'), control('C', 'partial', 'C')], [gap('B', 'missing', 'B')]),
      sourced('policies/b.md', [], []),
    ]);
    expect(merged.coverage).toBe(50);
    expect(merged.summary).toEqual({ controls: 3, covered: 1, partial: 1, missing: 1 });
    expect(merged.gaps.map((entry) => entry.controlId)).toEqual(['B']);
    const thirds = combineReports([sourced('policies/a.md', [control('A', 'covered', 'A'), control('B', 'missing', 'B'), control('C', 'missing', 'C')], []), sourced('policies/b.md', [], [])]);
    expect(thirds.coverage).toBe(33.3);
    expect(combineReports([sourced('policies/a.md', [], []), sourced('policies/b.md', [], [])]).coverage).toBeNaN();
  });
});
