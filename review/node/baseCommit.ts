/**
 * What a gated run (a pull request, a merge-queue run, an unlisted event) knows of its base commit,
 * read from git, never from a file the change or a cache could have written: the commit itself,
 * its compliance.yml (the gate that judges the change), what changed since it, and, on demand, its
 * documents (what a cached baseline is verified against). A base the clone does not hold, or one
 * without compliance.yml, leaves the change not evaluated, with the fix.
 */
import { parseConfig } from '../config.js';
import type { CiContext } from '../ciContext.js';
import type { RepoFile } from '../documents.js';
import { ReviewError } from '../errors.js';
import type { EventPolicy } from '../events.js';
import { matchesGlob } from '../glob.js';
import type { BaseCommitFiles } from '../pullRequest.js';
import { branchCommit, changesSince, fileAtCommit, filesAtCommit, presentCommit } from './git.js';

/** The fix when the clone lacks the base commit, per forge. */
function fetchHint(context: CiContext, base: string): string {
  if (context.forge === 'github') return `Check out with the full history (actions/checkout with fetch-depth: 0, as templates/github/compliance-pr-check.yml does), so ${base} is in the clone.`;
  if (context.forge === 'gitlab') return `Fetch it before the check (git fetch origin, with GIT_DEPTH: "0" on the job, as templates/gitlab/compliance.gitlab-ci.yml does), so ${base} is in the clone.`;
  return `Fetch ${base} into the clone first.`;
}

const short = (commit: string) => commit.slice(0, 12);

/**
 * The base commit of a gated run. Throws ReviewError `not_evaluated` (the check is not evaluated,
 * so not passed) when the event names no base, the clone does not hold it, or it has no
 * compliance.yml. `configPath` is relative to `root`, as the checkout's own is read.
 */
export async function readBaseCommit(root: string, configPath: string, context: CiContext, policy: EventPolicy): Promise<BaseCommitFiles> {
  const word = policy.changeRequest;
  const notEvaluated = (why: string, hint: string) => new ReviewError('not_evaluated', `not evaluated, so not passed: ${why}. A ${word} is judged by the gate of its base commit's compliance.yml, never by its own.`, hint);
  const base = context.base;
  if (!base) {
    throw notEvaluated(`the ${context.event.name ?? 'CI'} event names no base commit to read the gate from`, 'Run the check on pull_request (or a merge request pipeline), whose event names its base commit.');
  }
  const describe = 'commit' in base ? `the base commit ${short(base.commit)}` : `the branch ${base.branch}`;
  const commit = 'commit' in base ? await presentCommit(root, base.commit) : await branchCommit(root, base.branch);
  if (!commit) throw notEvaluated(`${describe} is not in this clone`, fetchHint(context, 'commit' in base ? base.commit : `origin/${base.branch}`));
  const text = await fileAtCommit(root, commit, configPath);
  if (text === undefined) {
    throw notEvaluated(`${describe} has no ${configPath}, so it sets no gate`, `Merge ${configPath} into the default branch on its own first; every later ${word} is then judged by it.`);
  }
  const config = parseConfig(text, `${configPath} at ${short(commit)}`);
  const changes = await changesSince(root, commit);
  return {
    commit,
    describe,
    config: { config, text },
    changes,
    async documents(): Promise<RepoFile[]> {
      const patterns = config.documents.flatMap((group) => group.paths);
      const paths = ((await filesAtCommit(root, commit)) ?? []).filter((path) => patterns.some((pattern) => matchesGlob(pattern, path)));
      const files = await Promise.all(paths.map(async (path) => ({ path, content: (await fileAtCommit(root, commit, path)) ?? '' })));
      return files;
    },
  };
}
