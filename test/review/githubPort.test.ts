/**
 * The one GitHub adapter (review/node/octokit.ts) under the review loop's port
 * (review/githubPort.ts), against nock answering as GitHub documents it: Link-header pagination,
 * secondary rate limits with retry-after, 422 validation failures, and a 502 after the write
 * landed (the lost answer: the label is listed again and no duplicate is opened).
 */
import Bottleneck from 'bottleneck';
import nock from 'nock';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { gapMarker, type GapIssueDraft, type GapIssuePlan } from '../../review/gapIssues.js';
import { applyGapIssuePlan, describeGitHubError, gitHubStatus, isRefusedGitHubWrite } from '../../review/githubPort.js';
import { createGitHub, gitHubIssues, parseRepository, type GitHubLog } from '../../review/node/octokit.js';

const API = 'https://api.github.example';
const REPO = { owner: 'acme', repo: 'policies' };
const ISSUES = '/repos/acme/policies/issues';
const TOKEN = 'ghs_nockTokenForThePortTests0001';
const DOCS = 'https://docs.github.com/rest/issues/issues';

/**
 * GitHub's pacing, injected: no pause between writes (Octokit's default is 1 s, 3 s for those that
 * notify, shared by every client in the process) and 1 ms per second of a retry-after or back-off.
 */
const quick = () => ({
  throttle: {
    retryAfterBaseValue: 1,
    write: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
    notifications: new Bottleneck.Group({ maxConcurrent: 1, minTime: 0 }),
  },
  retry: { retryAfterBaseValue: 1 },
});
const port = async (log?: GitHubLog) => gitHubIssues(await createGitHub({ token: TOKEN, baseUrl: API, userAgent: 'compliance-test', log, ...quick() }), REPO);

function issueJson(number: number, body: string | null, extra: Record<string, unknown> = {}) {
  return {
    id: 9000 + number,
    node_id: `I_${number}`,
    number,
    title: `Issue ${number}`,
    body,
    state: 'open',
    state_reason: null,
    labels: [{ id: 1, name: 'compliance-gap', color: 'd93f0b', default: false }],
    html_url: `https://github.com/acme/policies/issues/${number}`,
    url: `${API}${ISSUES}/${number}`,
    user: { login: 'github-actions[bot]', type: 'Bot' },
    ...extra,
  };
}

const draft = (key: string): GapIssueDraft => ({ key, title: `[compliance] ${key}`, body: `Gap ${key}\n${gapMarker(key)}`, labels: ['compliance-gap'], assignees: [] });
const plan = (create: GapIssueDraft[], rest: Partial<GapIssuePlan> = {}): GapIssuePlan => ({ create, update: [], close: [], unchanged: [], deferred: [], ...rest });
const link = (page: number, last: number) =>
  [page < last ? `<${API}${ISSUES}?labels=compliance-gap&state=all&per_page=100&page=${page + 1}>; rel="next"` : '', `<${API}${ISSUES}?labels=compliance-gap&state=all&per_page=100&page=${last}>; rel="last"`]
    .filter(Boolean)
    .join(', ');
/** The label exists: GET 200. */
const labelExists = () => nock(API).get('/repos/acme/policies/labels/compliance-gap').reply(200, { id: 1, name: 'compliance-gap', color: 'd93f0b' });
const listQuery = { labels: 'compliance-gap', state: 'all', per_page: '100' };

beforeAll(() => nock.disableNetConnect());
afterAll(() => nock.enableNetConnect());
afterEach(() => {
  const pending = nock.pendingMocks();
  nock.cleanAll();
  expect(pending, 'every answer the test set up was asked for').toEqual([]);
});

