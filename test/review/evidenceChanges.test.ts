/** review/evidenceChanges.ts: the quotes a change loses and gains, placed where the change is. */
import { describe, expect, it } from 'vitest';
import { compareEvidence, evaluateGate, lostControls, lostEvidenceMessage, type Evidence, type GateResult } from '../../review/index.js';
import { report } from './fixtures.js';

type Control = GateResult['controls'][number];
const base = evaluateGate(report({ A: 'covered' }), { framework: 'nist-csf-2', threshold: 0, waivers: [], today: '2026-06-01', failOn: 'coverage' });
const framework = (controls: Control[], key = 'nist-csf-2'): GateResult => ({ ...base, framework: { ...base.framework, key, name: `Framework ${key}` }, controls });
const control = (id: string, status: Control['status'], evidence: Evidence[] = []): Control => ({ id, title: `Title ${id}`, status, evidence });
const quote = (text: string, file: string | undefined, line: number | undefined, endLine?: number): Evidence => ({ quote: text, location: { source: file ?? 'combined' }, file, line, endLine: endLine ?? line });
const QUOTE = 'Access rights are reviewed every 90 days.';

describe('compareEvidence: lost quotes', () => {
  it('a quote the files no longer hold is lost at the line where it began, clamped to the file as it is now', () => {
    const before = framework([control('A', 'covered', [quote(QUOTE, 'policies/a.md', 10, 11)])]);
    const now = framework([control('A', 'missing')]);
    const { lost, gained } = compareEvidence({ frameworks: [before] }, { frameworks: [now] }, [{ path: './policies/a.md', content: 'one\ntwo\nthree\nfour\n' }]);
    expect(gained).toEqual([]);
    expect(lost).toEqual([{ framework: now, controlId: 'A', title: 'Title A', evidence: { ...quote(QUOTE, 'policies/a.md', 4), endLine: 4 }, stillEvidenced: false, nowGap: true }]);
  });

  it('a line inside the file stays where it was; a deleted file keeps the old lines', () => {
    const before = framework([control('A', 'covered', [quote(QUOTE, 'policies/a.md', 2, 3), quote('Backups run daily.', 'policies/gone.md', 3, 5), quote('Keys rotate yearly.', 'policies/gone.md', 7)])]);
    const { lost } = compareEvidence({ frameworks: [before] }, { frameworks: [framework([control('A', 'missing')])] }, [{ path: 'policies/a.md', content: 'one\nrewritten\nthree\nfour\n' }]);
    expect(lost.map((entry) => [entry.evidence.file, entry.evidence.line, entry.evidence.endLine])).toEqual([
      ['policies/a.md', 2, 2],
      ['policies/gone.md', 3, 5],
      ['policies/gone.md', 7, 7],
    ]);
  });

  it('a quote still in the files (whatever its case and punctuation), or without a file or a line, is not lost; a repeated one counts once', () => {
    const before = framework([control('A', 'covered', [
      quote(QUOTE, 'policies/a.md', 1),
      quote('No file.', undefined, 1),
      quote('No line.', 'policies/a.md', undefined),
      quote('Removed text.', 'policies/a.md', 2),
      quote('removed, TEXT', 'policies/a.md', 2),
      quote('Removed text.', 'policies/b.md', 2),
    ])]);
    const { lost } = compareEvidence({ frameworks: [before] }, { frameworks: [framework([control('A', 'covered', [quote(QUOTE, 'policies/a.md', 1)])])] }, [
      { path: 'policies/a.md', content: 'ACCESS rights are reviewed, every 90 days\n' },
      { path: 'policies/b.md', content: 'other\n' },
    ]);
    expect(lost.map((entry) => [entry.evidence.quote, entry.evidence.file])).toEqual([['Removed text.', 'policies/a.md'], ['Removed text.', 'policies/b.md']]);
  });

  it('two words that differ only once upper-cased (Maße, Masse) are two quotes', () => {
    const before = framework([control('A', 'covered', [quote('Maße', 'policies/a.md', 1), quote('Masse', 'policies/a.md', 1)])]);
    const { lost } = compareEvidence({ frameworks: [before] }, { frameworks: [framework([control('A', 'missing')])] }, [{ path: 'policies/a.md', content: 'other\n' }]);
    expect(lost.map((entry) => entry.evidence.quote)).toEqual(['Maße', 'Masse']);
  });

  it('the last line of a file without a final newline is a line', () => {
    const before = framework([control('A', 'covered', [quote('Removed text.', 'policies/a.md', 2)])]);
    const { lost } = compareEvidence({ frameworks: [before] }, { frameworks: [framework([control('A', 'missing')])] }, [{ path: 'policies/a.md', content: 'one\ntwo' }]);
    expect(lost.map((entry) => [entry.evidence.line, entry.evidence.endLine])).toEqual([[2, 2]]);
  });

  it('says whether the control is now a gap or still evidenced elsewhere', () => {
    const lostQuote = quote('Removed text.', 'policies/a.md', 1);
    const other = quote('Other evidence.', 'policies/a.md', 1);
    const before = framework([
      control('COVERED_TO_PARTIAL', 'covered', [lostQuote]),
      control('PARTIAL_STAYS', 'partial', [lostQuote]),
      control('COVERED_STAYS', 'covered', [lostQuote]),
      control('REMOVED', 'covered', [lostQuote]),
      control('MISSING_WITH_QUOTE', 'covered', [lostQuote]),
      control('PARTIAL_NO_QUOTE', 'partial', [lostQuote]),
    ]);
    const now = framework([
      control('COVERED_TO_PARTIAL', 'partial', [other]),
      control('PARTIAL_STAYS', 'partial', [other]),
      control('COVERED_STAYS', 'covered', [other]),
      control('MISSING_WITH_QUOTE', 'missing', [other]),
      control('PARTIAL_NO_QUOTE', 'partial'),
    ]);
    const { lost } = compareEvidence({ frameworks: [before] }, { frameworks: [now] }, [{ path: 'policies/a.md', content: 'Other evidence.\n' }]);
    expect(Object.fromEntries(lost.map((entry) => [entry.controlId, { nowGap: entry.nowGap, stillEvidenced: entry.stillEvidenced }]))).toEqual({
      COVERED_TO_PARTIAL: { nowGap: true, stillEvidenced: true },
      PARTIAL_STAYS: { nowGap: false, stillEvidenced: true },
      COVERED_STAYS: { nowGap: false, stillEvidenced: true },
      REMOVED: { nowGap: true, stillEvidenced: false },
      MISSING_WITH_QUOTE: { nowGap: true, stillEvidenced: false },
      PARTIAL_NO_QUOTE: { nowGap: false, stillEvidenced: false },
    });
    expect(lostControls(lost)).toEqual([
      'COVERED_TO_PARTIAL (now a gap)',
      'PARTIAL_STAYS (still evidenced elsewhere)',
      'COVERED_STAYS (still evidenced elsewhere)',
      'REMOVED (now a gap)',
      'MISSING_WITH_QUOTE (now a gap)',
      'PARTIAL_NO_QUOTE (weaker)',
    ]);
    const [toPartial, stays, , , , weaker] = lost;
    expect(lostEvidenceMessage(toPartial!)).toBe('This change removes evidence for Framework nist-csf-2 COVERED_TO_PARTIAL Title COVERED_TO_PARTIAL: it is now a gap. The default branch credited: "Removed text."');
    expect(lostEvidenceMessage(stays!)).toContain('PARTIAL_STAYS: it is still evidenced elsewhere.');
    expect(lostEvidenceMessage(weaker!)).toContain('PARTIAL_NO_QUOTE: its evidence is weaker.');
  });

  it('only a framework both reports hold is compared, each with its own', () => {
    const lostQuote = quote('Removed text.', 'policies/a.md', 1);
    const { lost, gained } = compareEvidence(
      { frameworks: [framework([control('A', 'covered', [lostQuote])], 'hipaa'), framework([control('A', 'covered')], 'soc2')] },
      { frameworks: [framework([control('A', 'covered', [quote('New text.', 'policies/a.md', 1)])], 'iso'), framework([control('A', 'covered')], 'hipaa')] },
      [{ path: 'policies/a.md', content: 'New text.\n' }],
    );
    expect(lost.map((entry) => entry.framework.framework.key)).toEqual(['hipaa']);
    expect(gained).toEqual([]);
    expect(lostControls([...lost, ...lost])).toEqual(['A (weaker)']);
  });
});

