/**
 * Errors of the review loop. A ReviewError is a usage or configuration problem found before (or
 * instead of) calling the service; callers map it to "usage or configuration error" (CLI exit 2).
 */
type ReviewErrorCode =
  | 'invalid_config'
  | 'glob_no_match'
  | 'unknown_document_group'
  | 'budget_exceeded'
  /** The user declined (or cancelled) a confirmation asked before a charged call: nothing sent. */
  | 'declined'
  /** The answer to such a confirmation could not be read: nothing sent. */
  | 'confirmation_unreadable'
  | 'event_forbids_write'
  /** A gating run without secrets (a fork's pull request): nothing evaluated, so not passed. */
  | 'not_evaluated'
  | 'no_controls'
  | 'no_coverage'
  | 'invalid_report'
  | 'invalid_manifest'
  | 'library_content_unavailable'
  /** A document with no letter or digit: refused before anything is sent or charged. */
  | 'empty_document';

export class ReviewError extends Error {
  readonly code: ReviewErrorCode;
  readonly hint: string | undefined;

  constructor(code: ReviewErrorCode, message: string, hint?: string) {
    super(message);
    this.name = 'ReviewError';
    this.code = code;
    this.hint = hint;
  }
}

/** One problem in compliance.yml, located for people: `compliance.yml:12 frameworks[0].threshold: …`. */
export interface ConfigIssue {
  file: string;
  /** 1-based; undefined when the problem has no place in the text (an empty file). */
  line: number | undefined;
  column: number | undefined;
  /** Path in the document, e.g. `frameworks[0].threshold`; empty for the document itself. */
  path: string;
  message: string;
}

function formatConfigIssue(issue: ConfigIssue): string {
  const where = issue.line === undefined ? issue.file : `${issue.file}:${issue.line}`;
  return issue.path ? `${where} ${issue.path}: ${issue.message}` : `${where}: ${issue.message}`;
}

export class ConfigError extends ReviewError {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[]) {
    super('invalid_config', issues.map(formatConfigIssue).join('\n'));
    this.name = 'ConfigError';
    this.issues = issues;
  }
}
