import { describe, expect, it } from 'vitest';
import { frameworkDetails as detailsSchema } from '../../api/schemas/responses.js';
import { closestFrameworks, findFramework, frameworkDetails, frameworks } from '../../sandbox/catalogue/index.js';

const bySlug = (slug: string) => {
  const f = frameworks.find((x) => x.slug === slug);
  if (!f) throw new Error(`missing ${slug}`);
  return f;
};

describe('catalogue contents', () => {
  it('holds at least 30 real frameworks with unique slugs and complete fields', () => {
    expect(frameworks.length).toBeGreaterThanOrEqual(30);
    expect(new Set(frameworks.map((f) => f.slug)).size).toBe(frameworks.length);
    for (const f of frameworks) {
      expect(f.slug).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      for (const field of [f.name, f.shortName, f.regulator, f.jurisdiction, f.sector, f.appliesTo, f.version, f.description]) {
        expect(field.trim().length, f.slug).toBeGreaterThan(0);
      }
      expect(f.description.length, f.slug).toBeGreaterThan(200);
      expect(f.sourceUrl, f.slug).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
      expect(f.regions.length, f.slug).toBeGreaterThan(0);
      expect(f.topics.length, f.slug).toBeGreaterThanOrEqual(5);
    }
  });

  it('dates every update, newest last, with https links', () => {
    for (const f of frameworks) {
      expect(f.updates.length, f.slug).toBeGreaterThanOrEqual(1);
      expect(f.updates.length, f.slug).toBeLessThanOrEqual(5);
      const dates = f.updates.map((u) => u.date);
      for (const d of dates) expect(Number.isNaN(Date.parse(`${d}T00:00:00Z`)), `${f.slug} ${d}`).toBe(false);
      for (const d of dates) expect(d).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect([...dates].sort(), f.slug).toEqual(dates);
      for (const u of f.updates) if (u.url) expect(u.url).toMatch(/^https:\/\//);
    }
    expect(bySlug('nist-csf-2').updates.map((u) => u.date)).toContain('2024-02-26');
    expect(bySlug('dora').updates.map((u) => u.date)).toContain('2025-01-17');
    expect(bySlug('nis2').updates.map((u) => u.date)).toContain('2024-10-17');
    expect(bySlug('eu-ai-act').updates.map((u) => u.date)).toContain('2024-08-01');
    expect(bySlug('hipaa-security').updates.map((u) => u.date)).toContain('2025-01-06');
  });

  it('gives every verified framework a control set with unique ids and 5–15 keywords per control', () => {
    const verified = frameworks.filter((f) => f.verified);
    expect(verified.map((f) => f.slug).sort()).toEqual(
      ['cis-controls', 'gdpr', 'hipaa-security', 'iso-27001', 'nist-csf-2', 'pci-dss', 'soc-2'].sort(),
    );
    for (const f of frameworks) expect(Boolean(f.controls?.length), f.slug).toBe(f.verified);
    for (const f of verified) {
      const ids = f.controls!.map((c) => c.id);
      expect(new Set(ids).size, f.slug).toBe(ids.length);
      for (const c of f.controls!) {
        expect(c.title.length, c.id).toBeGreaterThan(2);
        expect(c.group.length, c.id).toBeGreaterThan(2);
        expect(c.description.length, c.id).toBeGreaterThan(20);
        expect(c.keywords.length, `${f.slug} ${c.id}`).toBeGreaterThanOrEqual(5);
        expect(c.keywords.length, `${f.slug} ${c.id}`).toBeLessThanOrEqual(15);
        expect(new Set(c.keywords.map((k) => k.toLowerCase())).size, `${f.slug} ${c.id}`).toBe(c.keywords.length);
      }
    }
  });

  it('has NIST CSF 2.0 in full: 6 functions, 22 categories, 106 subcategories', () => {
    const controls = bySlug('nist-csf-2').controls!;
    expect(controls).toHaveLength(106);
    for (const c of controls) expect(c.id).toMatch(/^(GV|ID|PR|DE|RS|RC)\.[A-Z]{2}-\d{2}$/);
    expect(new Set(controls.map((c) => c.id.slice(0, 2))).size).toBe(6);
    expect(new Set(controls.map((c) => c.id.slice(0, 5))).size).toBe(22);
    expect(new Set(controls.map((c) => c.group)).size).toBe(22);
    expect(controls.map((c) => c.id)).toEqual(expect.arrayContaining(['GV.OC-01', 'GV.SC-10', 'ID.AM-08', 'PR.DS-11', 'DE.AE-08', 'RS.MI-02', 'RC.CO-04']));
    expect(controls.map((c) => c.id)).not.toContain('ID.AM-06'); // withdrawn in 2.0
  });

  it('has ISO/IEC 27001:2022 Annex A in full: 93 controls in 4 themes', () => {
    const controls = bySlug('iso-27001').controls!;
    expect(controls).toHaveLength(93);
    const count = (prefix: string) => controls.filter((c) => c.id.startsWith(prefix)).length;
    expect([count('A.5.'), count('A.6.'), count('A.7.'), count('A.8.')]).toEqual([37, 8, 14, 34]);
    expect(controls.find((c) => c.id === 'A.8.34')?.title).toBe('Protection of information systems during audit testing');
  });

  it('has every HIPAA Security Rule standard and implementation specification, marked required or addressable', () => {
    const controls = bySlug('hipaa-security').controls!;
    const ids = controls.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([
      '164.308(a)(1)(ii)(A)', '164.308(a)(5)(ii)(D)', '164.308(a)(7)(ii)(E)', '164.308(b)(3)',
      '164.310(d)(2)(iv)', '164.312(a)(2)(iv)', '164.312(e)(2)(ii)', '164.314(a)(2)(iii)', '164.316(b)(2)(iii)',
    ]));
    for (const c of controls) expect(c.title, c.id).toMatch(/\((Standard|Required|Addressable|Standard; Required)\)$/);
    expect(controls.filter((c) => c.title.endsWith('(Addressable)'))).toHaveLength(22);
    for (const section of ['164.308', '164.310', '164.312', '164.314', '164.316']) {
      expect(ids.some((id) => id.startsWith(section)), section).toBe(true);
    }
  });

  it('covers GDPR Articles 5 to 49', () => {
    const ids = bySlug('gdpr').controls!.map((c) => c.id);
    const articles = new Set(ids.map((id) => Number(/^Art\. (\d+)/.exec(id)?.[1])));
    for (let a = 5; a <= 49; a++) expect(articles.has(a), `Art. ${a}`).toBe(true);
    expect(ids).toEqual(expect.arrayContaining(['Art. 5(1)(f)', 'Art. 28(3)', 'Art. 32(1)(a)', 'Art. 33(1)', 'Art. 35(1)']));
  });

  it('has SOC 2 CC1.1–CC9.2, PCI DSS 12 requirements and CIS Controls 18', () => {
    const soc = bySlug('soc-2').controls!.map((c) => c.id);
    expect(soc.filter((id) => id.startsWith('CC'))).toHaveLength(33);
    expect(soc[0]).toBe('CC1.1');
    expect(soc).toContain('CC9.2');
    const pci = bySlug('pci-dss').controls!;
    expect(new Set(pci.map((c) => c.id.split('.')[0])).size).toBe(12);
    expect(pci.map((c) => c.id)).toEqual(expect.arrayContaining(['8.4', '12.10', '11.6', '3.5']));
    expect(bySlug('cis-controls').controls!.map((c) => c.id)).toEqual(Array.from({ length: 18 }, (_, i) => `CIS ${i + 1}`));
  });

  it('includes synonyms in keywords so evidence mapping recognises common wording', () => {
    const pr = bySlug('nist-csf-2').controls!.find((c) => c.id === 'PR.AA-03')!;
    expect(pr.keywords).toEqual(expect.arrayContaining(['multi-factor authentication', 'MFA', 'two-factor']));
  });
});

