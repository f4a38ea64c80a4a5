import { describe, expect, it } from 'vitest';
import { buildReviewReport, checkBudget, decideVerdict, evaluateGate, stepOptions, verdictFailsStep, type GateResult } from '../../review/index.js';
import { isUnknownFramework, notEvaluatedVerdict } from '../../review/verdict.js';
import { report } from './fixtures.js';

const waiver = { framework: 'nist-csf-2', control: 'C', reason: 'Vendor contract pending', owner: 'alice', expires: '2027-01-31' };
const gate = (threshold: number, baseline?: Set<string>): GateResult =>
  evaluateGate(report({ A: 'covered', B: 'missing', C: 'missing', D: 'covered' }), {
    framework: 'nist-csf-2', threshold, waivers: [waiver], today: '2026-06-01', failOn: 'new-gaps', ...(baseline ? { baseline } : {}),
  });
const budget = (maxTokens?: number) => checkBudget({ totalTokens: 250_000, lines: [{ operationId: 'mapDocument', count: 1, tokensEach: 250_000 }] }, { mode: 'live', balanceTokens: 1_000_000, ...(maxTokens !== undefined ? { maxTokens } : {}) });
const run = (status: 'completed' | 'refused' | 'unchanged' | 'dry-run', frameworks: GateResult[] = [], extra: Partial<Parameters<typeof decideVerdict>[0]> = {}) =>
  ({ status, mode: 'live' as const, budget: budget(), frameworks, frameworkErrors: [], tokensSpent: status === 'completed' ? 250_000 : 0, ...extra });

