/**
 * Links from a credit to the sentence it rests on, at the revision that was mapped:
 * `<server>/<owner>/<repo>/blob/<commit>/<file>#L<line>-L<endLine>` (on a GitLab,
 * `<server>/<group>/<project>/-/blob/<commit>/<file>#L<line>-<endLine>`). Every report format builds
 * its links here, so report.md, the job summary, the PR comment, the HTML, SARIF and JUnit agree.
 */
import type { Evidence } from './gate.js';
import type { ReviewReport } from './reportDocument.js';

const DEFAULT_SERVER_URL = 'https://github.com';

const COMMIT_PATTERN = /^[0-9a-f]{7,64}$/i;
const REPOSITORY_PATTERN = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;
// A GitLab project may sit in subgroups: group/subgroup/project.
const GITLAB_PROJECT_PATTERN = /^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)+$/;

type LinkTarget = Pick<ReviewReport, 'repository' | 'commit' | 'serverUrl' | 'forge'>;

/** Where the report's repository is browsed at its commit, or undefined when either is unknown. */
export function blobBase(report: LinkTarget): string | undefined {
  const { repository, commit } = report;
  const gitlab = report.forge === 'gitlab';
  if (!repository || !(gitlab ? GITLAB_PROJECT_PATTERN : REPOSITORY_PATTERN).test(repository) || !commit || !COMMIT_PATTERN.test(commit)) return undefined;
  const server = (report.serverUrl ?? DEFAULT_SERVER_URL).replace(/\/+$/, '');
  if (!/^https?:\/\/[^\s"'<>]+$/.test(server)) return undefined;
  return `${server}/${repository}/${gitlab ? '-/' : ''}blob/${commit}`;
}

/** `L3-L5`, and `L3-L3` for one line: the one form every format writes. */
function lineAnchor(evidence: Pick<Evidence, 'line' | 'endLine'>): string | undefined {
  if (evidence.line === undefined) return undefined;
  return `L${evidence.line}-L${Math.max(evidence.line, evidence.endLine ?? evidence.line)}`;
}

/** The link to one traced quote, or undefined when the repository, commit or file is unknown. */
export function evidenceUrl(report: LinkTarget, evidence: Evidence): string | undefined {
  const base = blobBase(report);
  if (!base || !evidence.file) return undefined;
  const path = evidence.file.split('/').map(encodeURIComponent).join('/');
  const github = lineAnchor(evidence);
  const anchor = report.forge === 'gitlab' ? github?.replace('-L', '-') : github;
  return `${base}/${path}${anchor ? `#${anchor}` : ''}`;
}

/**
 * `policies/access.md, lines 3-5` (or `line 3`, or the file alone): the text a link is shown as, and
 * the one place every rendering names. Only the traced line counts: the service's own line
 * (`location.line`) is a line of what it was sent, not of the file.
 */
export function evidencePlace(evidence: Evidence): string | undefined {
  const file = evidence.file ?? (evidence.location.source !== 'combined' ? evidence.location.source : undefined);
  const { line } = evidence;
  const end = Math.max(line ?? 0, evidence.endLine ?? line ?? 0);
  const lines = line === undefined ? undefined : end > line ? `lines ${line}-${end}` : `line ${line}`;
  return [file, lines].filter(Boolean).join(', ') || undefined;
}
