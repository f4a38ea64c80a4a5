/** The repository and library the review-loop template is run against. */

export const ACCESS_CONTROL = `# Access Control Policy

Access to information systems is granted on the principle of least privilege and need to know.
All user accounts are unique; shared accounts are prohibited. Multi-factor authentication is required for remote access and for all privileged accounts.
Access rights are reviewed quarterly by system owners and revoked within one working day of a leaver notification.
`;

/** In the library at an older version: the repository copy is a change (refresh). */
export const INCIDENT_RESPONSE_OLD = `# Incident Response

Security incidents are reported to the IT team. The IT team decides what to do and keeps a record of the incident in the ticketing system.
Serious incidents are escalated to management as soon as possible.
`;

export const INCIDENT_RESPONSE = `# Incident Response Procedure

Security events are logged centrally and retained for twelve months. Incidents are reported to the security team at once and triaged within four hours.
Personal data breaches are assessed by the data protection officer and notified to the supervisory authority within 72 hours where required.
Every major incident ends with a lessons-learned review.
`;

/** In the library as it is; the repository copy has CRLF line ends and trailing spaces: no change. */
export const ACCEPTABLE_USE = `# Acceptable Use Policy

Company devices and accounts are for business use. Staff must lock their screens when away, must not install unapproved software,
and must report lost or stolen devices to the service desk immediately. Company information must not be stored on personal cloud services.
`;

export const crlfWithTrailingSpaces = (text: string) => text.split('\n').map((line) => (line ? `${line}  ` : line)).join('\r\n');

/** Already in the library under no filename: ingesting it by its path is refused (duplicate_document). */
export const BACKUP = `# Backup Standard

Production databases are backed up every night to a separate region, backups are encrypted, and a restore is tested every quarter.
Backup failures raise an alert to the on-call engineer, who reruns the job or escalates within one working day.
`;

export const REPOSITORY_FILES: Record<string, string> = {
  'policies/access-control.md': ACCESS_CONTROL,
  'policies/incident-response.md': INCIDENT_RESPONSE,
  'policies/acceptable-use.md': crlfWithTrailingSpaces(ACCEPTABLE_USE),
  'policies/backup.txt': BACKUP,
  // Not policy text: filtered out.
  'policies/diagram.png': 'PNG…',
  'policies/archive/old-access-control.md': ACCESS_CONTROL,
  'README.md': '# Policies\n',
};
