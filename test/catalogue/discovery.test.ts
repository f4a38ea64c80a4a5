import { describe, expect, it } from 'vitest';
import { suggestResult } from '../../api/schemas/responses.js';
import { suggestFrameworks } from '../../sandbox/catalogue/index.js';
import { SANDBOX_WATERMARK } from '../../sandbox/generation/index.js';

const top = (input: Parameters<typeof suggestFrameworks>[0], mode: 'sandbox' | 'live' = 'live') =>
  suggestFrameworks(input, mode).candidates.map((c) => c.slug);

describe('suggestFrameworks ranking', () => {
  it('puts HIPAA first for health data in the US', () => {
    expect(top({ query: 'health data in the US' })[0]).toMatch(/^hipaa-/);
    expect(top({ query: 'patient records', jurisdiction: 'United States' })[0]).toMatch(/^hipaa-/);
  });

  it('puts GDPR first for EU personal data', () => {
    expect(top({ query: 'EU personal data' })[0]).toBe('gdpr');
    expect(top({ query: 'customer personal data', jurisdiction: 'European Union' })[0]).toBe('gdpr');
    expect(top({ query: 'personal data', jurisdiction: 'Germany' })[0]).toBe('gdpr');
    expect(top({ query: 'personal data', jurisdiction: 'UK' })[0]).toBe('uk-gdpr');
  });

  it('puts PCI DSS first for card payments', () => {
    expect(top({ query: 'card payments' })[0]).toBe('pci-dss');
    expect(top({ query: 'we take credit card payments on our e-commerce checkout' })[0]).toBe('pci-dss');
  });

  it('puts NIST CSF first for "cybersecurity framework"', () => {
    expect(top({ query: 'cybersecurity framework' })[0]).toBe('nist-csf-2');
  });

  it('ranks by regulator', () => {
    const slugs = top({ regulator: 'HHS' });
    expect(slugs.slice(0, 2).sort()).toEqual(['hipaa-privacy', 'hipaa-security']);
    expect(top({ regulator: 'FTC' }).slice(0, 2).sort()).toEqual(['coppa', 'glba-safeguards']);
    expect(top({ regulator: "Information Commissioner's Office" })[0]).toBe('uk-gdpr');
  });

  it('returns a jurisdiction\'s frameworks for a jurisdiction-only request', () => {
    const result = suggestFrameworks({ jurisdiction: 'California' }, 'live');
    expect(result.candidates[0]?.slug).toBe('ccpa');
    expect(result.candidates.length).toBeGreaterThan(1);
    expect(result.warnings.join(' ')).toMatch(/Only a jurisdiction was given/);
    expect(top({ jurisdiction: 'New York', query: 'bank' })[0]).toBe('nydfs-500');
  });

  it('ranks direct name mentions highest, with high confidence', () => {
    const r = suggestFrameworks({ query: 'We need SOC 2 Type II for enterprise customers' }, 'live');
    expect(r.candidates[0]?.slug).toBe('soc-2');
    expect(r.candidates[0]!.confidence).toBeGreaterThanOrEqual(0.85);
    expect(r.candidates[0]!.reasoning).toMatch(/names it directly/);
    expect(top({ query: 'HITRUST CSF' })[0]).toBe('hitrust-csf');
  });

  it('handles further realistic requests', () => {
    expect(top({ query: 'mobile app for children under 13' })[0]).toBe('coppa');
    expect(top({ query: 'defense contractor handling CUI' }).slice(0, 2).sort()).toEqual(['cmmc', 'nist-sp-800-171']);
    expect(top({ query: 'AI model governance', jurisdiction: 'EU' })[0]).toBe('eu-ai-act');
    expect(top({ query: 'student records', domain: 'education' })[0]).toBe('ferpa');
    expect(top({ query: 'ICT risk for an investment firm', jurisdiction: 'EU' })[0]).toBe('dora');
  });

  it('calibrates confidence: direct high, topical medium, monotonic down the ranking', () => {
    const direct = suggestFrameworks({ query: 'GDPR' }, 'live').candidates[0]!;
    const topical = suggestFrameworks({ query: 'card payments' }, 'live').candidates[0]!;
    const jurisdictionOnly = suggestFrameworks({ jurisdiction: 'California' }, 'live').candidates[0]!;
    expect(direct.confidence).toBeGreaterThan(0.85);
    expect(topical.confidence).toBeGreaterThan(0.4);
    expect(topical.confidence).toBeLessThan(0.85);
    expect(jurisdictionOnly.confidence).toBeLessThan(topical.confidence);
    for (const q of ['health data in the US', 'EU personal data', 'security', 'cloud SaaS']) {
      const cs = suggestFrameworks({ query: q }, 'live').candidates;
      cs.forEach((c, i) => {
        expect(c.rank).toBe(i + 1);
        expect(c.confidence).toBeGreaterThanOrEqual(0);
        expect(c.confidence).toBeLessThanOrEqual(1);
        if (i > 0) expect(c.confidence).toBeLessThanOrEqual(cs[i - 1]!.confidence);
      });
      expect(cs.length).toBeLessThanOrEqual(10);
    }
  });

  it('explains each candidate with the terms that matched', () => {
    const c = suggestFrameworks({ query: 'health data in the US' }, 'live').candidates[0]!;
    expect(c.reasoning).toMatch(/health data/);
    expect(c.reasoning).toMatch(/United States/);
    const mismatch = suggestFrameworks({ query: 'bank', jurisdiction: 'New York' }, 'live').candidates;
    for (const m of mismatch) expect(m.reasoning.length).toBeGreaterThan(20);
  });

  it('returns candidates in the response schema shape', () => {
    const r = suggestFrameworks({ query: 'health data in the US' }, 'sandbox');
    expect(suggestResult.safeParse({ mode: 'sandbox', ...r }).success).toBe(true);
    for (const c of r.candidates) expect(c.sourceUrl).toMatch(/^https:\/\//);
  });
});

describe('suggestFrameworks warnings', () => {
  it('warns about a single vague word', () => {
    const r = suggestFrameworks({ query: 'security' }, 'live');
    expect(r.candidates.length).toBeGreaterThan(0);
    expect(r.warnings.join(' ')).toMatch(/single broad term/);
  });

  it('warns when no jurisdiction is given', () => {
    expect(suggestFrameworks({ query: 'card payments' }, 'live').warnings.join(' ')).toMatch(/No jurisdiction/);
    expect(suggestFrameworks({ query: 'card payments', jurisdiction: 'US' }, 'live').warnings.join(' ')).not.toMatch(/No jurisdiction/);
  });

  it('says so when nothing matches, and suggests what to add', () => {
    const r = suggestFrameworks({ query: 'xyzzy plugh' }, 'live');
    expect(r.candidates).toEqual([]);
    expect(r.warnings.join(' ')).toMatch(/No framework in the catalogue matched "xyzzy plugh"/);
    expect(r.warnings.join(' ')).toMatch(/jurisdiction/);
  });

  it('flags an unrecognised jurisdiction and regulator', () => {
    const r = suggestFrameworks({ query: 'personal data', jurisdiction: 'Atlantis', regulator: 'Ministry of Magic' }, 'live');
    const text = r.warnings.join(' ');
    expect(text).toMatch(/Jurisdiction "Atlantis" was not recognised/);
    expect(text).toMatch(/"Ministry of Magic"/);
  });

  it('marks sandbox output as sample and live output not', () => {
    expect(suggestFrameworks({ query: 'GDPR' }, 'sandbox').warnings.join(' ')).toContain(SANDBOX_WATERMARK);
    expect(suggestFrameworks({ query: 'GDPR' }, 'live').warnings.join(' ')).not.toContain(SANDBOX_WATERMARK);
  });

  it('is deterministic', () => {
    const input = { query: 'SaaS startup with health data', jurisdiction: 'US', description: 'telehealth app' };
    expect(JSON.stringify(suggestFrameworks(input, 'sandbox'))).toBe(JSON.stringify(suggestFrameworks({ ...input }, 'sandbox')));
  });
});
