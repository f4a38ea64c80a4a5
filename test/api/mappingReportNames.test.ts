/**
 * The mapping report read tolerantly (api/normalize/mappingReport.ts): every name the adapter
 * accepts for coverage, controls, evidence and gaps is read on its own, every status word maps to
 * the one it means, and what it cannot read fails naming what it looked for. The review gate
 * decides on this coverage and these gaps.
 */
import { describe, expect, it } from 'vitest';
import { normalizeMappingReport } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const CONTEXT = { operationId: 'downloadDocument', input: {} };
const report = (fields: Record<string, unknown>) => normalizeMappingReport({ coverage: 50, ...fields }, CONTEXT);
const control = (fields: Record<string, unknown>) => report({ controls: [{ id: 'C1', status: 'met', ...fields }] }).controls[0]!;
const evidence = (value: unknown) => control({ evidence: value }).evidence;
const gap = (fields: Record<string, unknown>) => report({ gaps: [{ controlId: 'C1', ...fields }] }).gaps[0]!;

describe('coverage', () => {
  it.each(['coverage', 'coveragePercent', 'coveragePercentage', 'coverage_pct', 'coverage_percent', 'coveragePct', 'coverageRatio', 'coverage_ratio', 'coverageScore', 'summary.coverage', 'summary.coveragePercent', 'result.coverage'])(
    'reads the coverage from %s',
    (name) => {
      expect(normalizeMappingReport(at(name, 40), CONTEXT).coverage).toBe(40);
    },
  );

  it.each(['percent', 'percentage', 'pct', 'value', 'ratio', 'score'])('reads a coverage object\'s %s', (name) => {
    expect(report({ coverage: { [name]: 40 } }).coverage).toBe(40);
  });

  it('reads a value up to 1 as a ratio unless its name or a % sign says percent', () => {
    expect(report({ coverage: 1 }).coverage).toBe(100);
    expect(report({ coverage: 0.125 }).coverage).toBe(12.5);
    expect(report({ coverage: 1.5 }).coverage).toBe(1.5);
    expect(report({ coverage: undefined, coveragePercent: 1 }).coverage).toBe(1);
    expect(report({ coverage: undefined, coverage_pct: 0.5 }).coverage).toBe(0.5);
    expect(report({ coverage: { value: 1 } }).coverage).toBe(100);
    expect(report({ coverage: { pct: 1 } }).coverage).toBe(1);
    expect(report({ coverage: ' 1% ' }).coverage).toBe(1);
    expect(report({ coverage: '0.5' }).coverage).toBe(50);
  });

  it('holds the coverage to 0..100, rounded to two decimals', () => {
    expect(report({ coverage: 250 }).coverage).toBe(100);
    expect(report({ coverage: -3 }).coverage).toBe(0);
    expect(report({ coverage: 33.3333 }).coverage).toBe(33.33);
    expect(report({ coverage: 66.666 }).coverage).toBe(66.67);
  });

  it('fails without a coverage it can read, naming where it looked', () => {
    for (const coverage of [undefined, 'n/a', { label: 'high' }, { percent: 'n/a' }]) {
      expect(() => report({ coverage })).toThrowError(/^downloadDocument: unexpected response: no coverage percentage \(looked for coverage, coveragePercent, coveragePercentage, coverage_pct, coverage_percent, coveragePct, coverageRatio, coverage_ratio, coverageScore, summary.coverage, summary.coveragePercent, result.coverage\)/);
    }
    expect(() => normalizeMappingReport('x', CONTEXT)).toThrowError('no mapping report (looked for an object); got string');
  });

  it('reads a report wrapped in report, leaving no report field', () => {
    const read = normalizeMappingReport({ report: { coverage: 40 }, requestId: 'r1' }, CONTEXT);
    expect(read).toMatchObject({ coverage: 40, requestId: 'r1' });
    expect('report' in read).toBe(false);
  });
});

