/** A gap issue's text (review/gapIssues) word for word, and which existing issue a gap is matched to. */
import { describe, expect, it } from 'vitest';
import { buildReviewReport, evaluateGate, gapMarker, markerKey, planGapIssues, type ExistingIssue, type GapIssueSettings } from '../../review/index.js';
import { report } from './fixtures.js';

const settings: GapIssueSettings = { labels: ['compliance-gap'], assignees: [], titlePrefix: '', closeResolved: true, maxNewPerRun: 10 };
const waiver = (expires: string) => ({ framework: 'nist-csf-2', control: 'B', reason: 'Vendor | contract', owner: 'al|ice', expires });

function gateOf(statuses: Parameters<typeof report>[0], options: { expires?: string; edit?: (mapped: ReturnType<typeof report>) => void } = {}) {
  const mapped = report(statuses);
  options.edit?.(mapped);
  const waivers = options.expires ? [waiver(options.expires)] : [];
  return evaluateGate(mapped, { framework: 'nist-csf-2', threshold: 0, waivers, today: '2026-06-01', failOn: 'coverage' });
}

const TAIL = [
  '---',
  '<sub>Opened by the compliance review loop from the mapping report; it is updated on each review and closed when the gap is resolved.</sub>',
  '<!-- compliance-gap:nist-csf-2/B -->',
];

describe('a gap issue\'s text', () => {
  it('says the framework, control, status, what is missing, the fix, the waiver and where the evidence stands', () => {
    const gate = gateOf({ B: 'partial' }, {
      expires: '2026-05-01',
      edit: (mapped) => {
        mapped.controls[0]!.evidence = [
          { quote: 'First | quote', location: { source: 'combined', section: 'Intro' }, file: 'policies/a.md', line: 3, endLine: 4 },
          { quote: 'Second quote', location: { source: 'combined' } },
        ];
      },
    });
    const [draft] = planGapIssues(buildReviewReport([gate], { generatedAt: '2026-06-01T00:00:00Z' }), [], { ...settings, titlePrefix: '  [gap]  ' }).create;
    expect(draft?.title).toBe('[gap] B: Control B');
    expect(draft?.body).toBe(
      [
        '**Framework:** NIST Cybersecurity Framework 2.0 · **Control:** B Control B · **Status:** partial',
        '',
        '### What is missing',
        '',
        'Nothing on B',
        '',
        '### Recommendation',
        '',
        'Write about B',
        '',
        '### Waiver',
        '',
        '**expired on 2026-05-01**: this gap counts again (owner al\\|ice): Vendor | contract',
        '',
        '### Evidence so far',
        '',
        '> First \\| quote\n>\n> — policies/a.md, lines 3-4, Intro',
        '',
        '> Second quote',
        '',
        ...TAIL,
      ].join('\n'),
    );
  });

  it('says when nothing is evidenced yet and until when a waiver accepts the gap', () => {
    const draft = planGapIssues([gateOf({ B: 'missing' }, { expires: '2026-07-01' })], [{ number: 1, title: 'x', body: gapMarker('nist-csf-2/B'), state: 'open', labels: [] }], settings).update[0];
    expect(draft?.title).toBe('B: Control B');
    expect(draft?.body.split('\n').slice(10, 19)).toEqual([
      '### Waiver',
      '',
      'accepted until 2026-07-01 (owner al\\|ice): Vendor | contract',
      '',
      '### Evidence so far',
      '',
      'None: the documents say nothing toward this control yet.',
      '',
      '---',
    ]);
  });

  it('shortens the evidence to keep the body under GitHub\'s limit, counting what it left out', () => {
    const quote = (index: number) => ({ quote: `${index}`.repeat(1000), location: { source: 'combined' } });
    const shown = (missingLength: number) => {
      const gate = gateOf({ B: 'partial' }, {
        edit: (mapped) => {
          mapped.gaps[0]!.missing = 'x'.repeat(missingLength);
          mapped.controls[0]!.evidence = Array.from({ length: 80 }, (_, index) => quote(index));
        },
      });
      const body = planGapIssues([gate], [], settings).create[0]!.body;
      const count = body.split('\n').filter((line) => line.startsWith('> ')).length;
      expect(body).toContain(`\n… ${80 - count} more quotes in the report.\n\n---\n`);
      expect(body.length).toBeLessThanOrEqual(60_000);
      return count;
    };
    // Each quote takes 1,004 characters (1,000 of text, its "> " and two line breaks). The evidence gets
    // 60,000 less the rest of the body less 200: with 229 characters of text on what is missing, exactly
    // 1,004 are left for the 59th quote, and it is shown; one character more and it is not.
    expect(shown(229)).toBe(59);
    expect(shown(230)).toBe(58);
    expect(shown(330)).toBe(58);
  });

  it('collapses white space in a title and cuts it at 256 characters', () => {
    const gate = gateOf({ B: 'missing' }, { edit: (mapped) => void (mapped.gaps[0]!.title = `a \n  b ${'c'.repeat(300)}`) });
    const title = planGapIssues([gate], [], settings).create[0]!.title;
    expect(title).toHaveLength(256);
    expect(title.startsWith('B: a b ccc')).toBe(true);
    expect(title.endsWith('c…')).toBe(true);
  });
});

