/**
 * review/verifyMapping.ts against the sandbox with a live key: a stored mapping or a saved baseline
 * counts only when the service confirms every report by its job id and every credited quote stands
 * in the text it is about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, readDeclarations, runReview, verifiedBaseline, verifiedReuse, type ReviewResult } from '../../review/index.js';
import { HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, LIVE_KEY, POLICY_PAIR, recordingClient, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const files = [...POLICY_PAIR];

let box: RunningSandbox;
let review: ReviewResult;
const client = () => apiClient(box, LIVE_KEY);
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
  review = await runReview(client(), { config: parseConfig(HIPAA_CONFIG(0)), files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false });
});
afterAll(async () => {
  await box?.close();
});

/** The stored reports of the review's one framework, and their first credited quote. */
function stored() {
  const reports = review.mappings[0]?.reports ?? [];
  const quote = review.report.frameworks[0]?.controls.find((control) => control.status !== 'missing' && control.evidence.length > 0)?.evidence[0]?.quote;
  if (reports.length === 0 || !quote) throw new Error('the review mapped nothing to verify');
  return { reports, quote };
}
const without = (quote: string) => files.map((file) => ({ ...file, content: file.content.split(quote).join('') }));

describe('verifiedReuse', () => {
  it('the reports as the service holds them, when every credited quote stands in the documents', async () => {
    const { reports } = stored();
    const verified = await verifiedReuse(client(), reports, files);
    expect(verified.rejected).toBeUndefined();
    expect(verified.value?.map(({ source, jobId }) => ({ source, jobId }))).toEqual(reports.map(({ source, jobId }) => ({ source, jobId })));
    expect(verified.value?.[0]?.report.controls.length).toBeGreaterThan(0);
  });

  it('rejects a report without a job id, a job the service does not know, no report, and a quote the documents lost', async () => {
    const { reports, quote } = stored();
    expect(await verifiedReuse(client(), [{ source: 'policies/access.md', jobId: '' }], files)).toEqual({ rejected: 'a report without its job id' });
    expect(await verifiedReuse(client(), [{ source: 'policies/access.md', jobId: 'job_unknown' }], files)).toEqual({ rejected: expect.stringMatching(/^the service does not confirm job job_unknown \(\w+\)$/) });
    expect(await verifiedReuse(client(), [], files)).toEqual({ rejected: 'no report' });
    const lost = await verifiedReuse(client(), reports, without(quote));
    expect(lost.rejected).toMatch(/^it credits a quote the documents do not contain \([^:]+: ".+"\)$/);
    expect(lost.rejected).toContain(quote.slice(0, 80));
  });
});

describe('verifiedBaseline', () => {
  it('the gap keys of the service\'s reports, when they agree with the saved report and the base documents', async () => {
    const verified = await verifiedBaseline(client(), review.report, files);
    expect(verified.rejected).toBeUndefined();
    expect(verified.value).toEqual(new Set(review.report.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.key))));
    expect(verified.value?.size).toBeGreaterThan(0);
  });

  it("keys the gaps by the service's framework, also when compliance.yml names it by its title", async () => {
    const byName = await runReview(client(), { config: parseConfig(HIPAA_CONFIG(0).replace('framework: hipaa-security', 'framework: HIPAA Security Rule')), files, readDeclarations, today: '2026-01-05', event: { kind: 'push' }, sync: 'run', checkUpdates: false });
    const keys = new Set(byName.report.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.key)));
    expect([...keys].every((key) => key.startsWith('hipaa-security/'))).toBe(true);
    expect((await verifiedBaseline(client(), byName.report, files)).value).toEqual(keys);
  });

  it('rejects no report, a framework without jobs, a coverage the service does not give, and a quote the base lost', async () => {
    const { quote } = stored();
    const [framework] = review.report.frameworks;
    if (!framework) throw new Error('no framework');
    const name = framework.framework.name;
    expect((await verifiedBaseline(client(), undefined, files)).rejected).toBe('it is not a report.json of this package (a raw mapping report carries no job ids to confirm)');
    expect(await verifiedBaseline(client(), { ...review.report, frameworks: [{ ...framework, jobIds: [] }] }, files)).toEqual({ rejected: `${name}: no report` });
    // A report.json read from disk is checked only loosely: one without job ids (older, or edited) is no report either.
    expect(await verifiedBaseline(client(), { ...review.report, frameworks: [{ ...framework, jobIds: undefined as unknown as string[] }] }, files)).toEqual({ rejected: `${name}: no report` });
    expect(await verifiedBaseline(client(), { ...review.report, frameworks: [{ ...framework, jobIds: ['job_unknown'] }] }, files)).toEqual({ rejected: expect.stringMatching(new RegExp(`^${name}: the service does not confirm job job_unknown`)) });
    const claimed = framework.coverage + 10;
    expect(await verifiedBaseline(client(), { ...review.report, frameworks: [{ ...framework, coverage: claimed }] }, files)).toEqual({ rejected: `${name}: it says ${claimed}% where the service's reports say ${framework.coverage}%` });
    expect((await verifiedBaseline(client(), { ...review.report, frameworks: [{ ...framework, coverage: framework.coverage + 0.04 }] }, files)).rejected).toBeUndefined();
    expect((await verifiedBaseline(client(), review.report, without(quote))).rejected).toMatch(new RegExp(`^${name}: it credits a quote the base commit's documents do not contain \\(`));
  });
});

