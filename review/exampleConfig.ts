/**
 * The commented compliance.yml that `compliance init` writes: `compliance review` runs it as-is (on
 * the embedded sandbox, with init's starter documents). Its waiver expires half a year after
 * `today`, so a fresh file never starts with an expired waiver. A test keeps it parsing.
 */
export function exampleConfig(today: string): string {
  const expires = new Date(Date.parse(`${today}T00:00:00Z`) + 183 * 86_400_000).toISOString().slice(0, 10);
  return EXAMPLE_TEMPLATE.replace('{{WAIVER_EXPIRES}}', expires);
}

const EXAMPLE_TEMPLATE = `# compliance.yml: what the review loop syncs, maps, gates and generates.
# Validate with: compliance config check

# owner/name of this repository. Documents that sync creates are tagged repo:<owner>/<name>;
# --delete-removed only ever deletes documents carrying that tag. The GitHub Actions fill it in.
repository: acme/policies

# Documents to keep in the library. Each group: globs, a category and tags.
# A glob that matches no file is an error, not a pass.
documents:
  - name: policies
    paths:
      - "policies/**/*.md"
    category: Policies
    tags: [security]
  - name: procedures
    paths: ["procedures/*.md"]
    category: Procedures

# Frameworks to map the documents against. framework: a verified framework's slug or name.
# The gate fails below threshold (percent). documents: group names or globs (default: all).
# mode: combined (one upload, one charge; evidence cites each file) or per-document (one each).
frameworks:
  - framework: nist-csf-2
    threshold: 70
    documents: [policies, procedures]
    mode: combined

# What else fails the gate: coverage (the thresholds alone, the default), new-gaps (also gaps
# absent from the baseline) or declared-without-evidence. A --fail-on flag or fail-on input can
# only make it stricter; a pull request is judged by the default branch's compliance.yml.
failOn: coverage

# Accepted gaps: they do not fail the gate until they expire (the expiry day still counts).
waivers:
  - framework: nist-csf-2
    control: PR.AT-01
    reason: Awareness training moves to the new HR platform in Q3
    owner: ciso@acme.example
    expires: "{{WAIVER_EXPIRES}}"

# One GitHub issue per gap, found again by a hidden marker; resolved gaps are closed.
gapIssues:
  labels: [compliance-gap]
  assignees: []
  titlePrefix: "[compliance]"
  closeResolved: true
  maxNewPerRun: 10

# Generated documents. output is a repo path without extension; each format adds its own.
# A manifest in .compliance/generated.json records what produced each file, so drifted ones
# (framework updated, parameters changed) are regenerated and hand edits are never overwritten.
# type: one of the service's document types (compliance config check lists them).
generate:
  - type: information_security_policy
    framework: nist-csf-2
    organisation:
      name: Acme Ltd
      sector: Software
      country: GB
    output: generated/nist-csf-policy
    formats: [md, pdf]

# How often the scheduled review runs: none, monthly or quarterly.
review:
  cadence: quarterly
`;

/** The example as of a fixed day (docs and tests). */
export const EXAMPLE_CONFIG = exampleConfig('2026-01-01');
