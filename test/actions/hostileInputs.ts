/**
 * A repository of hostile names and texts (issue 25), shared by the actions' test and the CLI's:
 * file names, titles, document text and config values that read as workflow commands, ANSI escapes,
 * a bare CR and mentions written every way (test/review/forgeMentions.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { liveMentions, MENTION_FORMS } from '../review/forgeMentions.js';
import { HIPAA_CONFIG } from './harness.js';

export { liveMentions };

export const MARK = 'INJECTED';
/** Each would be a workflow command (or hide the log) if printed as it is. */
export const HOSTILE_NAMES = [
  `x\n::error::${MARK}-newline`,
  `::warning::${MARK}-lead`,
  `##[error]${MARK}-v1`,
  `  ::add-mask::${MARK}-blank`,
  `cr\r::stop-commands::${MARK}-cr`,
  `esc\u001b[2K\u2028::notice::${MARK}-separator`,
];
/** Every mention form issue 37 found (character references, fullwidth forms, Markdown and HTML around the @) and the earlier ones. */
export const HOSTILE_TEXT = `\n::error::${MARK}-text\n##[warning]${MARK}-text-v1\nEscalate to @@admin-team and \`@security-team today.\nNotify ${MENTION_FORMS.join(', ')}.\n`;
export const HOSTILE_CONFIG = `${HIPAA_CONFIG(
  80,
  `generate:
  - type: access_control_policy
    framework: hipaa-security
    organisation: { name: "Acme\\n::error::${MARK}-org @@admin-team", country: US }
    output: "generated/::error::${MARK}-output"
    formats: [md]
gapIssues:
  labels: [compliance-gap]
waivers:
  - framework: hipaa-security
    control: "164.314(b)(1)"
    reason: ${JSON.stringify(`Notify ${MENTION_FORMS.join(', ')}`)}
    owner: "&commat;all"
    expires: "2099-01-01"
`,
)}`;

/** Lines the runner reads as a workflow command: they start (after blanks) with `::`. */
export function runnerCommands(stdout: string): string[] {
  return stdout.split(/\r\n|\r|\n/).filter((line) => line.trimStart().startsWith('::'));
}

/**
 * Front matter the YAML library warns about (an unresolved tag): its warning quotes the line, which
 * here starts with a workflow command. Valid YAML with a `satisfies:` declaration, so it is read.
 */
export const HOSTILE_FRONT_MATTER = `---\nsatisfies:\n  hipaa-security: ["164.308(a)(1)"]\n::error title=FM::${MARK}-front-matter: !team x\n---\n\n`;

/** Writes the hostile policy files (and hostile text into an existing one) under `workspace`/policies. */
export function writeHostileFiles(workspace: string): void {
  const policy = readFileSync(join(workspace, 'policies', 'access-control-policy.md'), 'utf8');
  HOSTILE_NAMES.forEach((name, i) => {
    writeFileSync(join(workspace, 'policies', `${name}.md`), `# ::notice::${MARK}-title-${i} @@admin-team\n\n${policy}\n${HOSTILE_TEXT}Revision ${i}.\n`);
  });
  const hr = join(workspace, 'policies', 'hr-security-policy.md');
  writeFileSync(hr, `${HOSTILE_FRONT_MATTER}${readFileSync(hr, 'utf8')}${HOSTILE_TEXT}`);
}
