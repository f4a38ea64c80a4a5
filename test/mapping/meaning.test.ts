/**
 * Credit needs meaning, not a word (issue 26): the sentences the issue quotes from real procedures,
 * each beside the statement that does evidence the control, so every assertion can fail either way.
 */
import { describe, expect, it } from 'vitest';
import { mapText, type MappingResult } from '../../sandbox/mapping/index.js';
import { mappingFramework } from '../fixtures/evaluation/evaluate.js';

function credited(slug: string, text: string): MappingResult['controls'] {
  return mapText({ text, framework: mappingFramework(slug) }).controls.filter((c) => c.status !== 'missing');
}
const ids = (slug: string, text: string): string[] => credited(slug, text).map((c) => c.id);

describe('a single ambiguous word never credits a control on its own', () => {
  it.each([
    ['soc-2', 'Conduct a thorough investigation of the incident.', 'CC1.1', 'All employees sign the code of conduct and commit to ethical values.'],
    [
      'hipaa-security',
      'MFA is a standard control used by Acme to provide strong access control to critical systems and applications, and should be enabled whenever possible.',
      '164.308(a)(7)(ii)(E)',
      'We perform a criticality analysis of applications and data to prioritise restoration.',
    ],
    ['hipaa-security', 'The whistleblower’s identity may have to be disclosed to conduct a thorough investigation.', '164.312(a)(2)(i)', 'Every user has a unique user ID; shared accounts are forbidden.'],
  ])('%s: "%s" does not credit %s; the real statement does', (slug, ambiguous, id, meant) => {
    expect(ids(slug, ambiguous)).not.toContain(id);
    expect(ids(slug, meant)).toContain(id);
  });

  it.each([
    ['Once the review is completed, the Security Officer approves or rejects the Issue.', 'CC6.2', 'Access is approved by the manager before credentials are issued to the new hire.'],
    ['Regular status reporting of the plan, along with key metrics and success indicators should be reported to Senior Management.', 'CC6.4', 'Badge access to the data centre is restricted to authorised staff.'],
    ['Significant findings shall be reported immediately in a written format.', 'CC7.1', 'Vulnerability scan findings are remediated within 30 days.'],
    ['The Security Officer initiates the audit activity by creating an Issue in the ticketing system.', 'CC6.2', 'Accounts are created only after an approved access request ticket.'],
  ])('SOC 2: "%s" (a ticket "Issue", "key metrics", audit "findings", "creating" a ticket) does not credit %s; the real statement does', (ambiguous, id, meant) => {
    expect(ids('soc-2', ambiguous)).not.toContain(id);
    expect(ids('soc-2', meant)).toContain(id);
  });

  it('a paraphrase reduced to "security" by its boilerplate words is no intent: a security architecture is not ISO A.8.26 (application security requirements)', () => {
    expect(ids('iso-27001', "A security architecture encompasses all of Acme's operations and provides high data confidentiality, integrity and availability.")).not.toContain('A.8.26');
    expect(ids('iso-27001', 'Security requirements for new features are specified and approved before development starts.')).toContain('A.8.26');
  });

  it('may complete a statement two other ideas carry: "the yearly review" of the policy is its periodic review (164.316(b)(2)(iii))', () => {
    expect(ids('hipaa-security', 'The Security Officer keeps this policy current and leads the yearly review.')).toContain('164.316(b)(2)(iii)');
  });

  it('the whistleblower sentence credits no identity control in ISO 27001 or HIPAA', () => {
    const text = 'The whistleblower’s identity may have to be disclosed to conduct a thorough investigation.';
    expect(ids('iso-27001', text)).toEqual([]);
    expect(ids('hipaa-security', text)).toEqual([]);
  });

  it('nor does the procedure\'s whole sentence, whose "accused individuals" are not unique identities (ISO A.5.16)', () => {
    const text = 'However, identity may have to be disclosed to conduct a thorough investigation, to comply with the law, and to provide accused individuals their legal rights of defense.';
    expect(ids('iso-27001', text)).not.toContain('A.5.16');
    expect(ids('iso-27001', 'Each person has a unique account; shared accounts are not allowed.')).toContain('A.5.16');
  });

  it('"reviews and analyzes the security events" is evidence for SOC 2 CC7.3 (evaluating security events), quoted', () => {
    const sentence = 'The IRT reviews and analyzes the security events as part of its daily operations.';
    const cc73 = credited('soc-2', sentence).find((c) => c.id === 'CC7.3');
    expect(cc73?.evidence.map((e) => e.quote)).toEqual([sentence]);
    // Incidents and analyses named in passing are not the evaluation of security events.
    for (const other of ['Lessons learned from incidents, audits and exercises are fed back into the risk analysis.', 'Incident reports and risk analyses are kept as documentation in electronic form.']) {
      expect(ids('soc-2', other), other).not.toContain('CC7.3');
    }
  });
});

describe('delegation to a provider', () => {
  const delegation = 'Physical security of data centers is ensured by the cloud infrastructure service provider, AWS.';

  it('is reported partial, never covered, with the delegation quoted', () => {
    const controls = credited('hipaa-security', delegation);
    expect(controls.map((c) => c.id)).toContain('164.310(a)(1)');
    for (const control of controls) {
      expect(control.status, control.id).toBe('partial');
      expect(control.evidence.map((e) => e.quote)).toEqual([delegation]);
    }
  });

  it('is covered when the organisation states it operates the control itself', () => {
    const own = credited('hipaa-security', 'Badge access controls every door of our data center and visitors are escorted.');
    expect(own.find((c) => c.id === '164.310(a)(1)')?.status).toBe('covered');
  });

  it('a delegation that names only who holds it ("security is managed by our provider") credits nothing', () => {
    expect(ids('hipaa-security', 'Security is ensured by our cloud provider.')).toEqual([]);
  });
});

describe('negation and scope', () => {
  it.each([
    'Backups of ePHI are not encrypted.',
    'Encryption of ePHI at rest does not apply to us.',
    'Encryption of ePHI at rest is out of scope.',
    'Acme has no encrypted backups of ePHI.',
  ])('"%s" is no evidence of encryption', (sentence) => {
    expect(ids('hipaa-security', sentence)).not.toContain('164.312(a)(2)(iv)');
  });

  it('the affirmative statement is evidence of encryption', () => {
    expect(ids('hipaa-security', 'Backups of ePHI are encrypted with AES-256.')).toContain('164.312(a)(2)(iv)');
  });

  it('a prohibition is a control, not a negation', () => {
    expect(ids('hipaa-security', 'Users must not share passwords or accounts; every user has a unique user ID.')).toContain('164.312(a)(2)(i)');
  });

  it.each([
    ['Developers do not have access to ePHI in production unless authorised by role.', '164.308(a)(4)(i)'],
    ['Workforce members who do not need ePHI for their role have no access to it.', '164.308(a)(4)(i)'],
    ['Staff do not store ePHI on removable media or USB drives.', '164.310(d)(2)(i)'],
    ['Do not store ePHI on unencrypted removable media or USB drives.', '164.310(d)(2)(i)'],
  ])('a restriction stated with "not"/"no" is still evidence: "%s" → %s', (sentence, id) => {
    expect(ids('hipaa-security', sentence)).toContain(id);
  });
});
