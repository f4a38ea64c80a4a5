/**
 * PCI DSS v4.0.1 (June 2024): the 12 principal requirements with their main sub-requirements
 * (x.y level). Titles are condensed; descriptions are our own.
 */
import type { Control } from '../types.js';
import { controlGroup } from './group.js';

const PROCESSES = 'Security policies and operational procedures for this requirement are documented, kept up to date, in use and known to all affected parties, and roles and responsibilities are assigned and understood.';
const processKeywords = (topic: readonly string[]): string[] => ['documented procedures', 'roles and responsibilities', 'kept up to date', ...topic];

export const pciDss4Controls: Control[] = [
  ...controlGroup('Requirement 1: Install and maintain network security controls', [
    ['1.1', 'Network security control processes defined and understood', PROCESSES, processKeywords(['network security controls', 'firewall policy', 'firewall standards'])],
    ['1.2', 'Network security controls configured and maintained', 'Configuration standards for firewalls and other network security controls are defined, changes are controlled, network diagrams and data-flow diagrams are kept current, and rule sets are reviewed at least every six months.', ['firewall', 'network security controls', 'network diagram', 'data-flow diagram', 'firewall rules', 'rule review', 'six months']],
    ['1.3', 'Network access to and from the CDE restricted', 'Inbound and outbound traffic for the cardholder data environment is restricted to what is necessary, and all other traffic is denied.', ['cardholder data environment', 'CDE', 'inbound traffic', 'outbound traffic', 'deny all', 'restricted traffic']],
    ['1.4', 'Connections between trusted and untrusted networks controlled', 'Network security controls sit between trusted and untrusted networks, with anti-spoofing and no direct access from untrusted networks to stored cardholder data.', ['untrusted networks', 'DMZ', 'anti-spoofing', 'internet-facing', 'trusted network']],
    ['1.5', 'Risks from dual-connected devices mitigated', 'Computing devices, such as employee laptops, that connect to both untrusted networks and the CDE have security controls that users cannot alter.', ['personal firewall', 'laptops', 'dual-connected devices', 'endpoint controls', 'remote devices']],
  ]),
  ...controlGroup('Requirement 2: Apply secure configurations to all system components', [
    ['2.1', 'Secure configuration processes defined and understood', PROCESSES, processKeywords(['secure configuration', 'configuration standards', 'hardening'])],
    ['2.2', 'System components configured and managed securely', 'Configuration standards based on industry hardening guidance are applied, vendor default accounts changed or removed, one primary function per server, and unnecessary services disabled.', ['configuration standards', 'hardening', 'vendor defaults', 'default passwords', 'unnecessary services', 'CIS benchmarks']],
    ['2.3', 'Wireless environments configured securely', 'Wireless vendor defaults, including keys and passwords, are changed and wireless keys are rotated when personnel leave.', ['wireless', 'Wi-Fi', 'wireless encryption keys', 'WPA2', 'WPA3', 'default wireless']],
  ]),
  ...controlGroup('Requirement 3: Protect stored account data', [
    ['3.1', 'Stored account data processes defined and understood', PROCESSES, processKeywords(['account data', 'cardholder data', 'data retention'])],
    ['3.2', 'Storage of account data kept to a minimum', 'A data retention and disposal policy limits storage of account data to what is needed, with secure deletion when it is no longer needed.', ['data retention', 'account data', 'minimise storage', 'secure deletion', 'quarterly purge', 'retention policy']],
    ['3.3', 'Sensitive authentication data not stored after authorisation', 'Full track data, card verification codes and PINs are not retained after authorisation, even if encrypted.', ['sensitive authentication data', 'SAD', 'CVV', 'card verification code', 'PIN', 'track data']],
    ['3.4', 'Display and copying of PAN restricted', 'Full PAN is masked when displayed (at most BIN and last four digits) and copying or relocating PAN is prevented without authorisation.', ['PAN masking', 'masked', 'last four digits', 'truncation', 'copy prevention']],
    ['3.5', 'PAN secured wherever stored', 'PAN is rendered unreadable wherever stored using one-way hashes, truncation, tokens or strong cryptography.', ['primary account number', 'PAN', 'unreadable', 'tokenisation', 'strong cryptography', 'keyed hash']],
    ['3.6', 'Cryptographic keys secured', 'Keys that protect stored account data are secured, with access restricted to the fewest custodians and stored in the fewest locations.', ['cryptographic keys', 'key encryption key', 'HSM', 'key custodians', 'key storage']],
    ['3.7', 'Key management life cycle defined', 'Key management procedures cover generation, distribution, storage, cryptoperiod rotation, retirement, split knowledge and custodian acknowledgement.', ['key management', 'key rotation', 'cryptoperiod', 'split knowledge', 'dual control', 'key custodian acknowledgement']],
  ]),
  ...controlGroup('Requirement 4: Protect cardholder data with strong cryptography during transmission', [
    ['4.1', 'Transmission protection processes defined and understood', PROCESSES, processKeywords(['transmission security', 'strong cryptography', 'TLS'])],
    ['4.2', 'PAN protected with strong cryptography in transmission', 'Strong cryptography and trusted certificates protect PAN over open, public networks, and PAN is never sent by end-user messaging unprotected.', ['strong cryptography', 'TLS', 'certificates', 'open public networks', 'end-user messaging', 'transmission']],
  ]),
  ...controlGroup('Requirement 5: Protect all systems and networks from malicious software', [
    ['5.1', 'Anti-malware processes defined and understood', PROCESSES, processKeywords(['anti-malware', 'malware', 'antivirus'])],
    ['5.2', 'Malware prevented or detected and addressed', 'An anti-malware solution is deployed on all system components except those periodically evaluated as not at risk.', ['anti-malware', 'antivirus', 'malware', 'endpoint protection', 'not at risk evaluation']],
    ['5.3', 'Anti-malware active, maintained and monitored', 'Anti-malware is kept current, performs scans or continuous analysis, cannot be disabled by users, and keeps audit logs.', ['signature updates', 'periodic scans', 'real-time scanning', 'cannot be disabled', 'removable media scanning']],
    ['5.4', 'Anti-phishing mechanisms', 'Processes and automated mechanisms detect and protect personnel against phishing attacks.', ['phishing', 'anti-phishing', 'DMARC', 'SPF', 'DKIM', 'email filtering']],
  ]),
  ...controlGroup('Requirement 6: Develop and maintain secure systems and software', [
    ['6.1', 'Secure development processes defined and understood', PROCESSES, processKeywords(['secure development', 'secure coding', 'software security'])],
    ['6.2', 'Bespoke and custom software developed securely', 'Software is developed to secure standards, developers are trained, code is reviewed before release and common attacks are prevented.', ['secure coding', 'code review', 'developer training', 'OWASP', 'injection', 'bespoke software']],
    ['6.3', 'Vulnerabilities identified and addressed', 'Vulnerabilities are identified and risk-ranked, an inventory of software components is kept, and critical patches are installed within one month.', ['vulnerability ranking', 'patches', 'within one month', 'software inventory', 'third-party components', 'critical patches']],
    ['6.4', 'Public-facing web applications protected', 'Public-facing web applications are protected by an automated technical solution such as a WAF, and payment page scripts are authorised and inventoried.', ['web application firewall', 'WAF', 'payment page scripts', 'script inventory', 'public-facing web applications']],
    ['6.5', 'Changes managed securely', 'Changes to system components follow documented change control, with impact, approval, testing and back-out procedures and separated environments.', ['change control', 'change approval', 'back-out procedures', 'pre-production', 'separation of environments', 'test data']],
  ]),
  ...controlGroup('Requirement 7: Restrict access by business need to know', [
    ['7.1', 'Access restriction processes defined and understood', PROCESSES, processKeywords(['access control', 'need to know', 'least privilege'])],
    ['7.2', 'Access appropriately defined and assigned', 'An access control model grants least privilege by job function, access is approved, and user accounts and privileges are reviewed at least every six months.', ['least privilege', 'need to know', 'job function', 'access approval', 'access review', 'six months']],
    ['7.3', 'Access managed via access control systems', 'Access control systems enforce permissions by job classification and are set to deny all by default.', ['access control system', 'deny all', 'job classification', 'default deny', 'role-based']],
  ]),
  ...controlGroup('Requirement 8: Identify users and authenticate access to system components', [
    ['8.1', 'Identification and authentication processes defined and understood', PROCESSES, processKeywords(['authentication', 'user identification', 'MFA'])],
    ['8.2', 'User identification and accounts managed through the life cycle', 'Every user has a unique ID, shared accounts are exceptional, accounts are added, changed and removed with approval, terminated users are removed immediately and inactive accounts within 90 days.', ['unique ID', 'shared accounts', 'terminated users', 'inactive accounts', '90 days', 'third-party accounts']],
    ['8.3', 'Strong authentication established', 'Passwords of at least 12 characters with complexity, lockout after repeated failures, session re-authentication and protection of authentication factors.', ['password length', '12 characters', 'account lockout', 'password complexity', 'password history', 'authentication factors']],
    ['8.4', 'Multi-factor authentication for CDE access', 'MFA is used for all non-console administrative access and for all access into the cardholder data environment and remote network access.', ['multi-factor authentication', 'MFA', 'two-factor', 'remote access', 'administrative access', 'CDE access']],
    ['8.5', 'MFA systems configured against misuse', 'MFA systems resist replay, cannot be bypassed without documented exception, and require at least two different factor types.', ['MFA bypass', 'replay attacks', 'factor types', 'MFA configuration', 'multi-factor authentication', 'MFA']],
    ['8.6', 'Application and system accounts managed', 'Interactive use of system and application accounts is limited, passwords are not hard-coded, and they are changed periodically.', ['service accounts', 'system accounts', 'hard-coded passwords', 'application accounts', 'secrets management']],
  ]),
  ...controlGroup('Requirement 9: Restrict physical access to cardholder data', [
    ['9.1', 'Physical access processes defined and understood', PROCESSES, processKeywords(['physical security', 'physical access', 'media handling'])],
    ['9.2', 'Physical entry controls', 'Facility entry controls restrict access to systems in the CDE, with video or access-control monitoring of sensitive areas and restricted network jacks.', ['physical access', 'entry controls', 'video cameras', 'badge readers', 'sensitive areas', 'network jacks']],
    ['9.3', 'Personnel and visitor access managed', 'Personnel and visitors are identified and authorised, visitors escorted and badged, and a visitor log retained for three months.', ['visitor log', 'visitor badge', 'escort', 'three months', 'personnel identification']],
    ['9.4', 'Media with cardholder data secured', 'Media are physically secured, classified, sent by secure courier, inventoried and destroyed when no longer needed.', ['media', 'secure courier', 'media inventory', 'media destruction', 'cross-cut shred', 'media classification']],
    ['9.5', 'POI devices protected from tampering', 'Point-of-interaction devices are inventoried, periodically inspected for tampering or substitution, and staff are trained to spot it.', ['point of interaction', 'POI', 'card readers', 'tampering', 'skimming', 'device inspection']],
  ]),
  ...controlGroup('Requirement 10: Log and monitor all access to system components and cardholder data', [
    ['10.1', 'Logging and monitoring processes defined and understood', PROCESSES, processKeywords(['logging', 'audit logs', 'log monitoring'])],
    ['10.2', 'Audit logs implemented', 'Audit logs capture user access to cardholder data, administrative actions, access to logs, failed logins and changes to accounts, with user, time and outcome.', ['audit logs', 'audit trail', 'administrative actions', 'failed logins', 'log details']],
    ['10.3', 'Audit logs protected', 'Audit logs are protected from unauthorised modification and promptly backed up to a central, hard-to-alter server.', ['log protection', 'log integrity', 'central log server', 'tamper-proof', 'file integrity monitoring']],
    ['10.4', 'Audit logs reviewed', 'Security events and critical system logs are reviewed at least daily, using automated mechanisms, and exceptions followed up.', ['log review', 'daily review', 'automated log review', 'SIEM', 'anomalies']],
    ['10.5', 'Audit log history retained', 'Audit log history is kept for at least 12 months, with the last three months immediately available.', ['log retention', '12 months', 'three months', 'one year', 'log history']],
    ['10.6', 'Time synchronisation', 'Time-synchronisation technology keeps system clocks consistent and time data protected.', ['time synchronisation', 'NTP', 'clock', 'time sources', 'timestamps']],
    ['10.7', 'Failures of critical security controls detected', 'Failures of critical security control systems are detected, alerted and responded to promptly.', ['control failure', 'security control failures', 'alerting', 'logging failure', 'restore security functions']],
  ]),
  ...controlGroup('Requirement 11: Test security of systems and networks regularly', [
    ['11.1', 'Security testing processes defined and understood', PROCESSES, processKeywords(['security testing', 'vulnerability scanning', 'penetration testing'])],
    ['11.2', 'Wireless access points identified and monitored', 'Authorised and unauthorised wireless access points are identified at least every three months.', ['wireless access points', 'rogue access points', 'wireless scanning', 'quarterly', 'wireless inventory']],
    ['11.3', 'Vulnerability scans performed', 'Internal and external vulnerability scans run at least every three months and after significant changes; external scans by an Approved Scanning Vendor.', ['vulnerability scans', 'quarterly scans', 'ASV', 'approved scanning vendor', 'internal scans', 'rescan']],
    ['11.4', 'Penetration testing performed', 'Internal and external penetration tests follow a defined methodology at least annually and after significant changes, including segmentation testing.', ['penetration testing', 'pen test', 'segmentation testing', 'annual', 'methodology', 'exploitable vulnerabilities']],
    ['11.5', 'Intrusions and unexpected file changes detected', 'Intrusion detection or prevention monitors traffic at the CDE perimeter and change-detection mechanisms alert on unauthorised file changes.', ['intrusion detection', 'IDS', 'IPS', 'change detection', 'file integrity monitoring', 'FIM']],
    ['11.6', 'Unauthorised payment page changes detected', 'A change- and tamper-detection mechanism alerts on unauthorised changes to HTTP headers and content of payment pages.', ['payment page', 'tamper detection', 'HTTP headers', 'skimming', 'Magecart', 'script integrity']],
  ]),
  ...controlGroup('Requirement 12: Support information security with organizational policies and programs', [
    ['12.1', 'Information security policy known and current', 'A comprehensive information security policy is established, published, reviewed at least annually and communicated, with defined roles and executive responsibility.', ['information security policy', 'reviewed annually', 'published', 'executive responsibility', 'security roles']],
    ['12.2', 'Acceptable use policies for end-user technologies', 'Acceptable use policies for end-user technologies are documented with explicit approval, acceptable uses and approved products.', ['acceptable use', 'end-user technologies', 'explicit approval', 'approved products', 'acceptable use policy', 'end-user technology']],
    ['12.3', 'Risks to the CDE identified and managed', 'Targeted risk analyses support flexible requirements, cryptographic suites are reviewed annually and hardware and software technologies are reviewed.', ['targeted risk analysis', 'risk assessment', 'cryptographic cipher suites', 'technology review', 'annual review']],
    ['12.4', 'PCI DSS compliance managed', 'Executive management sets responsibility for protecting cardholder data and a PCI DSS compliance programme; service providers review operations quarterly.', ['PCI DSS compliance', 'compliance programme', 'executive management', 'quarterly reviews', 'accountability']],
    ['12.5', 'PCI DSS scope documented and validated', 'An inventory of in-scope system components is kept and scope is confirmed at least annually and on significant change.', ['scope', 'scoping', 'in-scope systems', 'inventory of system components', 'scope validation', 'data flows']],
    ['12.6', 'Ongoing security awareness education', 'A formal security awareness programme trains personnel on hire and at least annually, covering phishing and social engineering, with acknowledgement.', ['security awareness', 'training on hire', 'annual training', 'phishing', 'social engineering', 'acknowledgement']],
    ['12.7', 'Personnel screened', 'Potential personnel with access to the CDE are screened before hire within the limits of local law.', ['screening', 'background checks', 'pre-employment', 'insider threat', 'hiring']],
    ['12.8', 'Third-party service provider risk managed', 'A list of TPSPs is kept, written agreements acknowledge their security responsibilities, due diligence precedes engagement and compliance is monitored annually.', ['third-party service providers', 'TPSP', 'service provider list', 'written agreements', 'due diligence', 'responsibility matrix']],
    ['12.9', 'TPSPs support customer compliance', 'Service providers acknowledge in writing their responsibility for account data and share PCI DSS compliance information with customers.', ['service provider acknowledgement', 'attestation of compliance', 'AOC', 'responsibility matrix', 'customer support']],
    ['12.10', 'Incidents responded to immediately', 'An incident response plan is ready, tested at least annually, staffed 24/7, and personnel are trained to respond, including when PAN is found where it should not be.', ['incident response plan', 'tested annually', '24/7', 'incident response team', 'card brand notification', 'forensic investigator']],
  ]),
];
