/**
 * CIS Critical Security Controls v8.1 (June 2024): the 18 controls. Titles are the published control
 * names; descriptions summarise their safeguards in our own words.
 */
import type { Control } from '../types.js';
import { controlGroup } from './group.js';

export const cisControls8Controls: Control[] = [
  ...controlGroup('Inventory and configuration', [
    ['CIS 1', 'Inventory and Control of Enterprise Assets', 'Actively manage all enterprise assets connected to the infrastructure so that only authorised assets get access and unauthorised ones are found and removed.', ['asset inventory', 'enterprise assets', 'unauthorised assets', 'asset discovery', 'DHCP logging', 'CMDB']],
    ['CIS 2', 'Inventory and Control of Software Assets', 'Actively manage all software so that only authorised, supported software is installed and executed.', ['software inventory', 'authorised software', 'unsupported software', 'allowlisting', 'software licences']],
    ['CIS 3', 'Data Protection', 'Identify, classify, securely handle, retain and dispose of data, including encryption of sensitive data at rest and in transit.', ['data inventory', 'data classification', 'data retention', 'data disposal', 'encryption', 'data flows', 'data loss prevention']],
    ['CIS 4', 'Secure Configuration of Enterprise Assets and Software', 'Establish and maintain secure configurations for end-user devices, network devices, servers and software, including firewalls and session locking.', ['secure configuration', 'hardening', 'configuration baseline', 'default accounts', 'session locking', 'host-based firewall']],
  ]),
  ...controlGroup('Identity and access', [
    ['CIS 5', 'Account Management', 'Manage the life cycle of user, administrator and service accounts: inventory, unique passwords, disabling dormant accounts and restricting admin privileges.', ['account inventory', 'dormant accounts', 'unique passwords', 'service accounts', 'administrator accounts', 'account management']],
    ['CIS 6', 'Access Control Management', 'Create, assign, manage and revoke access rights; require MFA for external applications, remote access and administrative access; use role-based access.', ['access granting', 'access revoking', 'multi-factor authentication', 'MFA', 'role-based access control', 'centralised access control', 'SSO']],
  ]),
  ...controlGroup('Vulnerabilities, logging and defences', [
    ['CIS 7', 'Continuous Vulnerability Management', 'Continuously assess and track vulnerabilities and remediate them, with automated patching and scanning.', ['vulnerability management', 'automated patching', 'vulnerability scanning', 'remediation', 'patch management']],
    ['CIS 8', 'Audit Log Management', 'Collect, alert on, review and retain audit logs of events that could help detect, understand or recover from an attack.', ['audit logs', 'log management', 'log retention', 'log review', 'centralised logging', 'time synchronisation']],
    ['CIS 9', 'Email and Web Browser Protections', 'Improve protections against threats from email and the web, using supported browsers, DNS filtering and anti-spoofing controls.', ['email security', 'web browser', 'DNS filtering', 'DMARC', 'URL filtering', 'attachment blocking']],
    ['CIS 10', 'Malware Defenses', 'Prevent or control installation, spread and execution of malicious software with centrally managed anti-malware and behaviour-based detection.', ['anti-malware', 'malware defences', 'autorun disabled', 'behaviour-based detection', 'EDR', 'anti-exploitation']],
  ]),
  ...controlGroup('Recovery and networks', [
    ['CIS 11', 'Data Recovery', 'Establish and maintain data recovery practices, with automated, protected and isolated backups and tested recovery.', ['data recovery', 'backups', 'isolated backup', 'recovery testing', 'backup protection']],
    ['CIS 12', 'Network Infrastructure Management', 'Actively manage network devices: keep them up to date, use secure architecture and management protocols, and document the network.', ['network infrastructure', 'network architecture', 'network diagrams', 'secure network management', 'VPN']],
    ['CIS 13', 'Network Monitoring and Defense', 'Operate processes and tooling to monitor and defend the network, with centralised alerting, intrusion detection and traffic filtering.', ['network monitoring', 'intrusion detection', 'IDS', 'IPS', 'traffic filtering', 'network segmentation', 'security event alerting']],
  ]),
  ...controlGroup('People, suppliers and applications', [
    ['CIS 14', 'Security Awareness and Skills Training', 'Run a security awareness programme that trains the workforce to recognise social engineering, handle data and report incidents.', ['security awareness', 'training', 'social engineering', 'phishing', 'role-specific training', 'incident reporting']],
    ['CIS 15', 'Service Provider Management', 'Evaluate service providers holding sensitive data or responsible for critical platforms, with inventory, classification, contracts, monitoring and decommissioning.', ['service provider inventory', 'vendor management', 'service provider contracts', 'vendor assessment', 'decommission providers']],
    ['CIS 16', 'Application Software Security', 'Manage the security life cycle of in-house, hosted or acquired software to prevent, detect and remediate weaknesses.', ['secure development', 'application security', 'code review', 'threat modelling', 'vulnerability handling', 'third-party components']],
  ]),
  ...controlGroup('Response and testing', [
    ['CIS 17', 'Incident Response Management', 'Establish an incident response programme with designated personnel, contacts, reporting process, plan and exercises.', ['incident response', 'incident handling', 'incident response plan', 'exercises', 'post-incident review', 'contact information']],
    ['CIS 18', 'Penetration Testing', 'Test the effectiveness and resilience of enterprise assets by simulating attacker objectives and remediating the findings.', ['penetration testing', 'pen test', 'red team', 'remediation of findings', 'external penetration test', 'internal penetration test']],
  ]),
];