describe('verification at its edges', () => {
  /** The live client whose mapping reports come back changed by `edit` (the sandbox cannot be told to answer so). */
  const editedReports = (edit: (report: Record<string, unknown>) => Record<string, unknown>) =>
    recordingClient(box, LIVE_KEY, {
      downloadDocument: async (...args: unknown[]) => {
        const answer = await client().downloadDocument(...(args as Parameters<ReturnType<typeof client>['downloadDocument']>));
        return answer.kind === 'json' ? { ...answer, data: edit(answer.data as Record<string, unknown>) } : answer;
      },
    });
  type Control = { id: string; status: string; evidence: Array<{ quote: string }> };
  const controlsOf = (report: Record<string, unknown>) => report.controls as Control[];

  it('ignores what a missing control quotes, and shows at most 80 characters of a quote it cannot find', async () => {
    const { reports } = stored();
    const quoted = (status: string, quote: string) => editedReports((report) => ({ ...report, controls: [{ ...controlsOf(report)[0], id: 'X-1', status, evidence: [{ quote }] }, ...controlsOf(report).slice(1)] }));
    expect((await verifiedReuse(quoted('missing', 'nowhere in the documents').client, reports, files)).rejected).toBeUndefined();
    const long = `${'q'.repeat(80)}TAIL`;
    expect((await verifiedReuse(quoted('covered', long).client, reports, files)).rejected).toBe(`it credits a quote the documents do not contain (X-1: "${'q'.repeat(80)}")`);
  });

  it('passes the caller’s signal to each download, and lets an error that is not the service’s through', async () => {
    const { reports } = stored();
    const { client: recorded, calls } = recordingClient(box, LIVE_KEY);
    const { signal } = new AbortController();
    await verifiedReuse(recorded, reports, files, signal);
    expect(calls.map((call) => (call.args[1] as { signal?: AbortSignal }).signal)).toEqual(reports.map(() => signal));
    const bug = new TypeError('a bug');
    const { client: broken } = recordingClient(box, LIVE_KEY, { downloadDocument: () => Promise.reject(bug) });
    await expect(verifiedReuse(broken, reports, files)).rejects.toBe(bug);
  });

  it('takes a baseline whose coverage is within 0.05 of the service’s, and no further', async () => {
    const framework = review.report.frameworks[0];
    if (!framework) throw new Error('the review mapped nothing');
    const atZero = editedReports((report) => ({ ...report, coverage: 0 })).client;
    const within = { ...review.report, frameworks: [{ ...framework, coverage: 0.05 }] };
    expect((await verifiedBaseline(atZero, within, files)).rejected).toBeUndefined();
    const beyond = { ...review.report, frameworks: [{ ...framework, coverage: 0.06 }] };
    expect((await verifiedBaseline(atZero, beyond, files)).rejected).toBe(`${framework.framework.name}: it says 0.06% where the service's reports say 0%`);
  });
});