describe('GitHub port on Octokit (nock)', () => {
  it('lists every page through the Link header, open and closed, without pull requests', async () => {
    nock(API)
      .get(ISSUES).query(listQuery).reply(200, [issueJson(1, gapMarker('a/1')), issueJson(2, 'a pull request', { pull_request: { url: 'x' } })], { link: link(1, 3) })
      .get(ISSUES).query({ ...listQuery, page: '2' }).reply(200, [issueJson(3, gapMarker('a/3'), { state: 'closed', state_reason: 'completed' })], { link: link(2, 3) })
      .get(ISSUES).query({ ...listQuery, page: '3' }).reply(200, [issueJson(4, null)], { link: link(3, 3) });
    const issues = await (await port()).listIssues('compliance-gap');
    expect(issues.map((issue) => [issue.number, issue.state])).toEqual([[1, 'open'], [3, 'closed'], [4, 'open']]);
    expect(issues[0]).toMatchObject({ body: gapMarker('a/1'), labels: [{ name: 'compliance-gap' }], url: 'https://github.com/acme/policies/issues/1' });
  });

  it('a secondary rate limit (403 and 429 with retry-after) is waited out for the time GitHub asks, not failed', async () => {
    const secondary = { message: 'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' };
    const waits: string[] = [];
    const log: GitHubLog = { debug: () => {}, info: (message) => waits.push(message), warning: (message) => waits.push(`warning: ${message}`) };
    nock(API)
      .get(ISSUES).query(listQuery).reply(403, secondary, { 'retry-after': '7', 'x-ratelimit-remaining': '4990' })
      .get(ISSUES).query(listQuery).reply(200, [issueJson(7, gapMarker('a/7'))]);
    expect((await (await port(log)).listIssues('compliance-gap')).map((issue) => issue.number)).toEqual([7]);

    labelExists();
    nock(API)
      .post(ISSUES).reply(429, secondary, { 'retry-after': '3' })
      .post(ISSUES).reply(201, issueJson(8, draft('a/8').body));
    const applied = await applyGapIssuePlan(await port(log), plan([draft('a/8')]), { label: 'compliance-gap' });
    expect(applied).toMatchObject({ created: [{ key: 'a/8', number: 8 }], failed: [], refused: undefined });
    expect(waits).toEqual([
      `GitHub secondary rate limit on GET ${API}${ISSUES}?labels=compliance-gap&state=all&per_page=100: retrying in 7 s`,
      'GitHub secondary rate limit on POST /repos/{owner}/{repo}/issues: retrying in 3 s',
    ]);
  });

  it('a label another run created meanwhile (422 already_exists) is fine; a 422 on an issue is reported, the rest goes on', async () => {
    nock(API)
      .get('/repos/acme/policies/labels/compliance-gap').reply(404, { message: 'Not Found', documentation_url: `${DOCS}#get-a-label`, status: '404' })
      .post('/repos/acme/policies/labels', { name: 'compliance-gap', color: 'd93f0b', description: 'Opened by the compliance review loop' })
      .reply(422, { message: 'Validation Failed', errors: [{ resource: 'Label', code: 'already_exists', field: 'name' }], documentation_url: `${DOCS}#create-a-label`, status: '422' })
      .post(ISSUES, (body) => body.title === '[compliance] a/1')
      .reply(422, { message: 'Validation Failed', errors: [{ value: 'ghost', resource: 'Issue', field: 'assignees', code: 'invalid' }], documentation_url: `${DOCS}#create-an-issue`, status: '422' })
      .post(ISSUES, (body) => body.title === '[compliance] a/2')
      .reply(201, issueJson(12, draft('a/2').body));
    const failures: string[] = [];
    const applied = await applyGapIssuePlan(await port(), plan([{ ...draft('a/1'), assignees: ['ghost'] }, draft('a/2')]), { label: 'compliance-gap', onFailure: (what, message) => failures.push(`${what}: ${message}`) });
    expect(applied.created).toEqual([{ key: 'a/2', number: 12, url: 'https://github.com/acme/policies/issues/12' }]);
    expect(applied.failed).toEqual([{ key: 'a/1', message: '422 Validation Failed: {"value":"ghost","resource":"Issue","field":"assignees","code":"invalid"}' }]);
    expect(failures).toEqual(['open the issue for a/1: 422 Validation Failed: {"value":"ghost","resource":"Issue","field":"assignees","code":"invalid"}']);
    expect(applied.refused).toBeUndefined();
  });

  it('a 502 after the create landed: the label is listed again, the issue found, no second create', async () => {
    labelExists();
    nock(API)
      .post(ISSUES).once().reply(502, { message: 'Server Error' })
      .get(ISSUES).query(listQuery).reply(200, [issueJson(21, draft('a/1').body)]);
    const applied = await applyGapIssuePlan(await port(), plan([draft('a/1')]), { label: 'compliance-gap' });
    expect(applied).toMatchObject({ created: [{ key: 'a/1', number: 21 }], failed: [], refused: undefined });
    // disableNetConnect plus no further interceptor: a second POST would have thrown, and been reported in failed.
  });

  it('a 502 before the create landed: listed again, not found, sent once more', async () => {
    labelExists();
    nock(API)
      .post(ISSUES).reply(502, { message: 'Server Error' })
      .get(ISSUES).query(listQuery).reply(200, [issueJson(30, 'someone else\'s issue')])
      .post(ISSUES).reply(201, issueJson(31, draft('a/1').body));
    const applied = await applyGapIssuePlan(await port(), plan([draft('a/1')]), { label: 'compliance-gap' });
    expect(applied.created).toEqual([{ key: 'a/1', number: 31, url: 'https://github.com/acme/policies/issues/31' }]);
  });

  it('a refused write (403 Resource not accessible by integration) stops the writes and names the permission', async () => {
    labelExists();
    nock(API).post(ISSUES).reply(403, { message: 'Resource not accessible by integration', documentation_url: `${DOCS}#create-an-issue`, status: '403' }, { 'x-ratelimit-remaining': '4999' });
    const applied = await applyGapIssuePlan(await port(), plan([draft('a/1'), draft('a/2')]), { label: 'compliance-gap' });
    expect(applied.created).toEqual([]);
    expect(applied.refused).toMatchObject({ what: 'open the issue for a/1', status: 403, message: '403 Resource not accessible by integration', permission: 'issues: write' });
  });

  it('reopens, updates and closes (comment, then state_reason completed) with the token only in the header', async () => {
    const seen: string[] = [];
    nock(API, { reqheaders: { authorization: `token ${TOKEN}` } })
      .get('/repos/acme/policies/labels/compliance-gap').reply(200, { name: 'compliance-gap' })
      .patch(`${ISSUES}/5`, { title: 'T5', body: 'B5', state: 'open' }).reply(200, issueJson(5, 'B5'))
      .post(`${ISSUES}/6/comments`, { body: 'Resolved.' }).reply(201, { id: 1 })
      .patch(`${ISSUES}/6`, (body) => (seen.push(JSON.stringify(body)), body.state === 'closed' && body.state_reason === 'completed')).reply(200, issueJson(6, 'x', { state: 'closed' }));
    const applied = await applyGapIssuePlan(
      await port(),
      plan([], {
        update: [{ key: 'a/5', title: 'T5', body: 'B5', labels: ['compliance-gap'], assignees: [], number: 5, reopen: true }],
        close: [{ key: 'a/6', number: 6, title: 'T6', stateReason: 'completed', comment: 'Resolved.' }],
      }),
      { label: 'compliance-gap' },
    );
    expect(applied.reopened).toEqual([{ key: 'a/5', number: 5, url: 'https://github.com/acme/policies/issues/5' }]);
    expect(applied.closed).toEqual([{ key: 'a/6', number: 6, url: 'https://github.com/acme/policies/issues/6' }]);
    expect(seen).toEqual(['{"state":"closed","state_reason":"completed"}']);
  });
});

