/**
 * AICPA Trust Services Criteria (2017, revised points of focus 2022): the Common Criteria CC1.1–CC9.2
 * (the Security category every SOC 2 report covers) plus the Availability (A1) and Confidentiality
 * (C1) criteria. Titles and descriptions are our paraphrases.
 */
import type { Control } from '../types.js';
import { controlGroup } from './group.js';

export const soc2Controls: Control[] = [
  ...controlGroup('CC1 Control Environment', [
    ['CC1.1', 'Commitment to integrity and ethical values', 'The entity demonstrates a commitment to integrity and ethical values, for example through a code of conduct.', ['code of conduct', 'ethics', 'integrity', 'ethical values', 'whistleblower', 'acknowledgement']],
    ['CC1.2', 'Board independence and oversight', 'The board of directors is independent of management and oversees the development and performance of internal control.', ['board of directors', 'board oversight', 'independence', 'audit committee', 'governance']],
    ['CC1.3', 'Structures, reporting lines and authorities', 'Management establishes structures, reporting lines and appropriate authorities and responsibilities.', ['organisational structure', 'org chart', 'reporting lines', 'authorities', 'responsibilities']],
    ['CC1.4', 'Commitment to competence', 'The entity attracts, develops and retains competent individuals in line with its objectives.', ['competence', 'hiring', 'job descriptions', 'performance reviews', 'professional development', 'training']],
    ['CC1.5', 'Accountability for internal control', 'Individuals are held accountable for their internal control responsibilities.', ['accountability', 'performance evaluation', 'disciplinary', 'incentives', 'responsibilities enforced']],
  ]),
  ...controlGroup('CC2 Communication and Information', [
    ['CC2.1', 'Quality information for internal control', 'The entity obtains or generates and uses relevant, quality information to support internal control.', ['quality information', 'information requirements', 'data flows', 'system inventory', 'reliable information']],
    ['CC2.2', 'Internal communication', 'The entity communicates internally the objectives and responsibilities for internal control.', ['internal communication', 'policies communicated', 'intranet', 'security reporting channel', 'employee communication']],
    ['CC2.3', 'External communication', 'The entity communicates with external parties about matters affecting internal control.', ['external communication', 'customer communication', 'system description', 'terms of service', 'status page', 'commitments']],
  ]),
  ...controlGroup('CC3 Risk Assessment', [
    ['CC3.1', 'Objectives specified', 'The entity specifies objectives clearly enough to identify and assess risks.', ['objectives', 'service commitments', 'system requirements', 'risk objectives', 'business objectives']],
    ['CC3.2', 'Risks identified and analysed', 'The entity identifies risks to its objectives and analyses them to decide how they should be managed.', ['risk assessment', 'risk identification', 'risk analysis', 'risk register', 'annual risk assessment']],
    ['CC3.3', 'Fraud risk considered', 'The entity considers the potential for fraud in assessing risks.', ['fraud', 'fraud risk', 'misappropriation', 'fraud risk assessment', 'incentives and pressures']],
    ['CC3.4', 'Significant changes assessed', 'The entity identifies and assesses changes that could significantly affect internal control.', ['significant changes', 'change assessment', 'business changes', 'new technology', 'acquisitions']],
  ]),
  ...controlGroup('CC4 Monitoring Activities', [
    ['CC4.1', 'Ongoing and separate evaluations', 'The entity selects, develops and performs evaluations to confirm controls are present and functioning.', ['control monitoring', 'internal audit', 'continuous monitoring', 'control testing', 'evaluations']],
    ['CC4.2', 'Deficiencies evaluated and communicated', 'Internal control deficiencies are evaluated and communicated in time to those responsible for corrective action.', ['deficiencies', 'corrective action', 'remediation', 'findings', 'management reporting']],
  ]),
  ...controlGroup('CC5 Control Activities', [
    ['CC5.1', 'Control activities selected', 'The entity selects and develops control activities that mitigate risks to acceptable levels.', ['control activities', 'control design', 'mitigate risks', 'control matrix', 'segregation of duties']],
    ['CC5.2', 'General controls over technology', 'The entity selects and develops general control activities over technology.', ['IT general controls', 'ITGC', 'technology controls', 'infrastructure controls', 'security controls']],
    ['CC5.3', 'Controls deployed through policies and procedures', 'Control activities are deployed through policies that set expectations and procedures that put them into action.', ['policies and procedures', 'policy acknowledgement', 'procedures', 'policy owners', 'policy review']],
  ]),
  ...controlGroup('CC6 Logical and Physical Access Controls', [
    ['CC6.1', 'Logical access security', 'Logical access security software, infrastructure and architectures protect information assets.', ['logical access', 'authentication', 'MFA', 'encryption', 'access control', 'network segmentation']],
    ['CC6.2', 'User registration and authorisation', 'New users are registered and authorised before credentials are issued; access is removed when no longer needed.', ['user registration', 'access request', 'approval', 'onboarding', 'offboarding', 'credential issuance']],
    ['CC6.3', 'Role-based access and least privilege', 'Access is authorised, modified or removed based on roles, least privilege and segregation of duties.', ['role-based access', 'least privilege', 'access review', 'segregation of duties', 'RBAC', 'quarterly access review']],
    ['CC6.4', 'Physical access restricted', 'Physical access to facilities and protected assets is restricted to authorised personnel.', ['physical access', 'badge', 'data centre', 'visitor', 'secure facility']],
    ['CC6.5', 'Asset disposal protections', 'Protections over physical assets are discontinued only after the ability to read or recover data has been removed.', ['disposal', 'data destruction', 'media sanitisation', 'decommission', 'secure wipe']],
    ['CC6.6', 'Protection against external threats', 'Logical access security measures protect against threats from sources outside the system boundaries.', ['firewall', 'perimeter', 'intrusion prevention', 'VPN', 'external access', 'web application firewall']],
    ['CC6.7', 'Restricted transmission and removal of information', 'The transmission, movement and removal of information is restricted to authorised users and processes and protected.', ['encryption in transit', 'TLS', 'data loss prevention', 'removable media', 'secure transfer']],
    ['CC6.8', 'Malicious software prevented or detected', 'Controls prevent or detect and act on unauthorised or malicious software.', ['malware', 'anti-malware', 'endpoint protection', 'unauthorised software', 'EDR']],
  ]),
  ...controlGroup('CC7 System Operations', [
    ['CC7.1', 'Configuration and vulnerability detection', 'Detection and monitoring procedures identify configuration changes that introduce vulnerabilities and newly discovered vulnerabilities.', ['vulnerability scanning', 'configuration monitoring', 'vulnerability management', 'baseline', 'drift detection']],
    ['CC7.2', 'Monitoring for anomalies', 'System components are monitored for anomalies indicating malicious acts, natural disasters or errors.', ['monitoring', 'anomalies', 'SIEM', 'alerting', 'logging', 'intrusion detection']],
    ['CC7.3', 'Security events evaluated', 'Security events are evaluated to determine whether they are incidents.', ['security events', 'triage', 'incident determination', 'event evaluation', 'severity']],
    ['CC7.4', 'Incident response', 'Identified security incidents are responded to through a defined incident response programme.', ['incident response', 'incident response plan', 'containment', 'remediation', 'communication', 'breach notification']],
    ['CC7.5', 'Recovery from incidents', 'Activities to recover from identified security incidents are identified, developed and implemented.', ['incident recovery', 'restore', 'lessons learned', 'root cause', 'recovery procedures']],
  ]),
  ...controlGroup('CC8 Change Management', [
    ['CC8.1', 'Changes authorised, tested and approved', 'Changes to infrastructure, data, software and procedures are authorised, designed, developed, configured, documented, tested, approved and implemented.', ['change management', 'change approval', 'code review', 'pull request', 'testing', 'deployment', 'emergency change']],
  ]),
  ...controlGroup('CC9 Risk Mitigation', [
    ['CC9.1', 'Business disruption risk mitigated', 'Risk mitigation activities address potential business disruptions.', ['business continuity', 'disaster recovery', 'cyber insurance', 'business disruption', 'resilience']],
    ['CC9.2', 'Vendor and business partner risk', 'Risks associated with vendors and business partners are assessed and managed.', ['vendor management', 'vendor risk', 'third-party risk', 'vendor review', 'SOC 2 report review', 'supplier agreements']],
  ]),
  ...controlGroup('A1 Additional Criteria for Availability', [
    ['A1.1', 'Capacity managed', 'Processing capacity and use are maintained, monitored and evaluated to meet availability commitments.', ['capacity', 'capacity planning', 'availability', 'utilisation monitoring', 'scaling']],
    ['A1.2', 'Environmental protections, backup and recovery infrastructure', 'Environmental protections, software, data backup processes and recovery infrastructure are authorised, designed, implemented, operated and monitored.', ['backups', 'environmental protections', 'recovery infrastructure', 'redundancy', 'data centre']],
    ['A1.3', 'Recovery plan tested', 'Recovery plan procedures supporting system recovery are tested.', ['recovery testing', 'disaster recovery test', 'restore test', 'business continuity test', 'failover test']],
  ]),
  ...controlGroup('C1 Additional Criteria for Confidentiality', [
    ['C1.1', 'Confidential information identified and protected', 'Confidential information is identified and maintained to meet confidentiality objectives.', ['confidential information', 'classification', 'confidentiality', 'data classification', 'NDA']],
    ['C1.2', 'Confidential information disposed of', 'Confidential information is disposed of to meet confidentiality objectives.', ['disposal', 'retention', 'deletion', 'destruction', 'data retention policy']],
  ]),
];
