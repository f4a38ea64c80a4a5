/** Quotes found again in the committed files (review/evidenceTrace): the lines, the nearest occurrence, and the file when the service names none. */
import { describe, expect, it } from 'vitest';
import { locateQuote, traceReports } from '../../review/index.js';
import { report } from './fixtures.js';

const TEXT = ['# Title', '', 'Backups run *daily*,', 'and are tested.', '', 'Backups run daily, and are tested.', 'İstanbul office: ok', ''].join('\n');

describe('locateQuote', () => {
  it('finds a quote across Markdown and line breaks, taking the first occurrence or the one nearest a line', () => {
    expect(locateQuote(TEXT, 'Backups run daily and are tested')).toEqual({ line: 3, endLine: 4 });
    expect(locateQuote(TEXT, 'backups run daily, and are tested', 6)).toEqual({ line: 6, endLine: 6 });
    expect(locateQuote(TEXT, 'backups run daily, and are tested', 5)).toEqual({ line: 6, endLine: 6 });
    // A tie goes to the first.
    expect(locateQuote('x\ny\nx\n', 'x', 2)).toEqual({ line: 1, endLine: 1 });
    expect(locateQuote(TEXT, 'Title', 100)).toEqual({ line: 1, endLine: 1 });
  });

  it('counts lines after a letter whose lower case is longer, and finds nothing for no letters or absent text', () => {
    expect(locateQuote(TEXT, 'office: ok')).toEqual({ line: 7, endLine: 7 });
    expect(locateQuote(TEXT, 'İstanbul')).toEqual({ line: 7, endLine: 7 });
    expect(locateQuote('İ\nab', 'ab')).toEqual({ line: 2, endLine: 2 });
    expect(locateQuote(TEXT, '*** ...')).toBeUndefined();
    expect(locateQuote(TEXT, 'Restores run weekly')).toBeUndefined();
  });
});

describe('traceReports', () => {
  const files = [
    { path: './policies/a.md', content: TEXT },
    { path: 'policies/b.md', content: 'Other text.\nKeys rotate yearly.\n' },
  ];
  const traced = (source: string, evidence: Array<{ quote: string; location: { source?: string; line?: number; section?: string } }>) => {
    const mapped = report({ C1: 'covered' });
    mapped.controls[0]!.evidence = evidence;
    return traceReports([{ source, jobId: 'j', report: mapped }], files)[0]!.report.controls[0]!.evidence;
  };

  it('traces a quote in its source, else the one file that has it, and drops the service\'s own line', () => {
    expect(traced('combined', [
      { quote: 'Backups run daily, and are tested.', location: { source: './policies/a.md', line: 6, section: 'Ops' } },
      { quote: 'Keys rotate yearly', location: { source: 'combined', line: 40 } },
      { quote: 'Keys rotate yearly', location: {} },
    ])).toEqual([
      { quote: 'Backups run daily, and are tested.', location: { source: './policies/a.md', section: 'Ops' }, file: 'policies/a.md', line: 6, endLine: 6 },
      { quote: 'Keys rotate yearly', location: { source: 'combined' }, file: 'policies/b.md', line: 2, endLine: 2 },
      { quote: 'Keys rotate yearly', location: {}, file: 'policies/b.md', line: 2, endLine: 2 },
    ]);
  });

  it('takes the named source over another file holding the same text, the source even with a dot before a slash', () => {
    const twice = [
      { path: 'a.md', content: 'Keys rotate yearly.\n' },
      { path: 'v1./b.md', content: 'x\nKeys rotate yearly.\n' },
      { path: 'combined', content: 'y\n' },
    ];
    const mapped = report({ C1: 'covered' });
    mapped.controls[0]!.evidence = [
      { quote: 'Keys rotate yearly', location: { source: './v1./b.md' } },
      { quote: 'Nowhere', location: { source: 'v1./b.md', line: 5 } },
      // A combined set's quote names no file, even where a file is called "combined".
      { quote: 'Nowhere', location: { line: 1 } },
    ];
    expect(traceReports([{ source: 'combined', jobId: 'j', report: mapped }], twice)[0]!.report.controls[0]!.evidence).toEqual([
      { quote: 'Keys rotate yearly', location: { source: './v1./b.md' }, file: 'v1./b.md', line: 2, endLine: 2 },
      { quote: 'Nowhere', location: { source: 'v1./b.md' }, file: 'v1./b.md', line: 5, endLine: 5 },
      { quote: 'Nowhere', location: {} },
    ]);
  });

  it('finds the file of a source or a path spelt ././ or with a doubled slash', () => {
    const spelt = [{ path: '././policies//a.md', content: TEXT }];
    const mapped = report({ C1: 'covered' });
    mapped.controls[0]!.evidence = [{ quote: 'Title', location: { source: 'policies/./a.md' } }, { quote: 'Title', location: { source: '././policies/a.md' } }];
    expect(traceReports([{ source: 'combined', jobId: 'j', report: mapped }], spelt)[0]!.report.controls[0]!.evidence.map((quote) => [quote.file, quote.line])).toEqual([['policies/a.md', 1], ['policies/a.md', 1]]);
  });

  it('keeps the service\'s line over the quote\'s lines in a known file when the text is not found, else only the file', () => {
    expect(traced('policies/b.md', [
      { quote: 'Not\nin the\nfile', location: { line: 7 } },
      { quote: 'Not in the file', location: {} },
      { quote: 'Nowhere at all', location: { source: 'other.md', line: 3 } },
    ])).toEqual([
      { quote: 'Not\nin the\nfile', location: {}, file: 'policies/b.md', line: 7, endLine: 9 },
      { quote: 'Not in the file', location: {}, file: 'policies/b.md' },
      { quote: 'Nowhere at all', location: { source: 'other.md' } },
    ]);
  });
});
