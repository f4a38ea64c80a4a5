/**
 * The evidence mapping on policies it was not written for: the hand-labelled evaluation set
 * (test/fixtures/evaluation, labels committed before the mapping was tuned) and the figures issue 14
 * names. bench/mappingEval.ts reports the same figures.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mapText } from '../../sandbox/mapping/index.js';
import { evaluate, HOLDOUT2_UNTOUCHED, loadEvaluationPolicy, loadLabels, mappingFramework, policySet } from '../fixtures/evaluation/evaluate.js';
import { combinedPolicySet, loadPolicies, loadUnrelated } from '../fixtures/policies/corpus.js';

const labels = loadLabels();
const scores = evaluate();

function examplesSet(): string {
  const dir = join('examples', 'policies');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `=== FILE: policies/${f} ===\n${readFileSync(join(dir, f), 'utf8')}`)
    .join('\n');
}

describe('evidence mapping on the independent evaluation set', () => {
  it('is a set of at least 12 policies of 800 to 20,000 characters labelled for four frameworks', () => {
    const files = Object.keys(labels);
    expect(files.length).toBeGreaterThanOrEqual(12);
    for (const file of files) expect(loadEvaluationPolicy(file).length, file).toBeGreaterThanOrEqual(800);
    for (const file of files) expect(loadEvaluationPolicy(file).length, file).toBeLessThanOrEqual(20_000);
    expect(new Set(files.flatMap((f) => Object.keys(labels[f]!))).size).toBeGreaterThanOrEqual(4);
    for (const file of files) for (const list of Object.values(labels[file]!)) for (const label of list) expect(label.why.length, `${file} ${label.id}`).toBeGreaterThan(3);
  });

  it.each(scores.map((s) => [s.framework, s] as const))('%s: precision at least 0.8 and recall at least 0.7', (_framework, score) => {
    expect(score.labelled).toBeGreaterThan(0);
    expect(score.precision, `claimed without a label: ${score.falsePositives.join(', ')}`).toBeGreaterThanOrEqual(0.8);
    expect(score.recall, `labelled but missed: ${score.falseNegatives.join(', ')}`).toBeGreaterThanOrEqual(0.7);
  });

  it('finds at least 40% of the held-out labels on policies written after tuning (a regression floor, not the target)', () => {
    // Measured when the held-out set was added: recall NIST 0.50, HIPAA 0.47, ISO 0.64 (the phrase
    // mapping before: 0.00, 0.11, 0.29); precision 0.56, 0.60, 0.75. After the generalisation work
    // (holdout2): recall 0.70, 0.53, 0.79; precision 0.70, 0.77, 0.73. bench/mappingEval.ts reports them.
    const heldOut = evaluate(undefined, 'holdout-labels.json');
    expect(heldOut.map((s) => s.framework).sort()).toEqual(['hipaa-security', 'iso-27001', 'nist-csf-2']);
    for (const score of heldOut) expect(score.recall, `${score.framework} missed: ${score.falseNegatives.join(', ')}`).toBeGreaterThanOrEqual(0.4);
  });

  it('has a second held-out set: two policies per framework, 800 to 15,000 characters, half kept untouched by tuning', () => {
    const second = loadLabels(undefined, 'holdout2-labels.json');
    const files = Object.keys(second);
    expect(files.length).toBeGreaterThanOrEqual(8);
    for (const file of files) expect(loadEvaluationPolicy(file).length, file).toBeGreaterThanOrEqual(800);
    for (const file of files) expect(loadEvaluationPolicy(file).length, file).toBeLessThanOrEqual(15_000);
    const perFramework = new Map<string, number>();
    for (const file of files) for (const slug of Object.keys(second[file]!)) perFramework.set(slug, (perFramework.get(slug) ?? 0) + 1);
    expect(Object.fromEntries(perFramework)).toEqual({ 'nist-csf-2': 2, 'hipaa-security': 2, 'iso-27001': 2, 'soc-2': 2 });
    for (const file of HOLDOUT2_UNTOUCHED) expect(files).toContain(file);
    for (const file of files) for (const list of Object.values(second[file]!)) for (const label of list) expect(label.why.length, `${file} ${label.id}`).toBeGreaterThan(3);
  });

  it('keeps the second held-out set above a regression floor (recall 0.6, precision 0.5 per framework; not the target)', () => {
    // Measured when the generalisation work ended (README.md in the fixture folder): precision / recall
    // NIST 0.58/0.83, HIPAA 0.79/0.81, ISO 0.77/0.83, SOC 2 0.71/0.94 over both halves; before it
    // 0.45/0.57, 0.68/0.70, 0.72/0.62, 0.70/0.88.
    for (const score of evaluate(undefined, 'holdout2-labels.json')) {
      expect(score.recall, `${score.framework} missed: ${score.falseNegatives.join(', ')}`).toBeGreaterThanOrEqual(0.6);
      expect(score.precision, `${score.framework} claimed: ${score.falsePositives.join(', ')}`).toBeGreaterThanOrEqual(0.5);
    }
  });

  it('recognises a unique managed identity and MFA in words the catalogue does not use (PR.AA-01, PR.AA-03)', () => {
    const report = mapText({ text: policySet(['nist/access-control-standard.md']), framework: mappingFramework('nist-csf-2') });
    const identities = report.controls.find((c) => c.id === 'PR.AA-01')!;
    expect(identities.status).toBe('covered');
    expect(identities.evidence.map((e) => e.quote).join(' ')).toMatch(/unique identity in our central directory/);
    expect(identities.evidence[0]!.location.source).toBe('policies/nist/access-control-standard.md');
    expect(report.controls.find((c) => c.id === 'PR.AA-03')!.evidence.map((e) => e.quote).join(' ')).toMatch(/Multi-factor authentication is required for remote access/);
  });

  it('puts a policy set on three areas of NIST CSF 2.0 between 25% and 50%', () => {
    const files = ['nist/access-control-standard.md', 'nist/incident-response-procedure.md', 'nist/keeping-the-lights-on.md'];
    const report = mapText({ text: policySet(files), framework: mappingFramework('nist-csf-2') });
    expect(report.coverage).toBeGreaterThanOrEqual(25);
    expect(report.coverage).toBeLessThanOrEqual(50);
  });

  it.each(['sourdough-recipe.md', 'football-match-report.md'] as const)('keeps unrelated text (%s) at or under 5 percent on every framework', (file) => {
    for (const slug of ['hipaa-security', 'nist-csf-2', 'iso-27001', 'soc-2', 'gdpr', 'pci-dss', 'cis-controls']) {
      expect(mapText({ text: loadUnrelated(file), framework: mappingFramework(slug) }).coverage, slug).toBeLessThanOrEqual(5);
    }
  });

  it("keeps the repository's own HIPAA figures within 10 points of before (examples 86.2%, test fixtures 93.1%)", () => {
    const hipaa = mappingFramework('hipaa-security');
    expect(Math.abs(mapText({ text: examplesSet(), framework: hipaa }).coverage - 86.2)).toBeLessThanOrEqual(10);
    expect(Math.abs(mapText({ text: combinedPolicySet(loadPolicies()), framework: hipaa }).coverage - 93.1)).toBeLessThanOrEqual(10);
  });

  it('maps the examples against a framework well under a second', () => {
    const text = examplesSet();
    mapText({ text, framework: mappingFramework('nist-csf-2') });
    const started = performance.now();
    mapText({ text, framework: mappingFramework('nist-csf-2') });
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
