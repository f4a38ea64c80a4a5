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

/**
 * Added by the templates suite only (the queue-mode suite's library must equal REPOSITORY_FILES).
 * The same text as the access-control policy under another name: not sent, a sync problem.
 */
export const DUPLICATE_PATH = 'policies/security-baseline.md';
/** Ingested by the first review, deleted from the repository before the second: its document is kept. */
export const CONVENTIONS_PATH = 'policies/conventions.md';
// Says nothing toward a control, so the mapping without it finds the same gaps.
export const CONVENTIONS = `# Conventions of This Folder

Each file in this folder holds one text written in Markdown. File names are lower case with dashes between words.
The first line is a level-one heading with the name of the text; paragraphs are separated by one empty line,
and lists use a dash followed by one space. Tables are avoided because they read badly in plain text.
`;
