import { describe, expect, it } from 'vitest';
import { documentTypeInfo } from '../../api/schemas/responses.js';
import { findFramework, frameworks } from '../../sandbox/catalogue/index.js';
import { documentTypes, generateDocumentModel, SANDBOX_WATERMARK, type GenerationInput } from '../../sandbox/generation/index.js';
import type { DocumentModel } from '../../sandbox/documentModel.js';

const fw = (name: string) => {
  const f = findFramework(name);
  if (!f) throw new Error(name);
  return f;
};

const base = (overrides: Partial<GenerationInput> = {}): GenerationInput => ({
  framework: fw('HIPAA'),
  type: 'access_control_policy',
  organisation: { name: 'Acme Health Ltd', sector: 'healthcare', country: 'United States' },
  context: 'Two clinics and a telehealth app serving 40,000 patients.',
  mode: 'sandbox',
  generatedOn: '2025-03-14',
  ...overrides,
});

const allText = (doc: DocumentModel) =>
  [doc.title, doc.subtitle ?? '', ...doc.meta.flat(), ...doc.sections.flatMap((s) => [s.heading, ...s.paragraphs, ...(s.bullets ?? []), ...(s.table ?? []).flat()])].join('\n');

describe('documentTypes', () => {
  it('lists framework_reference and realistic policy types with unique ids', () => {
    const ids = documentTypes.map((d) => d.id);
    expect(ids[0]).toBe('framework_reference');
    expect(ids).toEqual(expect.arrayContaining([
      'information_security_policy', 'access_control_policy', 'incident_response_plan', 'data_protection_policy',
      'business_continuity_plan', 'risk_management_policy', 'vendor_management_policy', 'acceptable_use_policy',
      'data_retention_policy', 'change_management_policy', 'security_awareness_training_policy',
    ]));
    expect(new Set(ids).size).toBe(ids.length);
    for (const d of documentTypes) expect(documentTypeInfo.safeParse(d).success).toBe(true);
  });
});

describe('generateDocumentModel', () => {
  it('builds a personalised policy with the expected sections, citing control ids', () => {
    const doc = generateDocumentModel(base());
    expect(doc.title).toBe('Access Control Policy – Acme Health Ltd');
    expect(Object.fromEntries(doc.meta)).toMatchObject({ Organisation: 'Acme Health Ltd', Sector: 'healthcare', Jurisdiction: 'United States', Generated: '2025-03-14' });
    const headings = doc.sections.map((s) => s.heading);
    for (const h of ['1. Purpose', '2. Scope', '3. Roles and responsibilities', '4. Policy statements', '5. Procedures', '6. Exceptions and enforcement', '7. Review and approval']) {
      expect(headings).toContain(h);
    }
    const text = allText(doc);
    expect(text).toContain('164.312(a)(2)(i)');
    expect(text).toContain('164.312(d)');
    expect(text).toContain('Two clinics and a telehealth app');
    expect(text).toContain('healthcare sector');
    expect(text).not.toMatch(/\{(Org|org|we|org's)\}/);
  });

  it('generates every document type for every verified framework', () => {
    for (const f of frameworks.filter((x) => x.verified)) {
      for (const t of documentTypes) {
        const doc = generateDocumentModel(base({ framework: f, type: t.id }));
        expect(doc.sections.length, `${f.slug} ${t.id}`).toBeGreaterThan(4);
        expect(allText(doc)).not.toMatch(/\{(Org|org|we|org's)\}|undefined/);
      }
    }
  });

  it('builds a framework reference with every control in family tables and dated updates', () => {
    const doc = generateDocumentModel(base({ framework: fw('NIST CSF 2.0'), type: 'framework_reference' }));
    expect(doc.title).toBe('NIST CSF 2.0 Framework Reference – Acme Health Ltd');
    const rows = doc.sections.filter((s) => /^4\.\d+ /.test(s.heading)).flatMap((s) => (s.table ?? []).slice(1));
    expect(rows).toHaveLength(106);
    const text = allText(doc);
    expect(text).toContain('https://www.nist.gov/cyberframework');
    expect(text).toContain('2024-02-26');
    expect(text).toContain('National Institute of Standards and Technology');
  });

  it('handles unverified frameworks and notes a jurisdiction mismatch', () => {
    const doc = generateDocumentModel(base({ framework: fw('DORA'), type: 'incident_response_plan', jurisdiction: 'Canada' }));
    const text = allText(doc);
    expect(text).toMatch(/does not hold a verified control set for DORA/);
    expect(text).toMatch(/confirm this with legal counsel/);
    const ref = generateDocumentModel(base({ framework: fw('CCPA'), type: 'framework_reference' }));
    expect(allText(ref)).toContain('2023-01-01');
  });

  it('is deterministic for identical input', () => {
    const a = generateDocumentModel(base({ humanize: true }));
    const b = generateDocumentModel(base({ humanize: true }));
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
  });

  it('personalises by company, sector and jurisdiction fields as well as organisation', () => {
    const doc = generateDocumentModel({
      framework: fw('GDPR'), type: 'data_protection_policy', company: 'Nordlicht GmbH', sector: 'retail', jurisdiction: 'Germany',
      mode: 'live', generatedOn: '2025-01-01',
    });
    expect(doc.title).toBe('Data Protection Policy – Nordlicht GmbH');
    const text = allText(doc);
    expect(text).toContain('Nordlicht GmbH');
    expect(text).toContain('retail sector');
    expect(text).toContain('Germany');
    expect(text).toContain('Art. 35(1)');
    const anonymous = generateDocumentModel({ framework: fw('GDPR'), type: 'data_protection_policy', mode: 'live', generatedOn: '2025-01-01' });
    expect(anonymous.title).toBe('Data Protection Policy');
    expect(allText(anonymous)).toContain('the Organisation');
  });

  it('writes plainer wording with humanize', () => {
    const formal = allText(generateDocumentModel(base()));
    const plain = allText(generateDocumentModel(base({ humanize: true })));
    expect(formal).toMatch(/\bshall\b/);
    expect(plain).not.toMatch(/\bshall\b/);
    expect(plain).toMatch(/\bwe will\b|\bWe must\b|\bour\b/);
    expect(plain).not.toEqual(formal);
  });

  it('watermarks sandbox output and leaves live output unmarked', () => {
    const sandbox = generateDocumentModel(base());
    expect(sandbox.watermark).toBe(SANDBOX_WATERMARK);
    expect(sandbox.sections[0]?.heading).toBe('Sandbox sample');
    expect(sandbox.sections[0]?.paragraphs.join(' ')).toContain(SANDBOX_WATERMARK);
    const live = generateDocumentModel(base({ mode: 'live' }));
    expect(live.watermark).toBeUndefined();
    expect(allText(live)).not.toContain(SANDBOX_WATERMARK);
    expect(live.sections[0]?.heading).toBe('1. Purpose');
  });

  it('rejects an unknown document type', () => {
    expect(() => generateDocumentModel(base({ type: 'poem' }))).toThrow(/unknown document type/);
  });
});
