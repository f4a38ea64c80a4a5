/** Healthcare security frameworks (the HIPAA Privacy Rule sits with the privacy laws). */
import { hipaaSecurityControls } from '../controls/hipaa-security.js';
import type { FrameworkEntry } from '../types.js';

export const healthFrameworks: FrameworkEntry[] = [
  {
    slug: 'hipaa-security',
    name: 'HIPAA Security Rule',
    shortName: 'HIPAA Security Rule',
    aliases: ['HIPAA', 'HIPAA Security', 'Security Rule', '45 CFR Part 164 Subpart C', 'Security Standards for the Protection of Electronic Protected Health Information', 'HIPAA/HITECH'],
    regulator: 'U.S. Department of Health and Human Services, Office for Civil Rights (HHS OCR)',
    jurisdiction: 'United States',
    regions: ['US'],
    sector: 'Healthcare',
    appliesTo: 'Covered entities (health plans, health care clearinghouses and health care providers that transmit health information electronically) and their business associates that create, receive, maintain or transmit electronic protected health information.',
    sourceUrl: 'https://www.hhs.gov/hipaa/for-professionals/security/index.html',
    verified: true,
    version: '45 CFR Part 160 and Part 164, Subparts A and C (as amended 2013)',
    description: 'The U.S. federal standard for safeguarding electronic protected health information (ePHI). It requires administrative safeguards (risk analysis and management, a security official, workforce security, training, incident procedures, contingency planning, evaluation, business associate agreements), physical safeguards (facility access, workstation use and security, device and media controls) and technical safeguards (access control, audit controls, integrity, authentication, transmission security), plus written policies and six-year retention of documentation. Implementation specifications are either required or addressable.',
    topics: ['electronic protected health information', 'ePHI', 'PHI', 'health data', 'health information', 'patient data', 'patient records', 'medical records', 'electronic health records', 'EHR', 'healthcare', 'hospital', 'clinic', 'telehealth', 'health insurance', 'business associate', 'risk analysis', 'security safeguards'],
    updates: [
      { date: '2003-02-20', title: 'Security Rule published', summary: 'The final rule adopting security standards for ePHI was published in the Federal Register.' },
      { date: '2005-04-20', title: 'Compliance date', summary: 'Covered entities other than small health plans had to comply (small health plans by 20 April 2006).' },
      { date: '2013-01-25', title: 'Omnibus Final Rule', summary: 'Business associates and their subcontractors became directly liable for Security Rule compliance.' },
      { date: '2021-01-05', title: 'Recognized security practices amendment', summary: 'Public Law 116-321 amended HITECH so OCR considers recognised security practices (such as the NIST CSF) in place for the prior 12 months when setting penalties.' },
      { date: '2025-01-06', title: 'Proposed Security Rule update (NPRM)', summary: 'HHS proposed removing the required/addressable distinction and requiring an asset inventory and network map, encryption, multi-factor authentication, vulnerability scanning, annual compliance audits and 72-hour restoration plans.', url: 'https://www.federalregister.gov/documents/2025/01/06/2024-30983/hipaa-security-rule-to-strengthen-the-cybersecurity-of-electronic-protected-health-information' },
    ],
    controls: hipaaSecurityControls,
  },
  {
    slug: 'hitrust-csf',
    name: 'HITRUST CSF',
    shortName: 'HITRUST CSF',
    aliases: ['HITRUST', 'HITRUST Common Security Framework', 'HITRUST r2', 'HITRUST e1', 'HITRUST i1'],
    regulator: 'HITRUST Alliance (private standards body)',
    jurisdiction: 'United States (used internationally)',
    regions: ['US', 'INTL'],
    sector: 'Healthcare and other regulated industries',
    appliesTo: 'Organisations, especially healthcare providers, payers and their technology vendors, that want a certifiable framework harmonising HIPAA, NIST, ISO and other requirements.',
    sourceUrl: 'https://hitrustalliance.net/',
    verified: false,
    version: 'HITRUST CSF v11',
    description: 'A certifiable, prescriptive security and privacy framework that harmonises requirements from HIPAA, NIST SP 800-53, ISO/IEC 27001, PCI DSS and other sources into one control set, scaled by risk factors. Assessments are offered at three levels (e1 essentials, i1 implemented, r2 risk-based) and result in a HITRUST certification relied on by health plans and providers in vendor due diligence.',
    topics: ['healthcare', 'health information', 'certification', 'third-party assurance', 'vendor assessment', 'harmonised controls', 'PHI', 'health data'],
    updates: [
      { date: '2009-03-01', title: 'First release (month of publication)', summary: 'HITRUST released the first version of the Common Security Framework for the healthcare industry.' },
      { date: '2023-01-01', title: 'HITRUST CSF v11 (month of publication)', summary: 'Version 11 restructured the framework and aligned the e1, i1 and r2 assessments on one control set.' },
    ],
  },
];