describe('the Octokit adapter at its edges (nock)', () => {
  const secondary = { message: 'You have exceeded a secondary rate limit.', documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api' };
  const logged = () => {
    const lines: string[] = [];
    return { lines, log: { debug: () => {}, info: (message: string) => lines.push(message), warning: (message: string) => lines.push(`warning: ${message}`) } satisfies GitHubLog };
  };
  const limited = async (log: GitHubLog, options: { maxRateLimitWaitSeconds?: number; maxRateLimitRetries?: number }) =>
    gitHubIssues(await createGitHub({ token: TOKEN, baseUrl: API, userAgent: 'compliance-test', log, ...quick(), ...options }), REPO);
  const listUrl = `GET ${API}${ISSUES}?labels=compliance-gap&state=all&per_page=100`;

  // 403, not 429: Octokit's retry plugin retries a 429 itself once the throttling gives up.
  it('waits out a rate limit as long as the longest wait allowed, and gives up on a longer one', async () => {
    const { lines, log } = logged();
    nock(API)
      .get(ISSUES).query(listQuery).reply(403, secondary, { 'retry-after': '5' })
      .get(ISSUES).query(listQuery).reply(200, [])
      .get(ISSUES).query(listQuery).reply(403, secondary, { 'retry-after': '6' });
    const port = await limited(log, { maxRateLimitWaitSeconds: 5 });
    expect(await port.listIssues('compliance-gap')).toEqual([]);
    await expect(port.listIssues('compliance-gap')).rejects.toMatchObject({ status: 403 });
    expect(lines).toEqual([
      `GitHub secondary rate limit on ${listUrl}: retrying in 5 s`,
      `warning: GitHub secondary rate limit on ${listUrl}: giving up (retry after 6 s)`,
    ]);
  });

  it('retries a rate limit as many times as allowed, then gives up', async () => {
    const { lines, log } = logged();
    nock(API)
      .get(ISSUES).query(listQuery).reply(403, secondary, { 'retry-after': '1' })
      .get(ISSUES).query(listQuery).reply(403, secondary, { 'retry-after': '1' });
    await expect((await limited(log, { maxRateLimitRetries: 1 })).listIssues('compliance-gap')).rejects.toMatchObject({ status: 403 });
    expect(lines).toEqual([`GitHub secondary rate limit on ${listUrl}: retrying in 1 s`, `warning: GitHub secondary rate limit on ${listUrl}: giving up (retry after 1 s)`]);
  });

  it('keeps labels GitHub lists as plain names, and a label without a name as null', async () => {
    nock(API).get(ISSUES).query(listQuery).reply(200, [issueJson(1, null, { labels: ['compliance-gap', { id: 2 }] })]);
    expect((await (await port()).listIssues('compliance-gap'))[0]?.labels).toEqual(['compliance-gap', { name: null }]);
  });

  it('lets a failure to read or create the label through unless it means the label is missing or already there', async () => {
    nock(API).get('/repos/acme/policies/labels/compliance-gap').reply(401, { message: 'Bad credentials' });
    await expect((await port()).createLabel('compliance-gap')).rejects.toMatchObject({ status: 401 });
    nock(API)
      .get('/repos/acme/policies/labels/compliance-gap').reply(404, { message: 'Not Found' })
      .post('/repos/acme/policies/labels').reply(403, { message: 'Resource not accessible by integration' });
    await expect((await port()).createLabel('compliance-gap')).rejects.toMatchObject({ status: 403 });
  });

  it('sends the assignees of an issue that has some', async () => {
    nock(API).post(ISSUES, { title: 'T', body: 'B', labels: ['compliance-gap'], assignees: ['octocat'] }).reply(201, issueJson(3, 'B'));
    expect(await (await port()).createIssue({ title: 'T', body: 'B', labels: ['compliance-gap'], assignees: ['octocat'] })).toEqual({ number: 3, url: 'https://github.com/acme/policies/issues/3' });
  });
});

describe('reading a GitHub error', () => {
  const http = (status: unknown, message: unknown, headers?: Record<string, string | number>) => ({ status, message, ...(headers ? { response: { headers } } : {}) });

  it('takes a status only from an answer that has a numeric status and a message', () => {
    expect(gitHubStatus(http(404, 'Not Found'))).toBe(404);
    expect(gitHubStatus(http('404', 'Not Found'))).toBeUndefined();
    expect(gitHubStatus(http(404, undefined))).toBeUndefined();
    expect(gitHubStatus(null)).toBeUndefined();
    expect(gitHubStatus('404')).toBeUndefined();
  });

  it('counts 404 and a 403 that is no rate limit as a refused write', () => {
    expect(isRefusedGitHubWrite(http(404, 'Not Found'))).toBe(true);
    expect(isRefusedGitHubWrite(http(403, 'Resource not accessible by integration'))).toBe(true);
    expect(isRefusedGitHubWrite(http(403, 'Forbidden', { 'x-ratelimit-remaining': 4 }))).toBe(true);
    expect(isRefusedGitHubWrite(http(403, 'Forbidden', { 'x-ratelimit-remaining': 0 }))).toBe(false);
    expect(isRefusedGitHubWrite(http(403, 'Forbidden', { 'x-ratelimit-remaining': '0' }))).toBe(false);
    expect(isRefusedGitHubWrite(http(403, 'You have exceeded a secondary Rate Limit'))).toBe(false);
    expect(isRefusedGitHubWrite(http(401, 'Bad credentials'))).toBe(false);
    expect(isRefusedGitHubWrite(http(500, 'Server Error'))).toBe(false);
    expect(isRefusedGitHubWrite(new Error('socket hang up'))).toBe(false);
  });

  it("shows GitHub's first line with the status, without the documentation link", () => {
    expect(describeGitHubError(http(403, `Resource not accessible by integration - ${DOCS}#create-an-issue\nmore`))).toBe('403 Resource not accessible by integration');
    expect(describeGitHubError(new Error(' socket hang up \nstack'))).toBe('socket hang up');
    expect(describeGitHubError('plain text')).toBe('plain text');
  });
});

describe('applyGapIssuePlan without writes', () => {
  it('calls nothing for a plan with nothing to write, and carries its unchanged and deferred gaps', async () => {
    const nothing = new Proxy({}, { get: (_, name) => () => { throw new Error(`unexpected call ${String(name)}`); } });
    const applied = await applyGapIssuePlan(nothing as never, plan([], { unchanged: [{ key: 'f/C-1', number: 4, title: 't', body: 'b' } as never], deferred: [draft('f/C-2')] }), { label: 'compliance-gap' });
    expect(applied).toEqual({ created: [], updated: [], reopened: [], closed: [], unchanged: [{ key: 'f/C-1', number: 4 }], deferred: ['f/C-2'], failed: [], refused: undefined });
  });
});

describe('parseRepository', () => {
  it('owner/name, trimmed; anything else is no repository', () => {
    expect(parseRepository(' acme-corp/policy.docs ')).toEqual({ owner: 'acme-corp', repo: 'policy.docs' });
    for (const value of [undefined, '', 'acme', 'acme/', '/policies', 'acme/policies/extra', 'acme corp/policies', 'acme/policy docs', ' /acme/policies']) expect(parseRepository(value), String(value)).toBeUndefined();
  });
});
