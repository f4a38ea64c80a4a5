import { describe, expect, it } from 'vitest';
import { assertMayWriteLibrary, commentTarget, eventPolicy, gitHubEvent, gitLabEvent, isForkPullRequestPayload, notEvaluatedReason, ReviewError } from '../../review/index.js';

describe('eventPolicy: what an event may change', () => {
  it('a pull request (fork or not) and a merge-queue run write neither the library nor issues and are judged by the base gate', () => {
    for (const name of ['pull_request', 'pull_request_target', 'merge_group']) {
      const policy = eventPolicy(gitHubEvent(name, 7));
      expect(policy, name).toMatchObject({ mayWriteLibrary: false, mayWriteIssues: false, gateFromBaseBranch: true });
      expect(policy.withheld).toContain('unmerged text');
      expect(() => assertMayWriteLibrary(policy, 'sync', 'Run it on pushes.')).toThrow(ReviewError);
    }
  });

  it('pushes, schedules, manual runs and runs outside CI may write both', () => {
    for (const name of ['push', 'schedule', 'workflow_dispatch', undefined, 'release']) {
      const policy = eventPolicy(gitHubEvent(name));
      expect(policy, String(name)).toMatchObject({ mayWriteLibrary: true, mayWriteIssues: true, gateFromBaseBranch: false, withheld: undefined });
      expect(() => assertMayWriteLibrary(policy, 'sync', '')).not.toThrow();
    }
  });

  it("GitLab CI: a merge request pipeline is a pull request (its IID kept); pushes, schedules and manual runs are as on GitHub", () => {
    expect(gitLabEvent('merge_request_event', 12)).toEqual({ kind: 'pull_request', pullRequest: 12, changeRequest: 'merge request' });
    const policy = eventPolicy(gitLabEvent('merge_request_event', 12));
    expect(policy).toMatchObject({ mayWriteLibrary: false, mayWriteIssues: false, gateFromBaseBranch: true, changeRequest: 'merge request' });
    // Every sentence says the forge's word: GitLab has merge requests.
    expect(policy.withheld).toMatch(/^a merge request carries unmerged text: .*its own merge request's comment\)$/);
    expect(() => assertMayWriteLibrary(policy, 'sync', '')).toThrow(/two open merge requests would otherwise/);
    expect(eventPolicy(gitHubEvent('pull_request', 12)).changeRequest).toBe('pull request');
    expect(['push', 'schedule', 'web', 'api', 'trigger', undefined, 'parent_pipeline'].map((source) => gitLabEvent(source).kind)).toEqual(['push', 'schedule', 'manual', 'manual', 'manual', 'other', 'other']);
  });

  it('the refusal names the step, the reason and the fix', () => {
    try {
      assertMayWriteLibrary(eventPolicy(gitHubEvent('pull_request', 3)), 'sync', 'Run sync on pushes to the default branch.');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'event_forbids_write', hint: 'Run sync on pushes to the default branch.' });
      expect((error as Error).message).toMatch(/^sync writes the library, which mirrors the default branch: a pull request carries unmerged text/);
    }
  });

  it('a pull request comments only on itself; other events on the pull request they name', () => {
    const pr = eventPolicy(gitHubEvent('pull_request', 7));
    expect(commentTarget(pr, undefined)).toEqual({ pullRequest: 7, refused: undefined });
    expect(commentTarget(pr, 7)).toEqual({ pullRequest: 7, refused: undefined });
    expect(commentTarget(pr, 2)).toEqual({ pullRequest: 7, refused: 'a pull request run comments only on its own pull request #7 (pull-request 2 ignored)' });
    expect(commentTarget(eventPolicy(gitHubEvent('merge_group')), 2).pullRequest).toBeUndefined();
    expect(commentTarget(eventPolicy(gitHubEvent('push')), 2)).toEqual({ pullRequest: 2, refused: undefined });
    expect(commentTarget(eventPolicy(gitHubEvent('push')), undefined).pullRequest).toBeUndefined();
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