describe('matching existing issues', () => {
  const issue = (number: number, state: 'open' | 'closed', body: string | null = `text\n${gapMarker('nist-csf-2/B')}\n`): ExistingIssue => ({ number, title: 'B: Control B', body, state, labels: [] });

  it('reads the marker only at the end of a body', () => {
    expect(markerKey(`x\n${gapMarker('a/b')}  \n`)).toBe('a/b');
    expect(markerKey(`${gapMarker('a/b')}\nmore`)).toBeUndefined();
    expect(markerKey(null)).toBeUndefined();
  });

  it('takes the open issue of a key, else the latest closed one, and ignores issues without a marker', () => {
    const missing = [gateOf({ B: 'missing' })];
    const target = (issues: ExistingIssue[]) => {
      const plan = planGapIssues(missing, issues, settings);
      return [...plan.update.map((entry) => [entry.number, entry.reopen]), ...plan.unchanged.map((entry) => [entry.number, 'unchanged'])];
    };
    expect(target([issue(3, 'closed'), issue(2, 'open'), issue(1, 'closed')])).toEqual([[2, false]]);
    expect(target([issue(1, 'open'), issue(3, 'closed')])).toEqual([[1, false]]);
    expect(target([issue(3, 'closed'), issue(1, 'closed')])).toEqual([[3, true]]);
    expect(target([issue(4, 'open', 'no marker'), issue(5, 'open', null)])).toEqual([]);
    const current = planGapIssues(missing, [], settings).create[0]!;
    expect(target([{ ...issue(6, 'open'), body: `${current.body}\n\n` }])).toEqual([[6, 'unchanged']]);
    expect(target([{ ...issue(7, 'open'), body: current.body, title: 'renamed' }])).toEqual([[7, false]]);
  });

  it('keeps the oldest of two open issues of one key, and opens missing controls before partial ones', () => {
    const plan = planGapIssues([gateOf({ B: 'missing' })], [issue(5, 'open'), issue(4, 'open'), issue(6, 'open')], settings);
    expect(plan.update.map((entry) => entry.number)).toEqual([4]);
    const order = planGapIssues([gateOf({ A1: 'partial', M1: 'missing', A2: 'missing' })], [], settings).create;
    expect(order.map((draft) => [draft.key, draft.labels, draft.assignees])).toEqual([
      ['nist-csf-2/A2', ['compliance-gap'], []],
      ['nist-csf-2/M1', ['compliance-gap'], []],
      ['nist-csf-2/A1', ['compliance-gap'], []],
    ]);
  });

  it('closes a resolved gap\'s open issue with its title and a comment, and creates none for a report of no gap', () => {
    const plan = planGapIssues([gateOf({ B: 'covered' })], [issue(8, 'open'), { ...issue(9, 'closed'), body: `x\n${gapMarker('nist-csf-2/C')}` }], settings);
    expect(plan).toEqual({
      create: [],
      update: [],
      unchanged: [],
      deferred: [],
      close: [{ number: 8, key: 'nist-csf-2/B', title: 'B: Control B', stateReason: 'completed', comment: 'Resolved: the latest mapping no longer reports this gap.' }],
    });
  });
});
