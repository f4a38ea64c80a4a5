/** review/ciContext.ts: what a run's environment and event payload say, field by field, per forge. */
import { describe, expect, it } from 'vitest';
import { isForkPullRequestPayload, readCiContext } from '../../review/index.js';

const SHA = 'a'.repeat(40);
const GH = { GITHUB_ACTIONS: 'true', GITHUB_REPOSITORY: 'acme/policies' };
const repository = { full_name: 'acme/policies', default_branch: 'main' };

describe('readCiContext on GitHub Actions', () => {
  it('trims what it reads, drops blanks, lower-cases a commit id and refuses what is not one', () => {
    const context = readCiContext({ ...GH, GITHUB_EVENT_NAME: 'schedule', GITHUB_SERVER_URL: '  https://github.example  ', GITHUB_SHA: ` ${SHA.toUpperCase()} ` }, { repository });
    expect(context).toMatchObject({ forge: 'github', ci: true, serverUrl: 'https://github.example', head: SHA, defaultBranch: 'main', event: { kind: 'schedule', name: 'schedule' } });
    expect(readCiContext({ ...GH, GITHUB_EVENT_NAME: 'schedule', GITHUB_SERVER_URL: '   ', GITHUB_SHA: 'not-a-commit' }, { repository })).toMatchObject({ serverUrl: undefined, head: undefined });
  });

  it('a pull request number must be a positive safe integer, given as a number or as text', () => {
    const number = (value: unknown) => readCiContext({ ...GH, GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: value } }).event.pullRequest;
    expect([7, '7', 0, '0', -3, '1.5', 'seven', 2 ** 60, true].map(number)).toEqual([7, 7, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });

  it('a pull request without a base names none; its base commit otherwise', () => {
    expect(readCiContext({ ...GH, GITHUB_EVENT_NAME: 'pull_request' }, { pull_request: { number: 3 } }).base).toBeUndefined();
    expect(readCiContext({ ...GH, GITHUB_EVENT_NAME: 'pull_request_target' }, { pull_request: { number: 3, base: { sha: SHA } } }).base).toEqual({ commit: SHA });
  });

  it('a merge group names its base commit, else its base branch, else none', () => {
    const base = (mergeGroup: unknown) => readCiContext({ ...GH, GITHUB_EVENT_NAME: 'merge_group' }, { merge_group: mergeGroup }).base;
    expect(base({ base_sha: SHA, base_ref: 'refs/heads/main' })).toEqual({ commit: SHA });
    expect(base({ base_ref: 'refs/heads/release' })).toEqual({ branch: 'release' });
    expect(base(undefined)).toBeUndefined();
  });

  it('a push is the default branch\'s only when its ref names the default branch; other events are unlisted', () => {
    const kind = (name: string, payload: Record<string, unknown>, env: Record<string, string> = {}) => readCiContext({ ...GH, GITHUB_EVENT_NAME: name, ...env }, payload).event.kind;
    expect(kind('push', { ref: 'refs/heads/main', repository })).toBe('push');
    expect(kind('push', { ref: 'refs/heads/feature', repository })).toBe('unlisted');
    expect(kind('push', { ref: 'refs/heads/main', repository: { full_name: 'acme/policies' } })).toBe('unlisted');
    expect(kind('workflow_dispatch', { repository }, { GITHUB_REF: 'refs/heads/main' })).toBe('manual');
    expect(kind('release', { ref: 'refs/heads/main', repository })).toBe('unlisted');
    // A tag is no branch, whatever its name; with neither a branch nor a default branch known, nothing is the default branch.
    expect(kind('push', { ref: 'refs/tags/vmain', repository })).toBe('unlisted');
    expect(kind('push', { repository: { full_name: 'acme/policies' } })).toBe('unlisted');
    expect(readCiContext({ ...GH, GITHUB_EVENT_NAME: 'release' }, { repository }).base).toEqual({ branch: 'main' });
  });

  it('a payload that is not an object reads as an empty one', () => {
    for (const payload of [null, undefined, 'text', 5]) {
      expect(readCiContext({ ...GH, GITHUB_EVENT_NAME: 'pull_request' }, payload)).toMatchObject({ event: { kind: 'pull_request', pullRequest: undefined }, base: undefined, withoutSecrets: undefined });
    }
  });
});

describe('isForkPullRequestPayload', () => {
  it('a head from another repository (in any case), a fork flag, or a deleted head repository is a fork', () => {
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'someone/policies' } }, base: { repo: { full_name: 'acme/policies' } } }, undefined)).toBe(true);
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'Acme/Policies' } }, base: { repo: { full_name: 'acme/policies' } } }, undefined)).toBe(false);
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'acme/policies', fork: true } }, base: { repo: { full_name: 'acme/policies' } } }, undefined)).toBe(true);
    expect(isForkPullRequestPayload({ head: {} }, 'acme/policies')).toBe(true);
    expect(isForkPullRequestPayload({ head: { repo: null } }, 'acme/policies')).toBe(true);
  });

  it('without the base repository in the payload, the run\'s repository is compared; without a head name, nothing is', () => {
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'someone/policies' } }, base: {} }, 'acme/policies')).toBe(true);
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'acme/policies' } } }, 'acme/policies')).toBe(false);
    expect(isForkPullRequestPayload({ head: { repo: { full_name: 'someone/policies' } } }, undefined)).toBe(false);
    expect(isForkPullRequestPayload({ head: { repo: {} } }, 'acme/policies')).toBe(false);
    expect(isForkPullRequestPayload({ number: 3 }, 'acme/policies')).toBe(false);
    expect(isForkPullRequestPayload(undefined, 'acme/policies')).toBe(false);
  });
});

