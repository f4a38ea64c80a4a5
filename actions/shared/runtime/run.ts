/**
 * The frame every action runs in: secrets masked first, then the action's body; any failure ends
 * in log.setFailed with the message and the hint (never a stack trace, which goes to the debug
 * log only), and invalid compliance.yml entries become error annotations on their lines.
 */
import * as core from '@actions/core';
import { log } from './log.js';
import { ComplianceError } from '../../../api/errors.js';
import { ConfigError, ReviewError } from '../../../review/errors.js';
import { neutralise } from '../../../review/neutralise.js';
import { assertMayWriteLibrary, notEvaluatedReason } from '../../../review/events.js';
import { currentEventPolicy } from '../../../review/node/ciContext.js';
import { routeProcessWarnings } from '../../../review/node/processWarnings.js';
import { RepoFileError } from '../../../review/node/files.js';
import { notEvaluatedVerdict } from '../../../review/verdict.js';
import { setVerdictOutputs } from '../stepOutputs.js';
import { isDependabotRun, isForkPullRequest } from '../github/context.js';
import { describeGitHubError, httpStatus } from '../github/permissions.js';
import { readGitHubToken } from '../github/token.js';
import { InputError } from './inputs.js';
import { appendSummary } from './summary.js';
import { missingApiKeyError, readApiKey } from './service.js';

interface Secrets {
  /** The compliance API key; undefined only for actions that declare `needsApiKey: false`. */
  apiKey: string;
  githubToken: string | undefined;
}

export interface ActionDefinition {
  /** The folder name under actions/: used in the user agent and messages. */
  name: string;
  /** false for actions that never call the service (gap-issues). */
  needsApiKey?: boolean;
  /** A gate in pull requests: without a key there it fails (never a green check nothing evaluated). */
  gatesPullRequests?: boolean;
  /** Declares the verdict outputs (map, review): a skip sets them (status `skipped`, passed false, nothing spent). */
  reportsStatus?: boolean;
  /**
   * Runs first, before the API key is looked for: true when it finished the action without the
   * service (map: a pull request that changes nothing in scope passes, also from a fork).
   */
  finishedWithoutService?(): Promise<boolean>;
  run(secrets: Secrets): Promise<void>;
}

/** The message for people: what failed and what to do. */
function failureMessage(error: unknown): string {
  if (error instanceof ConfigError) {
    return `${error.issues.length === 1 ? 'the configuration has a problem' : `the configuration has ${error.issues.length} problems`}:\n${error.message}`;
  }
  if (error instanceof ComplianceError) return error.toDisplayString();
  if (error instanceof ReviewError || error instanceof InputError || error instanceof RepoFileError) {
    return error.hint ? `${error.message} (${error.hint})` : error.message;
  }
  if (httpStatus(error) !== undefined) return `GitHub API: ${describeGitHubError(error)}`;
  return `unexpected error: ${error instanceof Error ? error.message : String(error)}`;
}

function annotateConfigIssues(error: ConfigError): void {
  for (const issue of error.issues.slice(0, 10)) {
    log.error(issue.path ? `${issue.path}: ${issue.message}` : issue.message, {
      title: 'Invalid compliance configuration',
      file: issue.file,
      ...(issue.line !== undefined ? { startLine: issue.line } : {}),
      ...(issue.column !== undefined ? { startColumn: issue.column } : {}),
    });
  }
}

/** Refuses a library write the event forbids (a pull request: unmerged text, two pull requests would overwrite each other). */
export function refuseLibraryWriteInPullRequest(action: string, hint: string): void {
  assertMayWriteLibrary(currentEventPolicy(), action, hint);
}

/**
 * Fork pull requests get no secrets. A pull request gate fails with what a maintainer must do;
 * any other action says so plainly and skips instead of failing obscurely.
 */
function skipWithoutSecrets(action: ActionDefinition): boolean {
  const { name } = action;
  if (!isForkPullRequest() && !isDependabotRun()) return false;
  const who = isDependabotRun() ? 'Dependabot pull requests' : 'pull requests from forks';
  if (action.gatesPullRequests && !currentEventPolicy().mayWriteLibrary) {
    const message = notEvaluatedReason(`compliance ${name}`, who);
    appendSummary(`## Compliance ${name}: not evaluated\n\n${message}\n`);
    core.setOutput('skipped', 'true');
    // The documented outputs of a run nothing evaluated: skipped, not passed, no figures, nothing spent.
    if (action.reportsStatus) setVerdictOutputs(notEvaluatedVerdict(message));
    log.setFailed(message);
    return true;
  }
  const message = `compliance ${name}: skipped, no API key. GitHub does not pass secrets to ${who}, so the compliance check cannot run here; it runs once the change is merged or on a branch of this repository.`;
  log.warning(message, { title: 'Compliance check skipped' });
  appendSummary(`## Compliance ${name}: skipped\n\n${message}\n`);
  core.setOutput('skipped', 'true');
  if (action.reportsStatus) setVerdictOutputs(notEvaluatedVerdict(message));
  return true;
}

export async function runAction(action: ActionDefinition): Promise<void> {
  routeProcessWarnings((line) => log.info(line));
  try {
    const apiKey = readApiKey();
    const githubToken = readGitHubToken();
    if (await action.finishedWithoutService?.()) return;
    if (action.needsApiKey !== false && !apiKey) {
      if (skipWithoutSecrets(action)) return;
      throw missingApiKeyError();
    }
    await action.run({ apiKey: apiKey ?? '', githubToken });
  } catch (error) {
    if (error instanceof ConfigError) annotateConfigIssues(error);
    if (error instanceof Error && error.stack) log.debug(error.stack);
    const message = failureMessage(error);
    // The summary says it too: a run that stopped is never an empty page.
    const refused = error instanceof ReviewError && (error.code === 'budget_exceeded' || error.code === 'event_forbids_write');
    const notEvaluated = error instanceof ReviewError && error.code === 'not_evaluated';
    const title = error instanceof ConfigError ? 'invalid configuration' : error instanceof InputError ? 'invalid input' : refused ? 'refused, nothing written' : notEvaluated ? 'not evaluated, so not passed' : 'failed';
    // A gate that stopped evaluated nothing: its outputs say so (never left unset for a later step to read as a pass).
    if (action.reportsStatus) setVerdictOutputs(notEvaluatedVerdict(message, refused ? 'refused' : 'not-evaluated'));
    appendSummary(`## Compliance ${action.name}: ${title}\n\n${message.split('\n').map((line) => `> ${neutralise(line)}`).join('\n>\n')}\n`, { final: true });
    log.setFailed(message);
  }
}
