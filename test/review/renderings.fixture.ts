import { buildReviewReport, evaluateGate, type ReviewReport } from '../../review/index.js';
import { report } from './fixtures.js';

export const COMMIT = '0123456789abcdef0123456789abcdef01234567';

/**
 * One framework with every kind of row a rendering has: a covered control with evidence over lines
 * 3-5, a partial gap whose quote names its source but no line, a new missing gap without a control row, a gap an active
 * waiver accepts, a gap whose waiver expired, and an unused waiver, failing its threshold; beside
 * it a framework that passed with nothing to say, its evidence placed nowhere or absent.
 */
export function renderedReport(extra: Partial<Parameters<typeof buildReviewReport>[1]> = {}): ReviewReport {
  const mapped = report({ C1: 'covered', C2: 'partial', C3: 'missing', C4: 'missing', C5: 'partial' });
  mapped.controls[0]!.evidence = [{ quote: 'We encrypt | data', location: { source: 'policies/security.md', section: 'Crypto' }, file: 'policies/security.md', line: 3, endLine: 5 }];
  mapped.controls[1]!.evidence = [{ quote: 'Some words on C2', location: { source: 'policies/a.md' } }];
  const waivers = [
    { framework: 'nist-csf-2', control: 'C4', reason: 'Vendor contract pending', owner: 'sec-team', expires: '2026-06-01' },
    { framework: 'nist-csf-2', control: 'C5', reason: 'Old excuse', owner: 'ops', expires: '2026-05-01' },
    { framework: 'nist-csf-2', control: 'C1', reason: 'No longer needed', owner: 'ops', expires: '2026-12-31' },
  ];
  const options = { framework: 'nist-csf-2', threshold: 70, waivers, today: '2026-06-01', failOn: 'coverage' as const };
  // C3 is a gap the report lists no control row for.
  mapped.controls = mapped.controls.filter((control) => control.id !== 'C3');
  const first = evaluateGate(mapped, options);
  const baseline = new Set(first.gaps.filter((gap) => gap.controlId !== 'C3').map((gap) => gap.key));
  const gated = evaluateGate(mapped, { ...options, baseline });
  const iso = report({ X1: 'covered', X2: 'covered' }, { framework: { slug: 'iso-27001', name: 'ISO 27001', version: '2022' } });
  iso.controls[0]!.evidence = [{ quote: 'Said somewhere', location: {} }];
  iso.controls[1]!.evidence = [];
  const clean = evaluateGate(iso, { ...options, framework: 'iso-27001', threshold: 50, waivers: [] });
  return buildReviewReport([gated, clean], { generatedAt: '2026-06-01T08:00:00Z', repository: 'acme/policies', commit: COMMIT, ...extra });
}