describe('readCiContext on GitLab CI', () => {
  const GL = { GITLAB_CI: 'true', CI_PROJECT_PATH: 'acme/policies', CI_DEFAULT_BRANCH: 'main' };
  const mr = (env: Record<string, string>) => readCiContext({ ...GL, CI_PIPELINE_SOURCE: 'merge_request_event', ...env }, undefined);

  it('a merge request\'s base: the target branch\'s commit, else the branch, else the diff base', () => {
    expect(mr({ CI_MERGE_REQUEST_TARGET_BRANCH_SHA: SHA, CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b'.repeat(40) }).base).toEqual({ commit: SHA });
    expect(mr({ CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b'.repeat(40) }).base).toEqual({ branch: 'main' });
    expect(mr({ CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b'.repeat(40) }).base).toEqual({ commit: 'b'.repeat(40) });
    expect(mr({}).base).toBeUndefined();
    expect(mr({ CI_MERGE_REQUEST_IID: '12' })).toMatchObject({ forge: 'gitlab', ci: true, repository: 'acme/policies', event: { kind: 'pull_request', name: 'merge_request_event', pullRequest: 12, changeRequest: 'merge request' } });
    expect(readCiContext({ ...GL, CI_PIPELINE_SOURCE: 'external_pull_request_event', CI_MERGE_REQUEST_DIFF_BASE_SHA: SHA }, undefined)).toMatchObject({ event: { kind: 'pull_request', name: 'external_pull_request_event' }, base: { commit: SHA } });
  });

  it('a merge request is from a fork only when both project ids are known and differ', () => {
    expect(mr({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1', CI_MERGE_REQUEST_PROJECT_ID: '2' }).withoutSecrets).toBe('fork');
    expect(mr({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '2', CI_MERGE_REQUEST_PROJECT_ID: '2' }).withoutSecrets).toBeUndefined();
    expect(mr({ CI_MERGE_REQUEST_SOURCE_PROJECT_ID: '1' }).withoutSecrets).toBeUndefined();
    expect(mr({ CI_MERGE_REQUEST_PROJECT_ID: '2' }).withoutSecrets).toBeUndefined();
  });

  it('a push, schedule or manual run counts only on the default branch; anything else is unlisted, judged by the default branch', () => {
    const run = (env: Record<string, string | undefined>) => readCiContext({ ...GL, ...env }, undefined);
    expect(run({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main' })).toMatchObject({ event: { kind: 'push', name: 'push', changeRequest: 'merge request' }, base: undefined, withoutSecrets: undefined });
    expect(run({ CI_PIPELINE_SOURCE: 'web', CI_COMMIT_BRANCH: 'main' }).event.kind).toBe('manual');
    expect(run({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'feature' })).toMatchObject({ event: { kind: 'unlisted', name: 'push', changeRequest: 'merge request' }, base: { branch: 'main' } });
    expect(run({ CI_COMMIT_BRANCH: 'main' }).event).toEqual({ kind: 'unlisted', name: undefined, changeRequest: 'merge request' });
    expect(run({ CI_PIPELINE_SOURCE: 'push', CI_COMMIT_BRANCH: 'main', CI_DEFAULT_BRANCH: undefined })).toMatchObject({ event: { kind: 'unlisted' }, base: undefined });
    // A tag pipeline names no branch: without a default branch either, it is still no push to it.
    expect(run({ CI_PIPELINE_SOURCE: 'push', CI_DEFAULT_BRANCH: undefined }).event.kind).toBe('unlisted');
  });
});

describe('readCiContext elsewhere', () => {
  it('any other CI sets CI to something other than false or 0', () => {
    expect(['true', '1', 'false', '0', '', undefined].map((value) => readCiContext({ CI: value }, undefined).ci)).toEqual([true, true, false, false, false, false]);
    expect(readCiContext({ CI: 'true' }, undefined)).toEqual({ forge: undefined, ci: true, event: { kind: 'other' }, repository: undefined, serverUrl: undefined, withoutSecrets: undefined, base: undefined, head: undefined, defaultBranch: undefined });
  });
});
