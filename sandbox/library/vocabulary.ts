/**
 * Built-in vocabularies of the classifier: the default category set (used when the caller has no
 * category that fits) and the topic tags derived from content. Each entry lists words and phrases a
 * document on it would use; matching is on Porter stems, so inflections need not be listed.
 */

export interface VocabularyEntry {
  name: string;
  phrases: readonly string[];
}

/** Category when nothing in the built-in set or the caller's own categories fits. */
export const FALLBACK_CATEGORY = 'General';

export const BUILTIN_CATEGORIES: readonly VocabularyEntry[] = [
  { name: 'Access Control', phrases: ['access control', 'access', 'authentication', 'multi-factor', 'mfa', 'password', 'privileged', 'least privilege', 'account', 'user access review', 'role-based', 'authorization', 'credential', 'provisioning', 'deprovisioning', 'single sign-on'] },
  { name: 'Incident Response', phrases: ['incident', 'incident response', 'security incident', 'escalation', 'containment', 'eradication', 'breach', 'forensic', 'post-incident', 'lessons learned', 'severity', 'triage', 'notification'] },
  { name: 'Data Protection', phrases: ['personal data', 'data protection', 'privacy', 'encryption', 'data classification', 'confidential', 'retention', 'disposal', 'data subject', 'gdpr', 'pseudonymisation', 'data loss prevention', 'sensitive data'] },
  { name: 'Business Continuity', phrases: ['business continuity', 'disaster recovery', 'backup', 'recovery time objective', 'recovery point objective', 'rto', 'rpo', 'failover', 'resilience', 'outage', 'restore', 'business impact analysis'] },
  { name: 'Risk Management', phrases: ['risk', 'risk assessment', 'risk register', 'risk appetite', 'likelihood', 'impact', 'risk treatment', 'risk owner', 'threat', 'vulnerability', 'residual risk', 'risk tolerance'] },
  { name: 'Vendor Management', phrases: ['vendor', 'supplier', 'third party', 'third-party', 'due diligence', 'contract', 'service provider', 'outsourcing', 'subprocessor', 'vendor risk', 'procurement', 'supply chain'] },
  { name: 'HR Security', phrases: ['employee', 'onboarding', 'offboarding', 'background check', 'screening', 'security awareness', 'training', 'termination', 'disciplinary', 'confidentiality agreement', 'new hire', 'human resources'] },
  { name: 'Acceptable Use', phrases: ['acceptable use', 'personal use', 'prohibited', 'email', 'internet', 'social media', 'company equipment', 'byod', 'mobile device', 'software installation', 'monitoring', 'removable media'] },
  { name: 'Change Management', phrases: ['change management', 'change request', 'change advisory board', 'approval', 'rollback', 'deployment', 'release', 'emergency change', 'testing', 'configuration', 'production', 'peer review'] },
  { name: 'Governance', phrases: ['governance', 'board', 'policy framework', 'roles and responsibilities', 'accountability', 'compliance', 'oversight', 'audit', 'management review', 'exceptions', 'steering committee', 'ciso'] },
];

/** Topic tags (lower-case, hyphenated) derived from what a document discusses. */
export const TOPIC_TAGS: readonly VocabularyEntry[] = [
  { name: 'mfa', phrases: ['multi-factor', 'mfa', 'two-factor', '2fa', 'second factor'] },
  { name: 'passwords', phrases: ['password', 'passphrase', 'password manager'] },
  { name: 'privileged-access', phrases: ['privileged access', 'privileged account', 'administrator account', 'admin rights'] },
  { name: 'access-review', phrases: ['access review', 'recertification', 'user access review'] },
  { name: 'encryption', phrases: ['encryption', 'encrypt', 'tls', 'aes', 'cryptographic key', 'key management'] },
  { name: 'logging', phrases: ['log', 'logging', 'audit trail', 'siem', 'monitoring'] },
  { name: 'incident-escalation', phrases: ['escalation', 'escalate', 'on-call', 'severity'] },
  { name: 'breach-notification', phrases: ['breach notification', 'notify', 'notification', 'supervisory authority', '72 hours'] },
  { name: 'data-retention', phrases: ['retention', 'retention period', 'retain', 'disposal', 'destruction', 'deletion'] },
  { name: 'privacy', phrases: ['personal data', 'privacy', 'data subject', 'consent'] },
  { name: 'data-classification', phrases: ['classification', 'confidential', 'restricted', 'internal use', 'public'] },
  { name: 'backup', phrases: ['backup', 'back up', 'restore', 'snapshot'] },
  { name: 'disaster-recovery', phrases: ['disaster recovery', 'failover', 'recovery time objective', 'rto', 'rpo'] },
  { name: 'vendor-risk', phrases: ['vendor', 'supplier', 'third party', 'third-party', 'due diligence'] },
  { name: 'risk-assessment', phrases: ['risk assessment', 'risk register', 'likelihood', 'risk treatment'] },
  { name: 'vulnerability-management', phrases: ['vulnerability', 'patch', 'patching', 'penetration test', 'scan'] },
  { name: 'training', phrases: ['training', 'awareness', 'phishing simulation'] },
  { name: 'onboarding', phrases: ['onboarding', 'new hire', 'background check', 'screening'] },
  { name: 'offboarding', phrases: ['offboarding', 'termination', 'leaver', 'return of assets'] },
  { name: 'change-control', phrases: ['change request', 'change advisory board', 'rollback', 'emergency change', 'change management'] },
  { name: 'remote-work', phrases: ['remote work', 'remote access', 'vpn', 'home office', 'teleworking'] },
  { name: 'physical-security', phrases: ['physical security', 'badge', 'visitor', 'cctv', 'data centre', 'data center'] },
  { name: 'asset-management', phrases: ['asset inventory', 'asset register', 'asset owner', 'hardware inventory'] },
  { name: 'acceptable-use', phrases: ['acceptable use', 'personal use', 'prohibited use'] },
];
