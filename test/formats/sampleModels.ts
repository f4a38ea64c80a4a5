import type { DocumentModel } from '../../sandbox/documentModel.js';

export const WATERMARK = 'SANDBOX \u2013 sample output, not for compliance use';
export const BODY_SENTENCE = 'Access to production systems is granted on the principle of least privilege.';

/** A realistic generated policy with every kind of block, including characters outside WinAnsi and XML/markdown specials. */
export function samplePolicy(extraSections = 0): DocumentModel {
  const sections: DocumentModel['sections'] = [
    {
      heading: 'Purpose & scope',
      paragraphs: [
        BODY_SENTENCE,
        'This policy applies to all employees, contractors and \u201cthird parties\u201d who handle data of Acme <Health> Ltd \u2014 including data in backups.',
      ],
      bullets: ['Production databases', 'Cloud consoles (AWS, Azure)', 'Source code | CI pipelines'],
    },
    {
      heading: 'Controls',
      paragraphs: ['The following controls implement this policy.'],
      table: [
        ['Control', 'Title', 'Owner'],
        ['PR.AA-01', 'Identities and credentials for authorized users are managed by the organization', 'IT Security'],
        ['PR.AA-05', 'Access permissions, entitlements and authorizations are defined in a policy, managed, enforced and reviewed', 'CISO'],
      ],
    },
  ];
  for (let i = 1; i <= extraSections; i++) {
    sections.push({
      heading: `Additional requirement ${i}`,
      paragraphs: [
        `Requirement ${i}: reviews are performed quarterly by the system owner, and the results are recorded in the access review register with evidence of remediation.`,
        'Exceptions require written approval of the information security officer and are reviewed at least annually.',
      ],
      bullets: [`Evidence item ${i}.a`, `Evidence item ${i}.b`],
    });
  }
  return {
    title: 'Access Control Policy \u2014 Acme Health',
    subtitle: 'Policy document generated for NIST CSF 2.0',
    watermark: WATERMARK,
    meta: [
      ['Framework', 'NIST Cybersecurity Framework 2.0'],
      ['Organisation', 'Acme Health Ltd (Z\u00fcrich)'],
      ['Generated', '2025-03-01T10:00:00Z'],
    ],
    sections,
  };
}