describe('decideVerdict: one status with the figures it rests on', () => {
  it('passed: per-framework gaps count only unwaived gaps, like the totals', () => {
    const verdict = decideVerdict(run('completed', [gate(50, new Set(['nist-csf-2/B']))]));
    expect(verdict.status).toBe('passed');
    expect(verdict.passed).toBe(true);
    expect(verdict.reasons).toEqual([]);
    expect(verdict.figures).toMatchObject({ source: 'this run', coverage: 75, gaps: 1, waivedGaps: 1, newGaps: 0, tokensSpent: 250_000, plannedTokens: 250_000 });
    expect(verdict.figures.frameworks).toEqual([
      { key: 'nist-csf-2', name: 'NIST Cybersecurity Framework 2.0', coverage: 50, effectiveCoverage: 75, threshold: 50, gaps: 1, waivedGaps: 1, newGaps: 0, passed: true },
    ]);
  });

  it('failed: below the threshold or on new gaps, with the reasons; a framework that could not be evaluated leaves it not evaluated', () => {
    const verdict = decideVerdict(run('completed', [gate(80, new Set())]));
    expect(verdict.status).toBe('failed');
    expect(verdict.reasons).toEqual([
      'NIST Cybersecurity Framework 2.0: coverage 75% (50% before waivers) is below the threshold of 80%',
      'NIST Cybersecurity Framework 2.0: 1 new gap not in the baseline: B',
    ]);
    const errored = decideVerdict(run('completed', [], { frameworkErrors: [{ framework: 'gdpr', code: 'job_failed', message: 'the job failed' }] }));
    expect(errored).toMatchObject({ status: 'not-evaluated', passed: false, reasons: ['gdpr: not evaluated (the job failed)'] });
    expect(verdictFailsStep(errored, { failBelow: false, failOnRefusal: true })).toBe(true);
    // Not evaluated wins over the other frameworks' answers, and its reason comes first.
    const mixed = decideVerdict(run('completed', [gate(80, new Set())], { frameworkErrors: [{ framework: 'hippa', code: 'framework_not_found', message: 'No framework matches "hippa"' }] }));
    expect(mixed).toMatchObject({ status: 'not-evaluated', passed: false });
    expect(mixed.reasons[0]).toBe('hippa: not evaluated (No framework matches "hippa")');
    expect(verdictFailsStep(verdict, { failBelow: false, failOnRefusal: true })).toBe(false);
    expect(verdictFailsStep(verdict, { failBelow: true, failOnRefusal: true })).toBe(true);
  });

  it('on a gated run no input turns a failed, refused or unevaluated check green, and a dry run fails its step', () => {
    const pullRequest = { gateFromBaseBranch: true, changeRequest: 'pull request' } as const;
    const step = stepOptions(pullRequest, { failBelow: false, failOnRefusal: false, dryRun: true });
    expect(step).toMatchObject({ failBelow: true, failOnRefusal: true, gated: true });
    expect(step.ignored).toEqual([
      'fail-below: false not applied: on a pull request a failed gate fails the step',
      'fail-on-refusal: false not applied: on a pull request a refused check evaluated nothing, so the step fails',
      'dry-run: true evaluates nothing: on a pull request its step fails, not evaluated',
    ]);
    expect(verdictFailsStep(decideVerdict(run('dry-run')), step)).toBe(true);
    expect(verdictFailsStep(decideVerdict(run('completed', [gate(80, new Set())])), step)).toBe(true);
    // On the default branch the inputs apply as given.
    const push = stepOptions({ gateFromBaseBranch: false, changeRequest: 'pull request' }, { failBelow: false, failOnRefusal: false, dryRun: true });
    expect(push).toMatchObject({ failBelow: false, failOnRefusal: false, gated: false, ignored: [] });
    expect(verdictFailsStep(decideVerdict(run('dry-run')), push)).toBe(false);
  });

  it('refused: the plan, the cap and the balance; it fails the step unless asked not to', () => {
    const verdict = decideVerdict(run('refused', [], { budget: budget(100_000) }));
    expect(verdict).toMatchObject({ status: 'refused', passed: false });
    expect(verdict.reasons).toEqual(['refused before spending anything: 1 × mapDocument at 250,000 tokens costs 250,000 tokens, but the cap of 100,000 tokens allows 100,000 tokens more: enough for 0 of the 1 call']);
    expect(verdict.figures).toMatchObject({ plannedTokens: 250_000, maxTokens: 100_000, balanceTokens: 1_000_000, tokensSpent: 0, coverage: undefined, gaps: 0 });
    expect(verdictFailsStep(verdict, { failBelow: true, failOnRefusal: true })).toBe(true);
    expect(verdictFailsStep(verdict, { failBelow: true, failOnRefusal: false })).toBe(false);
  });

  it("unchanged carries the default branch's coverage and gaps", () => {
    const baseline = buildReviewReport([gate(50)], { generatedAt: '2026-06-01T00:00:00Z' });
    const verdict = decideVerdict(run('unchanged'), { baseline });
    expect(verdict).toMatchObject({ status: 'unchanged', passed: true, reasons: [] });
    expect(verdict.figures).toMatchObject({ source: 'baseline', coverage: 75, gaps: 1, waivedGaps: 1, tokensSpent: 0 });
    const failing = buildReviewReport([gate(90)], { generatedAt: '2026-06-01T00:00:00Z' });
    expect(decideVerdict(run('unchanged'), { baseline: failing }).passed).toBe(false);
    expect(verdictFailsStep(decideVerdict(run('unchanged'), { baseline: failing }), { failBelow: true, failOnRefusal: true })).toBe(false);
    const without = decideVerdict(run('unchanged'));
    expect(without.figures).toMatchObject({ source: 'none', coverage: undefined, frameworks: [] });
    expect(without.reasons[0]).toContain('no figures are shown');
  });

  it('skipped: a dry run, saying whether a real run would be refused', () => {
    expect(decideVerdict(run('dry-run')).reasons).toEqual(['dry run: planned and priced, nothing mapped']);
    const over = decideVerdict(run('dry-run', [], { budget: budget(1) }));
    expect(over.status).toBe('skipped');
    expect(over.reasons[0]).toContain('a real run would be refused: 1 × mapDocument at 250,000 tokens costs 250,000 tokens, but the cap of 1 tokens allows 1 tokens more: enough for 0 of the 1 call');
  });

  it('the coverage of several frameworks is the lowest, whichever comes first', () => {
    const low = evaluateGate(report({ A: 'covered', B: 'missing' }), { framework: 'nist-csf-2', threshold: 10, waivers: [], today: '2026-06-01', failOn: 'coverage' });
    expect(decideVerdict(run('completed', [low, gate(50)])).figures.coverage).toBe(50);
    expect(decideVerdict(run('completed', [gate(50), low])).figures.coverage).toBe(50);
  });

  it('a refusal or a dry run over both cap and balance gives every reason, and no figures but the money', () => {
    const both = checkBudget({ totalTokens: 250_000, lines: [{ operationId: 'mapDocument', count: 1, tokensEach: 250_000 }] }, { mode: 'live', balanceTokens: 1_000, maxTokens: 100_000 });
    expect(both.reasons).toHaveLength(2);
    const refused = decideVerdict(run('refused', [gate(50)], { budget: both }));
    expect(refused.reasons).toEqual([`refused before spending anything: ${both.reasons[0]}; ${both.reasons[1]}`]);
    const dryRun = decideVerdict(run('dry-run', [gate(50)], { budget: both }));
    expect(dryRun.reasons).toEqual([`dry run: planned and priced, nothing mapped; a real run would be refused: ${both.reasons[0]}; ${both.reasons[1]}`]);
    for (const verdict of [refused, dryRun]) expect(verdict.figures).toMatchObject({ source: 'none', frameworks: [], coverage: undefined, gaps: 0 });
  });

  it('unchanged carries no framework errors', () => {
    expect(decideVerdict(run('unchanged', [], { frameworkErrors: [{ framework: 'gdpr', code: 'job_failed', message: 'x' }] })).errors).toEqual([]);
  });
});

describe('notEvaluatedVerdict', () => {
  it('never passes, shows no figures and spent nothing; skipped unless told otherwise', () => {
    const figures = { source: 'none', frameworks: [], coverage: undefined, gaps: 0, waivedGaps: 0, newGaps: 0, mode: undefined, plannedTokens: 0, tokensSpent: 0, maxTokens: undefined, balanceTokens: undefined, suggestedPack: undefined };
    expect(notEvaluatedVerdict('no API key on a fork')).toEqual({ status: 'skipped', passed: false, reasons: ['no API key on a fork'], figures, errors: [] });
    expect(notEvaluatedVerdict('no base commit', 'not-evaluated')).toMatchObject({ status: 'not-evaluated', passed: false });
    expect(verdictFailsStep(notEvaluatedVerdict('no base commit', 'not-evaluated'), { failBelow: false, failOnRefusal: false })).toBe(true);
  });
});

describe('isUnknownFramework', () => {
  it('is the service\'s answer to a framework it does not know, under either code, and nothing else', () => {
    expect(isUnknownFramework('framework_not_found')).toBe(true);
    expect(isUnknownFramework('unknown_framework')).toBe(true);
    expect(isUnknownFramework('job_failed')).toBe(false);
    expect(isUnknownFramework('')).toBe(false);
  });
});