describe('controls', () => {
  it.each(['controls', 'controlResults', 'control_results', 'results', 'mappings', 'requirements'])('reads the controls from %s', (name) => {
    expect(report({ [name]: [{ id: 'C1', status: 'met' }] }).controls.map((item) => item.id)).toEqual(['C1']);
  });

  it('has no controls when the report lists none', () => {
    expect(report({}).controls).toEqual([]);
  });

  it.each(['id', 'controlId', 'control_id', 'ref', 'code', 'control.id'])('reads a control\'s id from %s', (name) => {
    expect(report({ controls: [{ status: 'met', ...at(name, 'C9') }] }).controls[0]!.id).toBe('C9');
  });

  it('fails on a control that is no object, without an id or a status, naming which', () => {
    expect(() => report({ controls: [{ id: 'C1', status: 'met' }, 'C2'] })).toThrowError('no control 2 as an object (looked for an object); got string');
    expect(() => report({ controls: [{ id: 'C1', status: 'met' }, { status: 'met' }] })).toThrowError('no id of control 2 (looked for id, controlId, control_id, ref); keys seen: status');
    expect(() => report({ controls: [{ id: 'C1', status: 'maybe' }] })).toThrowError('no status of control C1 (looked for status, coverage, result, covered); keys seen: id, status');
  });

  it.each([
    ['covered', ['covered', 'met', 'satisfied', 'full', 'fully_covered', 'compliant', 'pass', 'passed', 'yes']],
    ['partial', ['partial', 'partially_covered', 'partially_met', 'partly', 'incomplete']],
    ['missing', ['missing', 'gap', 'not_covered', 'unmet', 'none', 'absent', 'fail', 'failed', 'no', 'uncovered']],
  ])('reads %s from each of its words', (meant, words) => {
    for (const word of words) expect(control({ status: word }).status).toBe(meant);
  });

  it.each(['status', 'coverage', 'result', 'state', 'verdict'])('reads a control\'s status from %s', (name) => {
    expect(report({ controls: [{ id: 'C1', [name]: 'Partially Met' }] }).controls[0]!.status).toBe('partial');
  });

  it('reads a covered flag when no status word is known', () => {
    expect(report({ controls: [{ id: 'C1', covered: true }, { id: 'C2', covered: false }, { id: 'C3', status: 'odd', covered: true }] }).controls.map((item) => item.status)).toEqual(['covered', 'missing', 'covered']);
    expect(() => report({ controls: [{ id: 'C1', covered: 'yes' }] })).toThrowError('no status of control C1');
  });

  it.each(['title', 'name', 'control.title', 'description'])('reads a control\'s title from %s, else shows its id', (name) => {
    expect(control(at(name, 'Policies')).title).toBe('Policies');
    expect(control({}).title).toBe('C1');
  });

  it.each(['score', 'confidence'])('reads a control\'s score from %s', (name) => {
    expect(control({ [name]: 0.9 }).score).toBe(0.9);
  });
});

describe('evidence', () => {
  it.each(['evidence', 'quotes', 'matches'])('reads a control\'s evidence from %s, one item or a list', (name) => {
    expect(control({ [name]: 'We review yearly' }).evidence).toEqual([{ quote: 'We review yearly', location: {} }]);
    expect(control({ [name]: ['a', 'b'] }).evidence.map((item) => item.quote)).toEqual(['a', 'b']);
  });

  it('has none when the control gives none, and skips what it cannot quote', () => {
    expect(evidence(undefined)).toEqual([]);
    expect(evidence(null)).toEqual([]);
    expect(evidence([3, { file: 'a.md' }, { quote: 'kept' }])).toEqual([{ quote: 'kept', location: {} }]);
  });

  it.each(['quote', 'text', 'excerpt', 'snippet', 'content', 'evidence'])('reads a quote from %s', (name) => {
    expect(evidence([{ [name]: 'We review yearly' }])[0]!.quote).toBe('We review yearly');
  });

  it.each([
    ['source', ['source', 'file', 'path', 'filename', 'document']],
    ['line', ['line', 'lineNumber', 'line_number']],
    ['section', ['section', 'heading', 'page']],
  ] as const)('reads where a quote is, its %s, from each of its names, beside it or in location', (field, names) => {
    const value = field === 'line' ? 4 : 'x';
    for (const name of names) {
      expect(evidence([{ quote: 'q', [name]: value }])[0]!.location[field]).toBe(value);
      expect(evidence([{ quote: 'q', location: { [name]: value, extra: 1 } }])[0]!.location).toMatchObject({ [field]: value, extra: 1 });
    }
  });
});

