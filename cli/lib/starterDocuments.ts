/**
 * What `compliance init` writes beside compliance.yml when the example's globs select no file, so
 * `compliance review` runs as-is on a fresh checkout: one short policy and one procedure, to be
 * replaced by the organisation's own.
 */
export const STARTER_DOCUMENTS: Readonly<Record<string, string>> = {
  'policies/information-security.md': `# Information Security Policy

Starter document written by \`compliance init\`: replace it with your own policy.

## Purpose and scope
This policy protects the confidentiality, integrity and availability of the information Acme Ltd
holds. It applies to every employee, contractor and system.

## Roles and responsibilities
The CISO owns this policy, reviews it every year and reports on information security risk to the board.

## Asset inventory
Hardware, software, data and services are recorded in an inventory that is kept up to date.

## Access control
Access is granted on least privilege, approved by the asset owner and reviewed every quarter.
Multi-factor authentication is required for remote access and for administrators.

## Data protection
Data is encrypted at rest and in transit. Backups are taken daily and restores are tested.

## Incident response
Incidents are reported to the security team at once, contained, investigated and recorded.
`,
  'procedures/access-review.md': `# Access Review Procedure

Starter document written by \`compliance init\`: replace it with your own procedure.

Every quarter each system owner exports the list of accounts and their permissions, confirms
that each account belongs to a current employee or contractor who needs it, removes access that
is no longer needed and records the review and its outcome in the ticketing system.
`,
};
