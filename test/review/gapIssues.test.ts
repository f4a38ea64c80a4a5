import { describe, expect, it } from 'vitest';
import {
  evaluateGate,
  gapMarker,
  markerKey,
  logText,
  neutralise,
  planGapIssues,
  type ExistingIssue,
  type GapIssueSettings,
  type GateResult,
} from '../../review/index.js';
import { report } from './fixtures.js';

const settings: GapIssueSettings = { labels: ['compliance-gap'], assignees: ['alice'], titlePrefix: '[compliance]', closeResolved: true, maxNewPerRun: 10 };
const gate = (statuses: Parameters<typeof report>[0]): GateResult =>
  evaluateGate(report(statuses), { framework: 'nist-csf-2', threshold: 0, waivers: [], today: '2026-06-01', failOn: 'coverage' });
const asIssue = (number: number, draft: { title: string; body: string }, state: 'open' | 'closed' = 'open'): ExistingIssue => ({
  number, title: draft.title, body: draft.body, state, labels: [{ name: 'compliance-gap' }],
});

describe('planGapIssues', () => {
  it('creates one issue per gap with a title, a body and a hidden marker', () => {
    const plan = planGapIssues([gate({ A: 'covered', B: 'missing', C: 'partial' })], [], settings);
    expect(plan.create.map((draft) => draft.title)).toEqual(['[compliance] B: Control B', '[compliance] C: Control C']);
    const body = plan.create[1]?.body ?? '';
    expect(body).toContain('### What is missing\n\nNothing on C');
    expect(body).toContain('### Recommendation\n\nWrite about C');
    expect(body).toContain('> Evidence for C');
    expect(body.trimEnd().endsWith(gapMarker('nist-csf-2/C'))).toBe(true);
    expect(markerKey(body)).toBe('nist-csf-2/C');
    expect(plan.create[0]).toMatchObject({ labels: ['compliance-gap'], assignees: ['alice'] });
  });

  it('leaves identical issues alone, updates changed bodies, reopens returning gaps, closes resolved ones', () => {
    const first = planGapIssues([gate({ A: 'missing', B: 'missing', C: 'missing', D: 'missing' })], [], settings).create;
    const [a, b, c, d] = first;
    if (!a || !b || !c || !d) throw new Error('expected four drafts');
    const existing = [asIssue(1, a), asIssue(2, { title: b.title, body: b.body.replace('Nothing on B', 'old text') }), asIssue(3, c, 'closed'), asIssue(4, d)];
    const plan = planGapIssues([gate({ A: 'missing', B: 'missing', C: 'missing', D: 'covered' })], existing, settings);
    expect(plan.unchanged).toEqual([{ number: 1, key: 'nist-csf-2/A' }]);
    expect(plan.update.map((u) => [u.number, u.reopen])).toEqual([[2, false], [3, true]]);
    expect(plan.close).toEqual([expect.objectContaining({ number: 4, key: 'nist-csf-2/D', stateReason: 'completed' })]);
    expect(plan.create).toEqual([]);
  });

  it('does not close issues of frameworks not evaluated in this run, nor when closeResolved is off', () => {
    const other = { number: 9, title: 't', body: `x\n${gapMarker('hipaa-security/164.308')}`, state: 'open' as const, labels: [] };
    expect(planGapIssues([gate({ A: 'covered' })], [other], settings).close).toEqual([]);
    const ours = { ...other, body: `x\n${gapMarker('nist-csf-2/Z')}` };
    expect(planGapIssues([gate({ A: 'covered' })], [ours], settings).close).toHaveLength(1);
    expect(planGapIssues([gate({ A: 'covered' })], [ours], { ...settings, closeResolved: false }).close).toEqual([]);
  });

  it('never opens or reopens an issue for a waived gap; an open one is kept (it says until when), not closed', () => {
    const waiver = { framework: 'nist-csf-2', control: 'B', reason: 'Vendor contract pending', owner: 'alice', expires: '2027-01-31' };
    const waived = (statuses: Parameters<typeof report>[0]) =>
      evaluateGate(report(statuses), { framework: 'nist-csf-2', threshold: 0, waivers: [waiver], today: '2026-06-01', failOn: 'coverage' });
    const fresh = planGapIssues([waived({ A: 'missing', B: 'missing' })], [], settings);
    expect(fresh.create.map((draft) => draft.key)).toEqual(['nist-csf-2/A']);
    expect(fresh.deferred).toEqual([]);

    const [openB] = planGapIssues([gate({ B: 'missing' })], [], settings).create;
    if (!openB) throw new Error('expected a draft for B');
    const kept = planGapIssues([waived({ B: 'missing' })], [asIssue(5, openB)], settings);
    expect(kept.update).toEqual([expect.objectContaining({ number: 5, reopen: false, body: expect.stringContaining('accepted until 2027-01-31') })]);
    expect(kept.close).toEqual([]);
    expect(planGapIssues([waived({ B: 'missing' })], [asIssue(5, openB, 'closed')], settings).update).toEqual([]);

    // Once the waiver has expired the gap counts again and its issue opens.
    const expired = evaluateGate(report({ B: 'missing' }), { framework: 'nist-csf-2', threshold: 0, waivers: [waiver], today: '2027-02-01', failOn: 'coverage' });
    expect(planGapIssues([expired], [], settings).create.map((draft) => draft.key)).toEqual(['nist-csf-2/B']);
  });

  it('caps new issues per run, missing before partial, and defers the rest', () => {
    const plan = planGapIssues([gate({ P1: 'partial', M2: 'missing', M1: 'missing' })], [], { ...settings, maxNewPerRun: 2 });
    expect(plan.create.map((draft) => draft.key)).toEqual(['nist-csf-2/M1', 'nist-csf-2/M2']);
    expect(plan.deferred.map((draft) => draft.key)).toEqual(['nist-csf-2/P1']);
  });

  it('neutralises service text: no mentions, no HTML, no early end of the marker', () => {
    const result = gate({ X: 'missing' });
    const gap = result.gaps[0];
    if (!gap) throw new Error('expected a gap');
    gap.missing = 'cc @security-team and @org/admins <script>alert(1)</script> --> <!-- hidden';
    gap.title = 'Ping @bob';
    const draft = planGapIssues([result], [], settings).create[0];
    expect(draft?.title).toBe('[compliance] X: Ping @\u200Dbob');
    expect(draft?.body).toContain('cc @\u200Dsecurity-team and @\u200Dorg/admins alert(1) --&gt;');
    expect(draft?.body).not.toMatch(/<script|<!-- hidden/);
    expect(draft?.body.match(/-->/g)).toHaveLength(1);
    expect(markerKey(draft?.body)).toBe('nist-csf-2/X');
  });
});

describe('neutralise', () => {
  it('leaves e-mail addresses and comparisons readable', () => {
    expect(neutralise('mail ciso@northwind.example if a < b')).toBe('mail ciso@northwind.example if a &lt; b');
  });

  it('breaks the mention forms GitHub pings: after a second @, after an unclosed backtick, at the start', () => {
    expect(neutralise('ask @@admin-team')).toBe('ask @\u200D@\u200Dadmin-team');
    expect(neutralise('ask `@security-team now')).toBe('ask `@\u200Dsecurity-team now');
    expect(neutralise('@org/admins')).toBe('@\u200Dorg/admins');
  });
});

describe('logText', () => {
  it('keeps a value on one line the runner never reads as a command', () => {
    expect(logText('policies/x\n::error::y.md')).toBe('policies/x\\n:\u200D:error:\u200D:y.md');
    expect(logText('##[warning]y ::: z')).toBe('#\u200D#[warning]y :\u200D:\u200D: z');
    expect(logText('a\r\u001b[2K\u2028b')).toBe('a\\r\\u001b[2K\\u2028b');
    expect(logText('policies/access-control.md: ingested (12:30)')).toBe('policies/access-control.md: ingested (12:30)');
  });
});
