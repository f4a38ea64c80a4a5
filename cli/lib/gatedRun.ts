/**
 * What a gated CI run (a pull or merge request, a merge-queue run, an unlisted event; review/'s
 * event table) answers before a key or a call: it reads its base commit from git (the gate), passes
 * a change that touches nothing in scope, and does not evaluate a fork's change without the key.
 */
import { CONFIG_FILE_NAME } from '../../review/config.js';
import { ReviewError } from '../../review/errors.js';
import { notEvaluatedReason } from '../../review/events.js';
import { readBaseCommit } from '../../review/node/baseCommit.js';
import { currentCiContext, currentEventPolicy } from '../../review/node/ciContext.js';
import { changedPathsCheck, type BaseCommitFiles } from '../../review/pullRequest.js';
import { notEvaluatedVerdict } from '../../review/verdict.js';
import { stringFlag, type Parsed } from './args.js';
import { EXIT, type ExitCode } from './errors.js';
import type { Output } from './output.js';
import type { Repo } from './repo.js';

/**
 * On a gated event (a pull or merge request, a merge-queue run, an unlisted event) the base commit,
 * read from git before anything else: its compliance.yml is the gate. Undefined on other events;
 * throws `not_evaluated` (exit 1) when the clone does not hold it.
 */
export async function gatedBase(repo: Repo): Promise<BaseCommitFiles | undefined> {
  const policy = currentEventPolicy();
  if (!policy.gateFromBaseBranch) return undefined;
  const configPath = repo.configText === undefined ? CONFIG_FILE_NAME : repo.configPath;
  return readBaseCommit(repo.root, configPath, currentCiContext(), policy);
}

/**
 * A gated run whose change since its base touches no document in scope nor compliance.yml:
 * review/'s `unchanged` verdict, before any key or call (exit 0, nothing spent), also from a fork.
 * Undefined when the check must run.
 */
export function answerUnchangedChange(out: Output, repo: Repo, base: BaseCommitFiles | undefined): ExitCode | undefined {
  const { verdict } = changedPathsCheck(currentEventPolicy(), base, { config: repo.config, path: repo.configPath });
  if (!verdict) return undefined;
  out.result(
    () => `${out.style('Unchanged:', 'green', 'bold')} no document in scope nor ${repo.configPath} differs from ${base?.describe}, so nothing was mapped and nothing spent.`,
    () => ({ status: 'unchanged', verdict, exitCode: EXIT.ok, tokensSpent: 0 }),
  );
  return EXIT.ok;
}

/**
 * A change request from a fork (or Dependabot's) gets no secrets: without a key the check is not
 * evaluated (review/ words why), never answered by the embedded sandbox nor by a usage error.
 * The reason, or undefined when the run has a key or gets secrets.
 */
function keylessForkPullRequest(parsed: Parsed): string | undefined {
  const context = currentCiContext();
  if (!context.withoutSecrets || !currentEventPolicy().gateFromBaseBranch) return undefined;
  if (stringFlag(parsed.values, 'api-key') ?? process.env.COMPLIANCE_API_KEY?.trim()) return undefined;
  const { changeRequest } = currentEventPolicy();
  return notEvaluatedReason('compliance', context.withoutSecrets === 'fork' ? `${changeRequest}s from forks` : `Dependabot's ${changeRequest}s`, context.forge === 'gitlab' ? 'GitLab' : 'GitHub');
}

const FORK_HINT = 'Run the check on a branch of this repository, where the workflow has the key.';

/** Commands without a verdict of their own (sync, gaps) refuse a keyless fork pull request as an error. */
export function refuseKeylessForkPullRequest(parsed: Parsed): void {
  const reason = keylessForkPullRequest(parsed);
  if (reason) throw new ReviewError('not_evaluated', reason, FORK_HINT);
}

/**
 * map and review answer a keyless fork pull request with review/'s verdict: skipped, not passed
 * (exit 1), nothing spent; --json carries it as every other run's verdict. Undefined when the run
 * goes ahead.
 */
export function answerKeylessForkPullRequest(parsed: Parsed, out: Output): ExitCode | undefined {
  const reason = keylessForkPullRequest(parsed);
  if (!reason) return undefined;
  const verdict = notEvaluatedVerdict(reason);
  out.result(
    () => `${out.style(reason, 'red')}\n  ${FORK_HINT}`,
    () => ({ status: 'skipped', verdict, exitCode: EXIT.gateFailed, tokensSpent: 0 }),
  );
  return EXIT.gateFailed;
}