describe('findFramework', () => {
  it.each([
    ['NIST CSF 2.0', 'nist-csf-2'],
    ['nist-csf-2', 'nist-csf-2'],
    ['nist csf v2', 'nist-csf-2'],
    ['Cybersecurity Framework', 'nist-csf-2'],
    ['HIPAA', 'hipaa-security'],
    ['hipaa security rule', 'hipaa-security'],
    ['HIPAA Privacy Rule', 'hipaa-privacy'],
    ['GDPR', 'gdpr'],
    ['Regulation (EU) 2016/679', 'gdpr'],
    ['ISO 27001', 'iso-27001'],
    ['ISO/IEC 27001:2022', 'iso-27001'],
    ['iso27001', 'iso-27001'],
    ['PCI DSS v4.0.1', 'pci-dss'],
    ['pci-dss 4.0', 'pci-dss'],
    ['SOC 2 Type II', 'soc-2'],
    ['soc2', 'soc-2'],
    ['CIS Controls v8.1', 'cis-controls'],
    ['UK GDPR', 'uk-gdpr'],
    ['CPRA', 'ccpa'],
    ['23 NYCRR 500', 'nydfs-500'],
    ['EU AI Act', 'eu-ai-act'],
    ['  dora  ', 'dora'],
  ])('%s → %s', (name, slug) => {
    expect(findFramework(name)?.slug).toBe(slug);
  });

  it('returns undefined for unknown names', () => {
    expect(findFramework('ISO 9001')).toBeUndefined();
    expect(findFramework('')).toBeUndefined();
    expect(findFramework('made up act')).toBeUndefined();
  });
});

describe('closestFrameworks', () => {
  it('suggests verified frameworks close to an unverified or misspelt name', () => {
    expect(closestFrameworks('UK GDPR', { verifiedOnly: true })[0]?.slug).toBe('gdpr');
    expect(closestFrameworks('HIPAA Privacy Rule', { verifiedOnly: true })[0]?.slug).toBe('hipaa-security');
    expect(closestFrameworks('ISO 27701', { verifiedOnly: true })[0]?.slug).toBe('iso-27001');
    expect(closestFrameworks('nist csf2.0x')[0]?.slug).toBe('nist-csf-2');
    for (const f of closestFrameworks('anything', { verifiedOnly: true, limit: 5 })) expect(f.verified).toBe(true);
    expect(closestFrameworks('gdpr', { limit: 2 })).toHaveLength(2);
  });
});

describe('frameworkDetails', () => {
  it('matches the response schema, with controls for verified frameworks', () => {
    for (const f of frameworks) {
      const details = frameworkDetails(f);
      expect(detailsSchema.safeParse(details).success, f.slug).toBe(true);
      expect(Array.isArray(details.controls), f.slug).toBe(f.verified);
    }
    const csf = frameworkDetails(findFramework('nist-csf-2')!);
    expect(csf.controlCount).toBe(106);
    expect((csf.controlGroups as unknown[]).length).toBe(22);
    expect(csf.lastUpdated).toBe('2024-02-26');
  });
});
