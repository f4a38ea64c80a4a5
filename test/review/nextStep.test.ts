/** review/'s one-line next step after a failed gate, the same for every surface. */
import { describe, expect, it } from 'vitest';
import { nextStep, type GateResult } from '../../review/gate.js';

function gate(overrides: Partial<GateResult>): GateResult {
  return {
    framework: { key: 'hipaa', name: 'HIPAA Security Rule', slug: 'hipaa-security', version: undefined, configured: 'hipaa-security' },
    passed: false, coverage: 40, effectiveCoverage: 42.7, threshold: 80, failOn: 'coverage',
    summary: { controls: 10, covered: 4, partial: 0, missing: 6 }, controls: [], gaps: [], expiredWaivers: [], unusedWaivers: [], newGaps: [],
    reasons: ['coverage'], warnings: [], jobIds: [],
    ...overrides,
  } as GateResult;
}

describe('nextStep', () => {
  it('none when every gate passed', () => {
    expect(nextStep([gate({ passed: true, effectiveCoverage: 90 })])).toBeUndefined();
  });
  it('below the threshold: close the gaps, or start at the coverage reached today (rounded down)', () => {
    expect(nextStep([gate({ passed: true, effectiveCoverage: 90 }), gate({})], 'ops/compliance.yml')).toBe(
      "Next: add what the gaps above say is missing to your documents and review again, or set HIPAA Security Rule (hipaa-security)'s threshold in ops/compliance.yml from 80% to 42% for now and raise it as the documents grow.",
    );
  });
  it('new gaps: close them or make this run the baseline; expired waivers: renew them', () => {
    expect(nextStep([gate({ effectiveCoverage: 90, newGaps: [{} as GateResult['newGaps'][number]] })])).toMatch(/^Next: close the 1 new gap\(s\) .* --baseline report\.json\)\.$/);
    expect(nextStep([gate({ effectiveCoverage: 90 })])).toBe('Next: close the gaps of HIPAA Security Rule (hipaa-security) above, or renew their expired waivers in compliance.yml.');
  });
  it('at the threshold exactly the coverage is not what failed; without a config path none is named', () => {
    expect(nextStep([gate({ effectiveCoverage: 80, newGaps: [{} as GateResult['newGaps'][number]] })])).toMatch(/^Next: close the 1 new gap\(s\)/);
    expect(nextStep([gate({})])).toBe(
      "Next: add what the gaps above say is missing to your documents and review again, or set HIPAA Security Rule (hipaa-security)'s threshold from 80% to 42% for now and raise it as the documents grow.",
    );
  });
});