describe('compareEvidence: gained quotes', () => {
  it('a quote the default branch did not credit for the control is gained, once; the same words differently written are not', () => {
    const before = framework([control('A', 'covered', [quote(QUOTE, 'policies/a.md', 1), quote('Backups run daily.', 'policies/a.md', 2)])]);
    const now = framework([
      control('A', 'covered', [
        quote('access rights are reviewed EVERY 90 days', 'policies/a.md', 1),
        quote('Access rights are reviewed every 30 days.', 'policies/a.md', 1),
        quote('Restores run daily.', 'policies/a.md', 2),
        quote('Restores run daily!', 'policies/a.md', 2),
      ]),
      control('B', 'partial', [quote('Backups run daily.', 'policies/a.md', 2)]),
    ]);
    const { gained } = compareEvidence({ frameworks: [before] }, { frameworks: [now] }, [{ path: 'policies/a.md', content: `${QUOTE}\nBackups run daily.\n` }]);
    expect(gained.map((entry) => [entry.controlId, entry.title, entry.evidence.quote])).toEqual([
      ['A', 'Title A', 'Access rights are reviewed every 30 days.'],
      ['A', 'Title A', 'Restores run daily.'],
      ['B', 'Title B', 'Backups run daily.'],
    ]);
    expect(gained[0]?.framework).toBe(now);
  });
});
