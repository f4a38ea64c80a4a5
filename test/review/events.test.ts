import { describe, expect, it } from 'vitest';
import { assertMayCall, assertMayWriteLibrary, commentTarget, eventPolicy, isForkPullRequestPayload, notEvaluatedReason, readCiContext, ReviewError } from '../../review/index.js';

const SHA = (digit: string) => digit.repeat(40);
const REPOSITORY = { full_name: 'acme/policies', default_branch: 'main' };
const github = (name: string, payload: Record<string, unknown> = {}, env: Record<string, string> = {}) =>
  readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: name, GITHUB_REPOSITORY: 'acme/policies', GITHUB_SHA: SHA('c'), ...env }, { repository: REPOSITORY, ...payload });
const gitlab = (source: string | undefined, env: Record<string, string> = {}) =>
  readCiContext({ GITLAB_CI: 'true', CI_PIPELINE_SOURCE: source, CI_DEFAULT_BRANCH: 'main', CI_PROJECT_PATH: 'acme/policies', ...env }, undefined);
const pullRequest = { number: 7, head: { repo: { full_name: 'acme/policies', fork: false } }, base: { sha: SHA('b'), repo: { full_name: 'acme/policies' } } };

describe('readCiContext: the event, the change request and the base, from the environment and the payload', () => {
  it('GitHub pull request events: the number, the base commit of the payload, no fork', () => {
    for (const name of ['pull_request', 'pull_request_target', 'pull_request_review']) {
      expect(github(name, { pull_request: pullRequest }), name).toMatchObject({ forge: 'github', event: { kind: 'pull_request', name, pullRequest: 7 }, base: { commit: SHA('b') }, head: SHA('c'), withoutSecrets: undefined });
    }
    const fork = { ...pullRequest, head: { repo: { full_name: 'contributor/policies', fork: true } } };
    expect(github('pull_request', { pull_request: fork }).withoutSecrets).toBe('fork');
    expect(github('pull_request', { pull_request: pullRequest }, { GITHUB_ACTOR: 'dependabot[bot]' }).withoutSecrets).toBe('dependabot');
  });

  it('the repository is owner/name: a malformed GITHUB_REPOSITORY gives way to the payload, and neither well-formed gives none', () => {
    expect(github('push').repository).toBe('acme/policies');
    expect(github('push', {}, { GITHUB_REPOSITORY: 'acme/policies/extra' }).repository).toBe('acme/policies');
    expect(github('push', { repository: { full_name: 'acme policies', default_branch: 'main' } }, { GITHUB_REPOSITORY: ' ' }).repository).toBeUndefined();
  });

  it('a merge-queue run reads its base from merge_group.base_sha', () => {
    expect(github('merge_group', { merge_group: { base_sha: SHA('a'), base_ref: 'refs/heads/main' } })).toMatchObject({ event: { kind: 'merge_group' }, base: { commit: SHA('a') } });
  });

  it('pushes and dispatches count as the default branch only when they name it; schedules always do', () => {
    expect(github('push', { ref: 'refs/heads/main' }).event.kind).toBe('push');
    expect(github('workflow_dispatch', { ref: 'refs/heads/main' }).event.kind).toBe('manual');
    expect(github('repository_dispatch').event.kind).toBe('manual');
    expect(github('schedule').event.kind).toBe('schedule');
    expect(github('push', { ref: 'refs/heads/feature' })).toMatchObject({ event: { kind: 'unlisted', name: 'push' }, base: { branch: 'main' } });
    expect(github('workflow_dispatch', { ref: 'refs/heads/feature' }).event.kind).toBe('unlisted');
    // Without the payload's default branch a push cannot be told apart: deny.
    expect(readCiContext({ GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: 'push', GITHUB_REF: 'refs/heads/main' }, {}).event.kind).toBe('unlisted');
  });

  it('any other GitHub event is unlisted: issue_comment keeps the pull request it was written on, for messages', () => {
    expect(github('issue_comment', { issue: { number: 5, pull_request: { url: 'x' } } })).toMatchObject({ event: { kind: 'unlisted', name: 'issue_comment', pullRequest: 5 }, base: { branch: 'main' } });
    for (const name of ['workflow_run', 'release', 'check_suite', '']) expect(github(name).event.kind, name).toBe('unlisted');
  });

  it('GitLab: a merge request pipeline is a pull request with its IID and diff base; other sources count only on the default branch', () => {
    const mr = gitlab('merge_request_event', { CI_MERGE_REQUEST_IID: '12', CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA('d'), CI_MERGE_REQUEST_PROJECT_ID: '1', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1' });
    expect(mr).toMatchObject({ forge: 'gitlab', event: { kind: 'pull_request', pullRequest: 12, changeRequest: 'merge request' }, base: { commit: SHA('d') }, withoutSecrets: undefined });
    expect(gitlab('merge_request_event', { CI_MERGE_REQUEST_PROJECT_ID: '1', CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2' }).withoutSecrets).toBe('fork');
    // The target branch as it stands judges: its commit in a merged-results pipeline, else the branch to resolve.
    expect(gitlab('merge_request_event', { CI_MERGE_REQUEST_TARGET_BRANCH_SHA: SHA('e'), CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA('d') }).base).toEqual({ commit: SHA('e') });
    expect(gitlab('merge_request_event', { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA('d') }).base).toEqual({ branch: 'main' });
    const onMain = (source: string) => gitlab(source, { CI_COMMIT_BRANCH: 'main' }).event.kind;
    expect(['push', 'schedule', 'web', 'api', 'trigger'].map(onMain)).toEqual(['push', 'schedule', 'manual', 'manual', 'manual']);
    expect(['push', 'schedule', 'web'].map((source) => gitlab(source, { CI_COMMIT_BRANCH: 'feature' }).event.kind)).toEqual(['unlisted', 'unlisted', 'unlisted']);
    expect(gitlab('parent_pipeline', { CI_COMMIT_BRANCH: 'main' }).event.kind).toBe('unlisted');
  });

  it('outside GitHub Actions and GitLab CI the event is other; CI=true still says it is a CI', () => {
    expect(readCiContext({}, undefined)).toMatchObject({ forge: undefined, ci: false, event: { kind: 'other' } });
    expect(readCiContext({ CI: 'true' }, undefined)).toMatchObject({ forge: undefined, ci: true, event: { kind: 'other' } });
    expect(readCiContext({ CI: 'false' }, undefined).ci).toBe(false);
  });
});

describe('eventPolicy: the event table, deny-by-default', () => {
  it('a pull request (fork or not) and a merge-queue run write neither the library nor issues and are judged by the base gate', () => {
    for (const event of [{ kind: 'pull_request', pullRequest: 7 }, { kind: 'merge_group' }] as const) {
      const policy = eventPolicy(event);
      expect(policy, event.kind).toMatchObject({ mayWriteLibrary: false, mayWriteIssues: false, gateFromBaseBranch: true });
      expect(policy.withheld).toContain('unmerged text');
      expect(() => assertMayWriteLibrary(policy, 'sync', 'Run it on pushes.')).toThrow(ReviewError);
    }
  });

  it('an unlisted event writes nothing, comments nowhere and is judged by the base gate', () => {
    const policy = eventPolicy({ kind: 'unlisted', name: 'issue_comment', pullRequest: 5 });
    expect(policy).toMatchObject({ mayWriteLibrary: false, mayWriteIssues: false, gateFromBaseBranch: true });
    expect(policy.withheld).toMatch(/^a run of an event the review loop does not list \(issue_comment, or on a branch other than the default\)/);
    expect(policy.withheld).toContain('it writes nothing beyond its own report');
    expect(commentTarget(policy, undefined)).toEqual({ pullRequest: undefined, refused: 'a run of an unlisted event comments on no pull request (pull-request 5 ignored)' });
  });

  it('pushes, schedules, manual runs of the default branch and runs outside CI may write both', () => {
    for (const kind of ['push', 'schedule', 'manual', 'other'] as const) {
      const policy = eventPolicy({ kind });
      expect(policy, kind).toMatchObject({ mayWriteLibrary: true, mayWriteIssues: true, gateFromBaseBranch: false, withheld: undefined });
      expect(() => assertMayWriteLibrary(policy, 'sync', '')).not.toThrow();
    }
  });

  it('every sentence says the forge\'s word: GitLab has merge requests', () => {
    const policy = eventPolicy({ kind: 'pull_request', pullRequest: 12, changeRequest: 'merge request' });
    expect(policy).toMatchObject({ changeRequest: 'merge request' });
    expect(policy.withheld).toMatch(/^a merge request carries unmerged text: .*its own merge request's comment\)$/);
    expect(() => assertMayWriteLibrary(policy, 'sync', '')).toThrow(/two open merge requests would otherwise/);
    expect(eventPolicy({ kind: 'pull_request', pullRequest: 12 }).changeRequest).toBe('pull request');
  });

  it('calling a library write (the call action, compliance call) is refused where the event may not write the library', () => {
    for (const operationId of ['ingestLibraryDocument', 'refreshLibraryDocument', 'deleteLibraryDocument']) {
      expect(() => assertMayCall(eventPolicy({ kind: 'unlisted', name: 'issue_comment' }), operationId, 'Run it on the default branch.'), operationId).toThrow(/writes the library, which mirrors the default branch/);
      expect(() => assertMayCall(eventPolicy({ kind: 'push' }), operationId, '')).not.toThrow();
    }
    expect(() => assertMayCall(eventPolicy({ kind: 'pull_request', pullRequest: 2 }), 'searchLibrary', '')).not.toThrow();
  });

  it('the refusal names the step, the reason and the fix', () => {
    try {
      assertMayWriteLibrary(eventPolicy({ kind: 'pull_request', pullRequest: 3 }), 'sync', 'Run sync on pushes to the default branch.');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'event_forbids_write', hint: 'Run sync on pushes to the default branch.' });
      expect((error as Error).message).toMatch(/^sync writes the library, which mirrors the default branch: a pull request carries unmerged text/);
    }
  });

  it('a pull request comments only on itself; other events on the pull request they name', () => {
    const pr = eventPolicy({ kind: 'pull_request', pullRequest: 7 });
    expect(commentTarget(pr, undefined)).toEqual({ pullRequest: 7, refused: undefined });
    expect(commentTarget(pr, 7)).toEqual({ pullRequest: 7, refused: undefined });
    expect(commentTarget(pr, 2)).toEqual({ pullRequest: 7, refused: 'a pull request run comments only on its own pull request #7 (pull-request 2 ignored)' });
    expect(commentTarget(eventPolicy({ kind: 'merge_group' }), 2).pullRequest).toBeUndefined();
    expect(commentTarget(eventPolicy({ kind: 'push' }), 2)).toEqual({ pullRequest: 2, refused: undefined });
    expect(commentTarget(eventPolicy({ kind: 'push' }), undefined).pullRequest).toBeUndefined();
  });
});

describe('a fork pull request: no secrets, so not evaluated', () => {
  const repo = (full_name: string, fork = false) => ({ full_name, fork });
  it.each([
    ['a branch of the repository', { head: { repo: repo('acme/policies') }, base: { repo: repo('acme/policies') } }, false],
    ['a fork', { head: { repo: repo('contributor/policies', true) }, base: { repo: repo('acme/policies') } }, true],
    ['another repository not marked fork', { head: { repo: repo('someone/else') }, base: { repo: repo('acme/policies') } }, true],
    ['a deleted fork', { head: { repo: null }, base: { repo: repo('acme/policies') } }, true],
    ['the same name in other case', { head: { repo: repo('ACME/Policies') } }, false],
    ['no pull request', undefined, false],
  ])('%s', (_, pull, fork) => {
    expect(isForkPullRequestPayload(pull, 'acme/policies')).toBe(fork);
  });

  it('says it is not passed, why, and what a maintainer must do', () => {
    const reason = notEvaluatedReason('compliance map', 'pull requests from forks');
    expect(reason).toMatch(/^compliance map: not evaluated, so not passed\. GitHub does not pass secrets to pull requests from forks/);
    expect(reason).toContain('A maintainer must read the change and push it to a branch of this repository');
  });
});
