/** The identities gap issues and baselines are found again by (review/keys), and the lines of compliance.yml results point at (review/configLine). */
import { describe, expect, it } from 'vitest';
import { configLine, controlOfGapKey, frameworkKey, frameworkOfGapKey, gapKey, resolvedGapKeys, slugify } from '../../review/index.js';

describe('framework and gap keys', () => {
  it('slugs a name to lower-case words joined by single dashes, and an empty one to "framework"', () => {
    expect(slugify('  NIST CSF 2.0 — Draft ')).toBe('nist-csf-2-0-draft');
    // Compatibility forms fold to their letters (fullwidth, ligatures).
    expect(slugify('ＩＳＯ ﬁle')).toBe('iso-file');
    expect(slugify('--ISO--27001--')).toBe('iso-27001');
    expect(slugify('***')).toBe('framework');
  });

  it('takes the service\'s slug in lower case, else the name\'s, else the configured name\'s', () => {
    expect(frameworkKey({ slug: ' NIST-CSF-2 ', name: 'Other' })).toBe('nist-csf-2');
    expect(frameworkKey({ slug: '  ', name: 'ISO 27001' }, 'configured')).toBe('iso-27001');
    expect(frameworkKey({}, 'HIPAA Security')).toBe('hipaa-security');
    expect(frameworkKey({})).toBe('framework');
  });

  it('encodes a gap key so it is safe in a marker, and reads the framework back from it', () => {
    const key = gapKey('nist/csf', ' PR.AA-01 -->');
    expect(key).toBe('nist%2Fcsf/PR.AA-01%20--%3E');
    expect(frameworkOfGapKey(key)).toBe('nist/csf');
    expect(frameworkOfGapKey('no-slash')).toBe('');
  });
});

describe('configLine', () => {
  const CONFIG = ['frameworks:', '  - framework: "nist.csf"   # the main one', "  - FRAMEWORK: 'iso-27001'", 'threshold: 80'].join('\r\n');

  it('finds a key\'s value, listed, quoted or commented, case-insensitively, as a 1-based line', () => {
    expect(configLine(CONFIG, 'framework', 'nist.csf')).toBe(2);
    expect(configLine(CONFIG, 'framework', 'iso-27001')).toBe(3);
    expect(configLine(CONFIG, 'frameworks', '')).toBe(1);
    expect(configLine(CONFIG, 'threshold', '80')).toBe(4);
  });

  it('matches the value literally and whole, and says nothing without a text or a match', () => {
    expect(configLine(CONFIG, 'framework', 'nistxcsf')).toBeUndefined();
    expect(configLine(CONFIG, 'framework', 'nist')).toBeUndefined();
    expect(configLine('x: a b', 'x', 'a')).toBeUndefined();
    expect(configLine(undefined, 'framework', 'nist.csf')).toBeUndefined();
    expect(configLine('', 'framework', '')).toBeUndefined();
  });
});

describe('gaps resolved against a baseline', () => {
  const hipaa = gapKey('hipaa/security', '164.308(a)(1)');
  const hipaaOther = gapKey('hipaa/security', '164.312 b');
  const soc2 = gapKey('soc2', 'CC6.1');
  const current = [{ framework: { key: 'hipaa/security' }, gaps: [{ key: hipaaOther }] }];

  it('lists the baseline gaps this run no longer has, only of the frameworks it evaluated, sorted', () => {
    // soc2 was not mapped this run: its gap is not resolved, whatever the report says.
    expect(resolvedGapKeys(current, new Set([soc2, hipaaOther, hipaa]))).toEqual([hipaa]);
    expect(resolvedGapKeys(current, new Set([hipaaOther]))).toEqual([]);
    expect(resolvedGapKeys([], new Set([hipaa]))).toEqual([]);
    const both = [...current, { framework: { key: 'soc2' }, gaps: [] }];
    expect(resolvedGapKeys(both, new Set([soc2, hipaa]))).toEqual([hipaa, soc2].sort());
  });

  it('reads the control back out of a gap key, slashes and spaces included', () => {
    expect(controlOfGapKey(hipaa)).toBe('164.308(a)(1)');
    expect(controlOfGapKey(gapKey('a/b', 'x/y z'))).toBe('x/y z');
    expect(frameworkOfGapKey(gapKey('a/b', 'x/y z'))).toBe('a/b');
  });
});
