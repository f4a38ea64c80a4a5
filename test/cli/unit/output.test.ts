/** What the CLI prints, as pure functions and a fake terminal: tables that fit, labelled counts, waivers apart, progress. */
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { fitHelp, Output, table, terminalWidth, wrapText, type OutputStreams } from '../../../cli/lib/output.js';
import { renderCoverage, renderGaps, renderSync } from '../../../cli/lib/render.js';
import { dryRunLines } from '../../../cli/lib/render.js';
import type { GateResult } from '../../../review/gate.js';

function fakeStreams(options: { tty?: boolean; env?: Record<string, string> } = {}) {
  const written = { stdout: '', stderr: '' };
  const stream = (name: 'stdout' | 'stderr') => ({ isTTY: options.tty ?? false, columns: 80, write: (text: string) => ((written[name] += text), true) });
  const streams = { stdout: stream('stdout'), stderr: stream('stderr'), env: options.env ?? {} } as unknown as OutputStreams;
  return { streams, written };
}
const plain = new Output({ json: false }, fakeStreams().streams);

describe('table', () => {
  const long = 'No documented procedure for reviewing the activity of information systems, such as audit logs, access reports and security incident tracking reports, at a set interval.';

  it('fits the given width and wraps the last column instead of cutting it', () => {
    const text = table(['Control', 'Title', 'What is missing'], [['164.308(a)(1)(ii)(D)', 'Information system activity review', long]], { width: 80 });
    const lines = text.split('\n');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(80);
    expect(lines.length).toBeGreaterThan(3);
    expect(lines.slice(2).map((line) => line.trim()).join(' ')).toContain('at a set interval.');
    expect(text).toContain('164.308(a)(1)(ii)(D)');
  });

  it('takes COLUMNS, then the terminal width, then 100', () => {
    expect(terminalWidth({ COLUMNS: '60' }, { columns: 200 })).toBe(60);
    expect(terminalWidth({}, { columns: 132 })).toBe(132);
    expect(terminalWidth({}, {})).toBe(100);
    const wide = table(['A', 'Note'], [['x', long]], { width: 200 });
    expect(wide.split('\n')).toHaveLength(3);
  });

  it('shows one block per row when the columns cannot fit', () => {
    const text = table(['Framework', 'Result', 'Coverage', 'Effective', 'Threshold', 'Gaps', 'Waived', 'New', 'Controls'], [['HIPAA Security Rule', 'passed', '80%', '90%', '85%', '1', '1', '—', '55 covered, 2 partial, 8 missing of 65']], { width: 60 });
    expect(text.split('\n')[0]).toBe('HIPAA Security Rule');
    expect(text).toContain('  Controls:  55 covered, 2 partial, 8 missing of 65');
    expect(Math.max(...text.split('\n').map((line) => line.length))).toBeLessThanOrEqual(60);
  });

  it('cuts nothing and breaks no word, at 100 columns (a pipe) as at 80: cells wrap at spaces, ids stay whole', () => {
    const id = 'doc_3855616d2bf8a131';
    const rows = [
      [id, 'Information security policy for the whole organisation', 'policies/information-security.md', 'Policies', '1', 'security, access, encryption, logging, hr'],
      ['doc_2', 'Vendors', 'policies/vendors.md', 'Policies', '12', 'vendors'],
    ];
    const headers = ['Id', 'Title', 'File', 'Category', 'Version', 'Tags'];
    for (const width of [100, 80]) {
      const text = table(headers, rows, { width, whole: [0] });
      expect(Math.max(...text.split('\n').map((line) => line.length)), `at ${width}`).toBeLessThanOrEqual(width);
      expect(text).not.toContain('…');
      // Every word of every cell is a whole word of the output: nothing cut, nothing split.
      const printed = new Set(text.split(/\s+/));
      for (const word of rows.flat().join(' ').split(' ')) expect(printed.has(word), `${word} at ${width}`).toBe(true);
    }
    // At 100 columns a table whose titles and tags wrap; at 80 the path leaves no room: a block per row.
    expect(table(headers, rows, { width: 100, whole: [0] }).split('\n')[2]!.startsWith(`${id}  Information`)).toBe(true);
    expect(table(headers, rows, { width: 80, whole: [0] }).split('\n')[0]).toBe(id);
  });

  it('shows a block per row, ids whole, when even the longest words leave no room', () => {
    const text = table(['Id', 'File', 'Note'], [['doc_70eaed12f4b8c9a1d2e3', 'policies/a-very-long-path/to/the/information-security-policy.md', 'fine']], { width: 60 });
    expect(text.split('\n')[0]).toBe('doc_70eaed12f4b8c9a1d2e3');
    expect(text).toContain('  File: policies/a-very-long-path/to/the/information-security-policy.md');
  });

  it('keeps the short columns whole and lets the long ones share the rest, so no column is one word a line', () => {
    const text = table(['Control', 'Title', 'Status', 'What is missing'], [['164.308(a)(1)(ii)(D)', 'Information system activity review and audit controls', 'missing, new', long]], { width: 80, whole: [0] });
    const lines = text.split('\n');
    const column = lines[0]!.indexOf('What is missing');
    expect(80 - column).toBeGreaterThanOrEqual(20);
    expect(lines[2]!.startsWith('164.308(a)(1)(ii)(D)  ')).toBe(true);
    expect(lines[2]).toContain('missing, new');
  });

  it("fits help text: prose re-flowed, a term's description wrapped under itself, headings kept", () => {
    const help = [
      'Usage: compliance demo [options]',
      '',
      'A description written on two lines at a width of about one hundred and twenty columns, as the',
      'commands write them, then re-flowed.',
      '',
      'Options:',
      '  --max-tokens N  refuse, before spending anything, a plan that costs more than N tokens in live mode',
    ].join('\n');
    expect(fitHelp(help, 50).split('\n')).toEqual([
      'Usage: compliance demo [options]',
      '',
      'A description written on two lines at a width of',
      'about one hundred and twenty columns, as the',
      'commands write them, then re-flowed.',
      '',
      'Options:',
      '  --max-tokens N  refuse, before spending',
      '                  anything, a plan that costs more',
      '                  than N tokens in live mode',
    ]);
  });

  it('wraps words, never cutting one: a word longer than the line stands alone', () => {
    expect(wrapText('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('ab abcdefghij cd', 4)).toEqual(['ab', 'abcdefghij', 'cd']);
  });

  it('never wraps an example: it continues after a backslash, its comment on lines of its own', () => {
    const help = [
      'Examples:',
      '  compliance review --max-tokens 2000000 --report-dir out --formats md,json,pdf --fail-on new-gaps',
      '  compliance call suggestFrameworks --input \'{"query":"health data privacy","jurisdiction":"US"}\'',
      '  compliance map                                   # every framework in compliance.yml, as the gate judges',
    ].join('\n');
    expect(fitHelp(help, 70).split('\n')).toEqual([
      'Examples:',
      '  compliance review --max-tokens 2000000 --report-dir out \\',
      '      --formats md,json,pdf --fail-on new-gaps',
      '  compliance call suggestFrameworks \\',
      '      --input \'{"query":"health data privacy","jurisdiction":"US"}\'',
      '  compliance map',
      '  # every framework in compliance.yml, as the gate judges',
    ]);
  });
});

const gate = {
  framework: { key: 'hipaa', name: 'HIPAA Security Rule', slug: 'hipaa-security', version: undefined, configured: 'hipaa-security' },
  passed: true, coverage: 80, effectiveCoverage: 90, threshold: 85,
  summary: { controls: 65, covered: 55, partial: 2, missing: 8 },
  controls: [], expiredWaivers: [], newGaps: [], reasons: [], warnings: [],
  gaps: [
    { key: 'k1', controlId: 'C-1', title: 'Audit review', status: 'missing', missing: 'no audit log review', recommendation: '', evidence: [], waived: false, waiver: undefined },
    { key: 'k2', controlId: 'C-2', title: 'Media disposal', status: 'missing', missing: 'no disposal procedure', recommendation: '', evidence: [], waived: true, waiver: { control: 'C-2', reason: 'no media held', expires: '2027-01-31', expired: false, daysLeft: 60 } },
  ],
} as unknown as GateResult;

describe('coverage and gaps', () => {
  it('labels the control counts', () => {
    process.env.COLUMNS = '200';
    const text = renderCoverage(plain, [gate]);
    delete process.env.COLUMNS;
    expect(text).not.toContain('55/2/8 of 65');
    const [header, , row] = text.split('\n');
    const cell = (name: string) => row!.slice(header!.indexOf(name)).trim().split(/\s{2,}/)[0];
    expect([cell('Gaps'), cell('Waived')]).toEqual(['1', '1']);
    expect(text).toContain('55 covered, 2 partial, 8 missing of 65');
  });

  it('lists waived controls apart from the gaps', () => {
    const text = renderGaps(plain, gate, {});
    const [gaps, waived] = text.split('Waived (not counted as gaps):');
    expect(text.split('\n')[0]).toBe('HIPAA Security Rule: 1 gap, 1 waived');
    expect(gaps).toContain('C-1');
    expect(gaps).not.toContain('C-2');
    expect(waived).toContain('C-2');
    expect(waived).toContain('2027-01-31');
    expect(waived).toContain('no media held');
  });
});

describe('dry run', () => {
  it('itemises each file and each mapping, and reports a shortfall without failing', () => {
    const item = (kind: string, path: string, tokens: number) => ({ kind, path, tokens });
    const lines = dryRunLines(plain, {
      sync: { plan: { items: [item('new', 'policies/a.md', 400_000), item('changed', 'policies/b.md', 400_000), item('unchanged', 'policies/c.md', 0)] }, run: undefined },
      estimate: { lines: [{ operationId: 'ingestLibraryDocument', count: 1, tokensEach: 400_000 }, { operationId: 'refreshLibraryDocument', count: 1, tokensEach: 400_000 }, { operationId: 'mapDocument', count: 1, tokensEach: 250_000 }, { operationId: 'mapDocument', count: 3, tokensEach: 250_000 }], totalTokens: 1_800_000, unpriced: [] },
      budget: { allowed: false, mode: 'live', plannedTokens: 1_800_000, chargedTokens: 1_800_000, balanceTokens: 1_000_000, maxTokens: undefined, shortfall: 800_000, suggestedPack: { code: 'pack10' }, reasons: ['the balance is 1,000,000 tokens, 800,000 short'] },
    } as never, ['hipaa-security', 'nist-csf-2']).join('\n');
    expect(lines).toMatch(/ingest\s+policies\/a\.md\s+400,000/);
    expect(lines).toMatch(/refresh\s+policies\/b\.md\s+400,000/);
    expect(lines).not.toContain('policies/c.md');
    expect(lines).toMatch(/map\s+hipaa-security\s+250,000/);
    expect(lines).toMatch(/map\s+nist-csf-2 \(3 documents × 250,000\)\s+750,000/);
    expect(lines).toContain('Total: 1,800,000 tokens; balance 1,000,000 tokens.');
    expect(lines).toContain('800,000 short');
    expect(lines).toContain('compliance checkout pack10');
  });
});

describe('dry run in sandbox mode', () => {
  it('says nothing is charged instead of showing the sandbox balance, and the sync table leaves the charges to it', () => {
    const lines = dryRunLines(plain, {
      sync: undefined,
      estimate: { lines: [{ operationId: 'mapDocument', count: 1, tokensEach: 250_000 }], totalTokens: 250_000, unpriced: [] },
      budget: { allowed: true, mode: 'sandbox', plannedTokens: 250_000, chargedTokens: 0, balanceTokens: 0, maxTokens: undefined, shortfall: undefined, suggestedPack: undefined, reasons: [] },
    } as never, ['nist-csf-2']).join('\n');
    expect(lines).toContain('Total: 250,000 tokens (sandbox key: never charged).');
    const result = (kind: string, path: string) => ({ kind, path, outcome: 'planned', tokensSpent: 0, message: `${kind} row` });
    const text = renderSync(plain, { counts: { new: 1, changed: 0, unchanged: 0, renamed: 1, duplicate: 0, invalid: 0, removed: 0 } } as never,
      { dryRun: true, mode: 'sandbox', tokensSpent: 0, results: [result('new', 'policies/a.md'), result('renamed', 'policies/b.md')] } as never);
    expect(text).not.toContain('policies/a.md');
    expect(text).toContain('policies/b.md');
  });
});

describe('progress', () => {
  it('is written only to a terminal, and a repeat is not written again', () => {
    const ci = fakeStreams({ tty: false });
    new Output({ json: false }, ci.streams).progress('1/3 policies/a.md: ingested');
    expect(ci.written.stderr).toBe('');
    const tty = fakeStreams({ tty: true });
    const out = new Output({ json: false }, tty.streams);
    out.progress('mapping hipaa-security');
    out.progress('mapping hipaa-security');
    out.print('result');
    expect(stripVTControlCharacters(tty.written.stderr).match(/mapping hipaa-security/g)).toHaveLength(1);
    expect(tty.written.stdout).toBe('result\n');
  });

  it('colours through styleText only on a colour terminal', () => {
    const colour = new Output({ json: false }, fakeStreams({ tty: true }).streams);
    expect(colour.style('ok', 'green')).toBe('\u001b[32mok\u001b[39m');
    expect(new Output({ json: false }, fakeStreams({ tty: true, env: { NO_COLOR: '1' } }).streams).style('ok', 'green')).toBe('ok');
  });
});

describe('one escape for everything printed', () => {
  it('shows control characters and line breaks inside a value escaped, breaks workflow commands, keeps our own lines', () => {
    const { streams, written } = fakeStreams();
    const out = new Output({ json: false }, streams);
    out.print(`Ingested policies/x\r::error::bad.md\u001b]0;title\u0007\nSpent 0 tokens.`);
    out.notice(`::warning::note \u001b[2K\u2028##[error]x`);
    expect(written.stdout).toBe('Ingested policies/x\\r:\u200D:error:\u200D:bad.md\\u001b]0;title\\u0007\nSpent 0 tokens.\n');
    expect(written.stderr).toBe(':\u200D:warning:\u200D:note \\u001b[2K\\u2028#\u200D#[error]x\n');
  });

  it('keeps the colours of style() on a colour terminal, and escapes a value\'s own sequences everywhere else', () => {
    const { streams, written } = fakeStreams({ tty: true });
    const out = new Output({ json: false }, streams);
    out.print(`${out.style('passed', 'green')} \u001b[2J::x`);
    expect(written.stdout).toBe(`\u001b[32mpassed\u001b[39m \\u001b[2J:\u200D:x\n`);
    const { streams: piped, written: pipedOut } = fakeStreams();
    new Output({ json: false }, piped).print('\u001b[32mgreen\u001b[39m');
    expect(pipedOut.stdout).toBe('\\u001b[32mgreen\\u001b[39m\n');
  });

  it('writes JSON that reads back the same, without separators or the runner marker as they are', () => {
    const { streams, written } = fakeStreams();
    const value = { name: 'a\u2028b\u2029##[error]c::d\n\u001b' };
    new Output({ json: true }, streams).printJson(value);
    expect(written.stdout).not.toMatch(/[\u2028\u2029]|##\[/);
    expect(written.stdout).not.toContain('\u001b');
    expect(JSON.parse(written.stdout)).toEqual(value);
  });

  it('writes a download verbatim (the data asked for)', () => {
    const { streams, written } = fakeStreams();
    new Output({ json: false }, streams).data('::x\r\n');
    expect(written.stdout).toBe('::x\r\n');
  });
});
