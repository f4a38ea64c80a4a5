/**
 * applyGapIssuePlan over an in-memory port (the Octokit adapter under it is tested against nock in
 * githubPort.test.ts): what each write reports to progress and failure callbacks, which failures
 * stop the run or may have landed, and how a GitHub error is read.
 */
import { describe, expect, it } from 'vitest';
import { gapMarker, type GapIssueDraft, type GapIssuePlan } from '../../review/gapIssues.js';
import { applyGapIssuePlan, describeGitHubError, gitHubStatus, isRefusedGitHubWrite, type GitHubIssuesPort, type ListedIssue } from '../../review/githubPort.js';

const URL = 'https://github.com/acme/policies/issues/';
const draft = (key: string): GapIssueDraft => ({ key, title: `[compliance] ${key}`, body: `Gap ${key}\n${gapMarker(key)}`, labels: ['compliance-gap'], assignees: [] });
const plan = (rest: Partial<GapIssuePlan>): GapIssuePlan => ({ create: [], update: [], close: [], unchanged: [], deferred: [], ...rest });
const httpError = (status: number, message: string) => Object.assign(new Error(message), { status });

/** A repository's issues in memory; `fail` makes the named call throw what it gives, once per entry. */
function memoryPort(fail: Partial<Record<keyof GitHubIssuesPort, unknown[]>> = {}, listed: ListedIssue[] = []) {
  const calls: string[] = [];
  let next = 40;
  const failing = (name: keyof GitHubIssuesPort) => {
    const error = fail[name]?.shift();
    if (error !== undefined) throw error;
  };
  const port: GitHubIssuesPort = {
    async listIssues(label) {
      calls.push(`list ${label}`);
      failing('listIssues');
      return listed;
    },
    async createLabel(name) {
      calls.push(`label ${name}`);
      failing('createLabel');
    },
    async createIssue(issue) {
      calls.push(`create ${issue.title}`);
      failing('createIssue');
      next += 1;
      return { number: next, url: `${URL}${next}` };
    },
    async updateIssue(number, patch) {
      calls.push(`update #${number} ${JSON.stringify(patch)}`);
      failing('updateIssue');
      return { number, url: `${URL}${number}` };
    },
    async comment(number, body) {
      calls.push(`comment #${number} ${body}`);
      failing('comment');
    },
  };
  return { port, calls };
}

