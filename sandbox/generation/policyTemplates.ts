/**
 * The content of each policy document type, written formally. Placeholders: `{Org}` starts a
 * sentence as its subject and `{we}` is a subject inside one (both only before a modal verb such as
 * "shall" or "will", so plain-language mode can swap in "We"/"we"); `{org}` is an object and
 * `{org's}` a possessive. Generation fills them with the organisation's name, or with "we", "us" and
 * "our" in plain-language mode.
 */

export interface PolicyTemplate {
  id: string;
  title: string;
  description: string;
  /** Words and phrases that pick the framework's relevant controls for this policy. */
  focus: string[];
  purpose: string;
  scope: string;
  roles: Array<[role: string, responsibility: string]>;
  /** Baseline statements that hold whatever the framework; control-specific ones are added. */
  statements: string[];
  procedures: string[];
  /** How often the document is reviewed, as a phrase ("at least annually"). */
  reviewCycle: string;
}

export const POLICY_TEMPLATES: readonly PolicyTemplate[] = [
  {
    id: 'information_security_policy',
    title: 'Information Security Policy',
    description: 'The top-level policy that sets management direction, objectives, roles and the policy framework for protecting information.',
    focus: ['information security policy', 'security policy', 'policies', 'policy review', 'roles and responsibilities', 'risk management', 'leadership', 'senior management', 'management commitment', 'oversight', 'legal requirements', 'regulatory requirements', 'security program', 'security management process'],
    purpose: 'This policy sets the direction and commitment of management for protecting the confidentiality, integrity and availability of the information held by {org}, and establishes the framework of topic-specific policies, standards and procedures that implement it.',
    scope: 'This policy applies to all information, systems, applications, networks and services owned, operated or used by {org}, in any location, and to all employees, contractors, temporary staff and third parties who access them.',
    roles: [
      ['Board / senior management', 'Approves this policy, sets risk appetite and is accountable for information security.'],
      ['Information Security Officer', 'Owns this policy, maintains the information security programme and reports on risk and performance.'],
      ['Asset and system owners', 'Classify information and make sure controls are implemented for the assets they own.'],
      ['All personnel', 'Comply with this policy and the topic-specific policies, and report suspected incidents promptly.'],
    ],
    statements: [
      '{Org} shall maintain an information security programme, based on risk assessment, that is approved by senior management and reviewed at planned intervals.',
      'Information security objectives shall be set, measured and reported to senior management at least annually.',
      'Topic-specific policies (access control, incident response, business continuity, supplier management, acceptable use and others) shall be approved, published and communicated to the personnel they apply to.',
      'Legal, regulatory and contractual requirements relevant to information security shall be identified, documented and kept up to date.',
      'Information shall be classified according to its sensitivity and protected in proportion to that classification.',
      'Breaches of this policy may result in disciplinary action, up to and including termination of employment or contract.',
    ],
    procedures: [
      'The Information Security Officer maintains the register of policies, owners and review dates.',
      'Each policy is reviewed at least annually and after significant changes to the business, technology or threat landscape.',
      'New personnel acknowledge this policy during onboarding; all personnel re-acknowledge it annually.',
      'Performance of the programme is reported to senior management through a quarterly security report.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'access_control_policy',
    title: 'Access Control Policy',
    description: 'Rules for granting, reviewing and revoking logical and physical access, authentication (including MFA) and privileged access.',
    focus: ['access control', 'access', 'authentication', 'multi-factor', 'identity', 'identities', 'credentials', 'password', 'privileged', 'least privilege', 'user accounts', 'access rights', 'physical access', 'logoff', 'unique user'],
    purpose: 'This policy sets the rules by which {we} will grant, control, review and remove access to {org\'s} information, systems and premises, so that access is limited to authorised users with a business need.',
    scope: 'This policy covers all user, administrator, service and third-party accounts on systems, applications, cloud services and networks operated by or for {org}, and physical access to its offices and facilities.',
    roles: [
      ['System owners', 'Approve access to their systems and take part in periodic access reviews.'],
      ['IT / identity team', 'Provisions, modifies and removes accounts and maintains the identity platform.'],
      ['Line managers', 'Request access for their staff and confirm it is still needed during reviews.'],
      ['All users', 'Protect their credentials, use MFA and never share accounts.'],
    ],
    statements: [
      'Access shall be granted on the principles of least privilege and need to know, based on a documented and approved request.',
      'Every user shall have a unique user ID; shared or generic accounts are prohibited unless approved as an exception and individually accountable.',
      'Multi-factor authentication (MFA) shall be required for remote access, administrative access, cloud services and access to sensitive data.',
      'Passwords shall be at least 12 characters, shall not be reused across systems and shall be stored in an approved password manager.',
      'Privileged access shall be limited to named administrators, granted only for the duration needed and logged.',
      'Access rights shall be reviewed at least quarterly for privileged accounts and every six months for all other accounts.',
      'Access shall be removed by the end of the last working day when personnel leave, and adjusted within five working days of a role change.',
      'Sessions shall lock automatically after 15 minutes of inactivity.',
    ],
    procedures: [
      'Joiners: the line manager raises an access request; the system owner approves; IT provisions the role-based access and records it.',
      'Movers: access no longer needed for the new role is removed when the new access is granted.',
      'Leavers: HR notifies IT of the leaving date; IT disables accounts, revokes tokens and keys and collects equipment.',
      'Access reviews: system owners receive the list of accounts, confirm or revoke each and return the signed review within ten working days.',
      'Emergency (break-glass) access uses sealed credentials, is logged and is reviewed the next working day.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'incident_response_plan',
    title: 'Incident Response Plan',
    description: 'How security incidents and personal data breaches are detected, triaged, contained, eradicated, recovered from, notified and learned from.',
    focus: ['incident', 'incidents', 'breach', 'notification', 'response', 'containment', 'eradication', 'escalation', 'triage', 'forensic', 'evidence', 'lessons learned', 'security events', 'reporting'],
    purpose: 'This plan sets out how {we} will prepare for, detect, respond to and recover from information security incidents and personal data breaches, so that harm is limited and obligations to notify regulators, customers and individuals are met on time.',
    scope: 'This plan covers all suspected and confirmed security incidents affecting information, systems or services of {org}, including those at suppliers that process data on its behalf.',
    roles: [
      ['Incident Manager', 'Leads the response, decides severity, coordinates the team and owns communication with management.'],
      ['Incident Response Team', 'Investigates, contains, eradicates and recovers, and preserves evidence.'],
      ['Legal / Data Protection Officer', 'Assesses notification duties and deadlines and drafts regulator and individual notifications.'],
      ['Communications lead', 'Prepares internal, customer and public messages with approval from management.'],
      ['All personnel', 'Report suspected incidents immediately through the reporting channel.'],
    ],
    statements: [
      'All personnel shall report suspected security incidents immediately to the security team through the published reporting channel.',
      'Each reported event shall be triaged, and incidents shall be classified by severity (critical, high, medium, low) using defined criteria.',
      'Incidents shall be contained, eradicated and recovered from in line with documented playbooks, and escalated to senior management according to severity.',
      'Evidence shall be collected and preserved with a documented chain of custody.',
      'Notification duties to regulators, customers and affected individuals shall be assessed for every incident involving personal or regulated data, and met within the applicable deadlines (for example 72 hours under the GDPR).',
      'Every incident shall be recorded in the incident register, and a post-incident review shall identify root cause and lessons learned.',
      'This plan shall be tested at least annually through a tabletop exercise.',
    ],
    procedures: [
      'Detect and report: alerts and staff reports reach the security team\'s on-call rota 24/7.',
      'Triage: the on-call analyst validates the event, assigns a severity and opens an incident record within one hour.',
      'Contain: isolate affected systems, disable compromised accounts and block malicious indicators.',
      'Eradicate and recover: remove the cause, restore from verified clean backups and monitor for recurrence.',
      'Notify: Legal / DPO decides on notifications and records the decision and timing.',
      'Review: within ten working days of closure, hold a post-incident review and track the corrective actions.',
    ],
    reviewCycle: 'at least annually and after every major incident',
  },
  {
    id: 'data_protection_policy',
    title: 'Data Protection Policy',
    description: 'How personal data is processed lawfully and securely: principles, lawful bases, individuals\' rights, processors, transfers, breaches and accountability.',
    focus: ['personal data', 'personal information', 'privacy', 'data protection', 'consent', 'lawful basis', 'data subject', 'rights', 'transparency', 'privacy notice', 'retention', 'processor', 'transfers', 'impact assessment', 'DPIA', 'minimisation', 'PHI', 'protected health information', 'encryption'],
    purpose: 'This policy sets out how {we} will collect, use, share, protect and delete personal data in compliance with applicable data protection law, and how {we} will respect the rights of the individuals the data is about.',
    scope: 'This policy applies to all personal data processed by or on behalf of {org} (about customers, patients, employees, suppliers and others), in any format, and to everyone who processes it.',
    roles: [
      ['Data Protection Officer / Privacy lead', 'Advises on data protection, monitors compliance, handles rights requests and is the contact for regulators.'],
      ['Data owners', 'Keep the records of processing for their activities accurate and apply this policy to them.'],
      ['Information Security Officer', 'Makes sure personal data is protected by appropriate technical and organisational measures.'],
      ['All personnel', 'Process personal data only as instructed and report suspected breaches immediately.'],
    ],
    statements: [
      'Personal data shall be processed lawfully, fairly and transparently, for specified purposes, limited to what is necessary, kept accurate and retained no longer than necessary.',
      'Each processing activity shall have a documented lawful basis and be recorded in the record of processing activities.',
      'Individuals shall be given a clear privacy notice at the time their data is collected.',
      'Requests from individuals to access, rectify, erase, restrict, port or object shall be verified and answered within one month.',
      'A data protection impact assessment shall be carried out before any processing likely to result in high risk.',
      'Processors shall be engaged only under a written contract with the required data protection terms, after due diligence.',
      'Personal data shall be transferred to other countries only with a valid transfer mechanism.',
      'Personal data breaches shall be handled under the Incident Response Plan and notified where required.',
    ],
    procedures: [
      'New processing: the data owner completes a privacy review; the DPO decides whether a DPIA is needed.',
      'Rights requests: logged on receipt, identity verified, answered within one month and the response recorded.',
      'Processor onboarding: security and privacy due diligence, then signature of a data processing agreement.',
      'Retention: data owners apply the retention schedule and confirm deletion at least annually.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'business_continuity_plan',
    title: 'Business Continuity and Disaster Recovery Plan',
    description: 'How critical services continue during disruption and systems and data are recovered within agreed recovery objectives.',
    focus: ['business continuity', 'continuity', 'disaster recovery', 'contingency', 'backup', 'backups', 'recovery', 'restore', 'resilience', 'redundancy', 'emergency', 'disruption', 'availability', 'capacity'],
    purpose: 'This plan sets out how {we} will keep {org\'s} critical services running during a disruption and recover systems and data within agreed time and data-loss objectives.',
    scope: 'This plan covers the critical business services, the people, premises, technology, data and suppliers that support them, and disruptions such as cyber attacks, outages, loss of premises, supplier failure and pandemics.',
    roles: [
      ['Crisis management team', 'Declares a disruption, decides on invoking this plan and directs the response.'],
      ['Business continuity coordinator', 'Maintains this plan, the business impact analysis and the exercise programme.'],
      ['IT recovery team', 'Recovers systems and data in priority order from backups and standby infrastructure.'],
      ['Service owners', 'Run the manual workarounds and confirm that services are restored correctly.'],
    ],
    statements: [
      'A business impact analysis shall identify critical services and set a recovery time objective (RTO) and recovery point objective (RPO) for each.',
      'Backups of critical data shall be taken at a frequency that meets the RPO, encrypted, stored off-site or in an isolated location, and restore-tested at least quarterly.',
      'Critical systems shall have redundancy or documented recovery procedures that meet their RTO.',
      'An emergency mode of operation shall keep critical processes and the protection of sensitive data going during a disruption.',
      'This plan shall be exercised at least annually and updated with the lessons learned.',
    ],
    procedures: [
      'Invocation: the crisis management team assesses the disruption and invokes the plan, recording the time and decision.',
      'Communication: staff, customers and suppliers are informed using the contact lists held off-site.',
      'Recovery: systems are restored in the priority order of the business impact analysis; backup integrity is verified before restore.',
      'Return to normal: service owners confirm restoration and the crisis team stands down and records lessons learned.',
    ],
    reviewCycle: 'at least annually and after every invocation or exercise',
  },
  {
    id: 'risk_management_policy',
    title: 'Risk Management Policy',
    description: 'How information security and compliance risks are identified, assessed, treated, accepted and monitored against the risk appetite.',
    focus: ['risk', 'risk assessment', 'risk analysis', 'risk management', 'risk treatment', 'risk appetite', 'risk tolerance', 'threats', 'vulnerabilities', 'likelihood', 'impact', 'risk register'],
    purpose: 'This policy sets how {we} will identify, assess, treat and monitor information security and compliance risks so that they stay within the risk appetite approved by management.',
    scope: 'This policy covers risks to the confidentiality, integrity and availability of information and services of {org}, including risks from suppliers, projects and changes.',
    roles: [
      ['Senior management', 'Sets the risk appetite and accepts residual risks above the defined threshold.'],
      ['Risk owners', 'Own individual risks, decide on treatment and track the treatment plan.'],
      ['Information Security Officer', 'Runs the risk assessment process and maintains the risk register.'],
    ],
    statements: [
      'A documented risk assessment methodology shall define how likelihood and impact are rated and how risk levels are calculated.',
      'Risk assessments shall be performed at least annually and whenever significant changes occur.',
      'Every risk shall have an owner and a treatment decision: mitigate, transfer, avoid or accept.',
      'Residual risks above the risk appetite shall be accepted only by senior management, with a documented rationale and review date.',
      'The risk register shall be reviewed quarterly and reported to senior management.',
    ],
    procedures: [
      'Identify assets, threats and vulnerabilities with the asset and system owners.',
      'Rate likelihood and impact on the five-point scales of the methodology and record the inherent risk.',
      'Agree treatment with the risk owner, record the plan, due date and target residual risk.',
      'Track treatment progress monthly and re-rate risks when treatments are complete.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'vendor_management_policy',
    title: 'Vendor and Third-Party Risk Management Policy',
    description: 'Due diligence, contracts, monitoring and offboarding of suppliers and service providers that access data or support critical services.',
    focus: ['supplier', 'suppliers', 'vendor', 'third-party', 'third party', 'service provider', 'business associate', 'processor', 'sub-processor', 'supply chain', 'contract', 'agreements', 'outsourced'],
    purpose: 'This policy sets how {we} will select, contract with, monitor and exit suppliers and service providers so that the risks they bring to its information and services are understood and controlled.',
    scope: 'This policy covers all suppliers, service providers, processors and business partners that access, store or process information of {org} or support its critical services, including cloud and SaaS providers.',
    roles: [
      ['Procurement', 'Runs supplier selection and makes sure this policy is followed before contracts are signed.'],
      ['Vendor owner', 'Owns the relationship, monitors performance and triggers reassessments.'],
      ['Information Security Officer', 'Performs security due diligence and sets the required contract terms.'],
      ['Legal', 'Negotiates contract clauses, including data processing and business associate agreements.'],
    ],
    statements: [
      'All suppliers shall be recorded in the supplier inventory and tiered by criticality and data access.',
      'Security and privacy due diligence proportionate to the tier shall be completed before a contract is signed.',
      'Contracts shall include security requirements, confidentiality, incident notification, audit rights, sub-processor controls and return or deletion of data at exit.',
      'Where suppliers process personal or regulated data, the required agreement (for example a data processing agreement or a business associate agreement) shall be signed.',
      'Critical suppliers shall be reassessed at least annually, for example by reviewing their SOC 2 report or ISO/IEC 27001 certificate.',
      'At the end of a relationship, access shall be revoked and data returned or destroyed with confirmation.',
    ],
    procedures: [
      'Intake: the vendor owner registers the supplier and completes the tiering questionnaire.',
      'Due diligence: security reviews the supplier\'s questionnaire, certifications and reports and records the result.',
      'Contracting: legal applies the standard security and data protection clauses.',
      'Monitoring: annual reassessment of critical suppliers and review of incidents and service levels.',
      'Offboarding: revoke access, retrieve or destroy data and obtain written confirmation.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'acceptable_use_policy',
    title: 'Acceptable Use Policy',
    description: 'The rules for staff use of devices, email, internet, cloud services, removable media and company information.',
    focus: ['acceptable use', 'workstation', 'devices', 'endpoint', 'email', 'internet', 'removable media', 'clear desk', 'remote working', 'mobile', 'software installation', 'malware', 'phishing'],
    purpose: 'This policy tells everyone who uses the devices, accounts and information of {org} what is and is not acceptable, to protect them and the organisation from security, legal and reputational harm.',
    scope: 'This policy applies to all personnel and to all devices (company-issued and personal devices used for work), accounts, email, messaging, internet access and cloud services used for {org\'s} business.',
    roles: [
      ['All personnel', 'Follow this policy and ask the IT or security team when unsure.'],
      ['Line managers', 'Make sure their teams know and follow this policy.'],
      ['IT team', 'Provides secured devices and approved software and monitors for misuse.'],
    ],
    statements: [
      'Company devices, accounts and information shall be used for business purposes; limited personal use is allowed if it does not interfere with work or security.',
      'Personnel shall lock their screens when leaving devices unattended and keep desks clear of confidential papers.',
      'Only approved software and cloud services shall be installed or used for company information.',
      'Confidential information shall not be sent to personal email accounts, personal cloud storage or unapproved AI tools.',
      'Removable media shall be used only when approved and encrypted.',
      'Suspicious emails and lost or stolen devices shall be reported to the security team immediately.',
      'Use of company systems may be monitored, within the limits of applicable law.',
    ],
    procedures: [
      'Personnel acknowledge this policy during onboarding and annually thereafter.',
      'Requests for new software or services go through the IT request process for security approval.',
      'Personal devices are enrolled in device management before they access company data.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'data_retention_policy',
    title: 'Data Retention and Disposal Policy',
    description: 'How long each category of record and data is kept and how it is securely deleted or destroyed when no longer needed.',
    focus: ['retention', 'storage limitation', 'records', 'deletion', 'disposal', 'destruction', 'media', 'sanitisation', 'documentation', 'archive', 'data minimisation', 'account data'],
    purpose: 'This policy sets how long {we} will keep records and data, and how {we} will dispose of them securely once they are no longer needed for business, legal or regulatory purposes.',
    scope: 'This policy covers all records and data held by or for {org} in any format and location, including backups, archives, email and paper records.',
    roles: [
      ['Records owners', 'Apply the retention schedule to the records they own and approve disposal.'],
      ['Legal', 'Sets retention periods from legal and regulatory requirements and issues legal holds.'],
      ['IT team', 'Implements automated deletion and secure disposal of media and equipment.'],
    ],
    statements: [
      'Every category of record shall have a retention period in the retention schedule, with its legal or business justification.',
      'Records shall be kept no longer than their retention period, unless subject to a legal hold.',
      'Documentation required by regulation (for example HIPAA policies and assessments) shall be retained for at least six years.',
      'Data shall be deleted securely at the end of its retention period, including from backups as they expire.',
      'Media and equipment shall be sanitised or destroyed before disposal or re-use, and a certificate of destruction kept.',
    ],
    procedures: [
      'Records owners review their records against the schedule at least annually and approve disposal.',
      'Legal holds suspend disposal for the records concerned until released in writing by Legal.',
      'Disposal is recorded in the disposal log with date, record category, method and approver.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'change_management_policy',
    title: 'Change Management Policy',
    description: 'How changes to systems, infrastructure, software and configurations are requested, assessed, tested, approved, deployed and reviewed.',
    focus: ['change management', 'change control', 'change approval', 'changes', 'configuration management', 'secure development', 'security testing', 'deployment', 'code review', 'development environment', 'production environment', 'separation of environments', 'patch', 'release'],
    purpose: 'This policy sets how {we} will control changes to {org\'s} production systems, infrastructure, applications and configurations so that changes are authorised, tested and reversible and do not weaken security or availability.',
    scope: 'This policy covers all changes to production systems, networks, cloud infrastructure, applications, databases and security configurations of {org}, including emergency changes and changes made by suppliers.',
    roles: [
      ['Change requester', 'Describes the change, its risk, test evidence and back-out plan.'],
      ['Change approver / CAB', 'Reviews and approves or rejects changes according to their risk.'],
      ['Implementer', 'Deploys the approved change and confirms the result.'],
    ],
    statements: [
      'Every change to production shall be recorded, risk-assessed, tested and approved before deployment.',
      'Code changes shall be peer reviewed through pull requests, and the author shall not approve their own change.',
      'Development, test and production environments shall be separated, and production data shall not be used in testing without approval and masking.',
      'Every change shall have a documented back-out plan.',
      'Emergency changes may be deployed with the approval of an on-call manager and shall be reviewed retrospectively within two working days.',
      'Security patches shall be deployed within defined timeframes according to severity.',
    ],
    procedures: [
      'Raise a change request or pull request with description, risk rating, test evidence and back-out plan.',
      'Standard (pre-approved) changes follow their documented runbook; normal changes need approval; high-risk changes go to the CAB.',
      'After deployment the implementer verifies the change and closes the record; failed changes are rolled back and reviewed.',
    ],
    reviewCycle: 'at least annually',
  },
  {
    id: 'security_awareness_training_policy',
    title: 'Security Awareness and Training Policy',
    description: 'The awareness and training every person receives at onboarding and annually, role-based training, phishing simulations and records.',
    focus: ['training', 'awareness', 'education', 'phishing', 'social engineering', 'security reminders', 'competence', 'role-based training', 'personnel'],
    purpose: 'This policy sets the security and privacy awareness and training that {we} will give {org\'s} personnel so that everyone knows their responsibilities and can recognise and report threats.',
    scope: 'This policy applies to all employees, contractors and temporary staff of {org} with access to its information or systems, including management.',
    roles: [
      ['Information Security Officer', 'Owns the training programme, content and phishing simulations.'],
      ['HR', 'Assigns onboarding training and keeps completion records.'],
      ['Line managers', 'Make sure their staff complete training on time.'],
      ['All personnel', 'Complete assigned training and apply it in their work.'],
    ],
    statements: [
      'All personnel shall complete security and privacy awareness training within 30 days of starting and at least annually thereafter.',
      'Personnel in specialised roles (developers, administrators, incident responders, those handling payment or health data) shall receive role-based training.',
      'Phishing simulations shall be run at least quarterly, with follow-up training for those who fail them.',
      'Regular security reminders shall be communicated to personnel on current threats.',
      'Training completion shall be recorded and reported to management; non-completion shall be escalated.',
    ],
    procedures: [
      'HR assigns onboarding training on the first day; access to sensitive systems depends on completion.',
      'Annual training is assigned each year and tracked to completion within 30 days.',
      'The security team reviews simulation results and adapts the content to the weaknesses found.',
    ],
    reviewCycle: 'at least annually',
  },
];