describe('gaps', () => {
  it.each(['gaps', 'gapList', 'gap_list', 'missingControls', 'findings'])('reads the gaps from %s', (name) => {
    expect(report({ [name]: [{ controlId: 'C1' }] }).gaps.map((item) => item.controlId)).toEqual(['C1']);
  });

  it('derives the gaps from the controls not covered when the report lists none', () => {
    expect(report({ controls: [{ id: 'C1', status: 'met' }, { id: 'C2', name: 'Keys', status: 'partial' }, { id: 'C3', status: 'missing' }] }).gaps).toEqual([
      { controlId: 'C2', title: 'Keys', status: 'partial', missing: '', recommendation: '' },
      { controlId: 'C3', title: 'C3', status: 'missing', missing: '', recommendation: '' },
    ]);
  });

  it.each(['controlId', 'control_id', 'id', 'ref', 'control.id'])('reads a gap\'s control id from %s', (name) => {
    expect(report({ gaps: [at(name, 'C9')] }).gaps[0]!.controlId).toBe('C9');
  });

  it('fails on a gap that is no object or without a control id, naming which', () => {
    expect(() => report({ gaps: [{ id: 'C1' }, 4] })).toThrowError('no gap 2 as an object (looked for an object); got number');
    expect(() => report({ gaps: [{ id: 'C1' }, { title: 'T' }] })).toThrowError('no control id of gap 2 (looked for controlId, control_id, id); keys seen: title');
  });

  it.each(['title', 'name', 'control.title'])('reads a gap\'s title from %s, else shows its control id', (name) => {
    expect(gap(at(name, 'Keys')).title).toBe('Keys');
    expect(gap({}).title).toBe('C1');
  });

  it('reads a gap as partial only when it says so; missing otherwise', () => {
    expect(gap({ status: 'partly' }).status).toBe('partial');
    expect(gap({ status: 'met' }).status).toBe('missing');
    expect(gap({}).status).toBe('missing');
  });

  it.each([
    ['missing', ['missing', 'gap', 'description', 'whatIsMissing', 'detail', 'reason']],
    ['recommendation', ['recommendation', 'remediation', 'action', 'suggestion', 'fix']],
  ] as const)('reads what the gap %s says from each of its names, else nothing', (field, names) => {
    for (const name of names) expect(gap({ [name]: 'x' })[field]).toBe('x');
    expect(gap({})[field]).toBe('');
  });
});

describe('the framework and summary', () => {
  it('reads the framework as an object, a name, or one of the names beside it', () => {
    expect(report({ framework: { title: 'ISO 27001', id: 'iso' } }).framework).toEqual({ title: 'ISO 27001', id: 'iso', name: 'ISO 27001', slug: 'iso' });
    expect(report({ framework: { slug: 'iso' } }).framework).toEqual({ slug: 'iso', name: 'iso' });
    expect(report({ framework: { name: 'NIST CSF', title: 'Cybersecurity Framework' } }).framework.name).toBe('NIST CSF');
    expect(report({ framework: {} }).framework).toEqual({ name: '' });
    expect(report({ framework: 'NIST' }).framework).toEqual({ name: 'NIST' });
    for (const name of ['frameworkName', 'framework_name', 'standard']) expect(report({ [name]: 'SOC 2' }).framework).toEqual({ name: 'SOC 2' });
    expect(report({}).framework).toEqual({ name: '' });
  });

  it('keeps the service\'s summary, else counts the controls by status', () => {
    expect(report({ summary: { controls: 9 } }).summary).toEqual({ controls: 9 });
    expect(report({ controls: [{ id: 'C1', status: 'met' }, { id: 'C2', status: 'partial' }, { id: 'C3', status: 'gap' }, { id: 'C4', status: 'gap' }] }).summary).toEqual({
      controls: 4, covered: 1, partial: 1, missing: 2,
    });
  });
});