describe('applyGapIssuePlan', () => {
  it('reports each write it carries out to progress, in order', async () => {
    const { port, calls } = memoryPort();
    const progress: string[] = [];
    const applied = await applyGapIssuePlan(
      port,
      plan({
        create: [draft('a/1')],
        update: [{ ...draft('a/2'), number: 7, reopen: false }, { ...draft('a/3'), number: 8, reopen: true }],
        close: [{ key: 'a/4', number: 9, title: 'T', stateReason: 'completed', comment: 'Resolved.' }],
      }),
      { label: 'compliance-gap', onProgress: (line) => progress.push(line) },
    );
    expect(progress).toEqual(['created #41 [compliance] a/1', 'updated #7', 'reopened #8', 'closed #9']);
    const [second, third] = [draft('a/2'), draft('a/3')];
    expect(calls).toEqual([
      'label compliance-gap',
      'create [compliance] a/1',
      `update #7 ${JSON.stringify({ title: second.title, body: second.body })}`,
      `update #8 ${JSON.stringify({ title: third.title, body: third.body, state: 'open' })}`,
      'comment #9 Resolved.',
      'update #9 {"state":"closed","stateReason":"completed"}',
    ]);
    expect(applied.updated).toEqual([{ key: 'a/2', number: 7, url: `${URL}7` }]);
    expect(applied.reopened).toEqual([{ key: 'a/3', number: 8, url: `${URL}8` }]);
  });

  it('without a progress callback every write still lands, none counted as failed', async () => {
    const { port } = memoryPort();
    const applied = await applyGapIssuePlan(
      port,
      plan({ update: [{ ...draft('a/2'), number: 7, reopen: false }], close: [{ key: 'a/4', number: 9, title: 'T', stateReason: 'completed', comment: 'Resolved.' }] }),
      { label: 'compliance-gap' },
    );
    expect(applied).toMatchObject({ updated: [{ key: 'a/2', number: 7 }], closed: [{ key: 'a/4', number: 9 }], failed: [] });
  });

  it('names each failed write to the failure callback, and goes on without one', async () => {
    const failures: string[] = [];
    const failingPort = () => memoryPort({ createLabel: [httpError(422, 'Validation Failed')], updateIssue: [httpError(422, 'Bad title')], comment: [httpError(422, 'Locked')] }).port;
    const work = plan({ create: [draft('a/1')], update: [{ ...draft('a/2'), number: 7, reopen: false }], close: [{ key: 'a/4', number: 9, title: 'T', stateReason: 'completed', comment: 'Resolved.' }] });
    const applied = await applyGapIssuePlan(failingPort(), work, { label: 'compliance-gap', onFailure: (what, message) => failures.push(`${what}: ${message}`) });
    expect(failures).toEqual(['create the gap labels: 422 Validation Failed', 'update issue #7: 422 Bad title', 'close issue #9: 422 Locked']);
    expect(applied.failed).toEqual([{ key: '', message: '422 Validation Failed' }, { key: 'a/2', message: '422 Bad title' }, { key: 'a/4', message: '422 Locked' }]);
    expect(applied.created.map((entry) => entry.key)).toEqual(['a/1']);
    const silent = await applyGapIssuePlan(failingPort(), work, { label: 'compliance-gap' });
    expect(silent.failed).toEqual(applied.failed);
  });

  it('carries out updates and closes without a progress callback', async () => {
    const { port } = memoryPort();
    const applied = await applyGapIssuePlan(port, plan({ update: [{ ...draft('a/2'), number: 7, reopen: true }], close: [{ key: 'a/4', number: 9, title: 'T', stateReason: 'completed', comment: 'Resolved.' }] }), { label: 'compliance-gap' });
    expect([applied.reopened, applied.closed, applied.failed]).toEqual([[{ key: 'a/2', number: 7, url: `${URL}7` }], [{ key: 'a/4', number: 9, url: `${URL}9` }], []]);
  });

  it('stops at a refused write: nothing after it is attempted', async () => {
    const { port, calls } = memoryPort({ createLabel: [httpError(403, 'Resource not accessible by integration')] });
    const applied = await applyGapIssuePlan(port, plan({ create: [draft('a/1')] }), { label: 'compliance-gap' });
    expect(applied.refused).toMatchObject({ what: 'create the gap labels', status: 403, message: '403 Resource not accessible by integration', permission: 'issues: write' });
    expect(calls).toEqual(['label compliance-gap']);
  });

  it('looks for a create that may have landed after a server fault or a lost answer, not after a refusal of the request', async () => {
    const landedBody = draft('a/1').body;
    for (const fault of [httpError(500, 'Server Error'), new Error('socket hang up')]) {
      const { port, calls } = memoryPort({ createIssue: [fault] }, [{ number: 12, title: 't', body: landedBody, state: 'open', labels: [], url: `${URL}12` }]);
      const applied = await applyGapIssuePlan(port, plan({ create: [draft('a/1')] }), { label: 'compliance-gap' });
      expect(applied.created).toEqual([{ key: 'a/1', number: 12, url: `${URL}12` }]);
      expect(calls).toEqual(['label compliance-gap', 'create [compliance] a/1', 'list compliance-gap']);
    }
    const { port, calls } = memoryPort({ createIssue: [httpError(499, 'Client Closed Request')] });
    const applied = await applyGapIssuePlan(port, plan({ create: [draft('a/1')] }), { label: 'compliance-gap' });
    expect(applied.failed).toEqual([{ key: 'a/1', message: '499 Client Closed Request' }]);
    expect(calls).toEqual(['label compliance-gap', 'create [compliance] a/1']);
  });
});

describe('reading a GitHub error, at its edges', () => {
  it('reads no status from an absent error, and shows it as text', () => {
    expect(gitHubStatus(undefined)).toBeUndefined();
    expect(describeGitHubError(undefined)).toBe('undefined');
    expect(isRefusedGitHubWrite(undefined)).toBe(false);
  });

  it('counts a 403 whose answer carries no headers as a refused write', () => {
    expect(isRefusedGitHubWrite({ status: 403, message: 'Forbidden', response: {} })).toBe(true);
  });

  it('cuts only a documentation link that ends the line, however it is spaced', () => {
    expect(describeGitHubError({ status: 404, message: 'Not Found  -  https://docs.github.com/rest/issues' })).toBe('404 Not Found');
    expect(describeGitHubError({ status: 404, message: 'Not Found - https://docs.github.com/rest then more' })).toBe('404 Not Found - https://docs.github.com/rest then more');
  });
});
