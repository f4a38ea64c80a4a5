/**
 * Every outcome runSync (review/syncRun.ts) gives a file, as the sync summary shows it: what a dry
 * run would do, and what each answer of the service (a refusal before charging, a lost answer, a
 * failed job, a refused key, an abort) means for the file, the charge and the rest of the run.
 */
import { describe, expect, it } from 'vitest';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { ComplianceApiError, ComplianceJobError } from '../../api/errors.js';
import { runSync } from '../../review/syncRun.js';
import type { SyncItem, SyncPlan } from '../../review/syncPlan.js';

function planOf(items: SyncItem[]): SyncPlan {
  const contents = new Map(items.filter((item) => item.kind === 'new' || item.kind === 'changed').map((item) => [item.path, `text of ${item.path}`]));
  return { repoTag: 'repo:acme/p', items, counts: {} as SyncPlan['counts'], totalTokens: 0, needsContent: [], unverifiedChanges: [], contents };
}
const fresh = (path: string, extra: Partial<SyncItem> = {}): SyncItem =>
  ({ kind: 'new', path, tokens: 100, title: path, category: undefined, tags: ['repo:acme/p'], contentHash: 'h', ...extra }) as SyncItem;
const changed = (path: string, documentId: string): SyncItem => ({ kind: 'changed', path, tokens: 50, documentId, version: 1, contentHash: 'h' });

type Answer = { error?: unknown; accepted?: Record<string, unknown>; jobError?: unknown; job?: Record<string, unknown> };

/** A client whose ingest and refresh answer per path or document id as scripted; every call recorded. */
function scriptedClient(answers: Record<string, Answer>) {
  const calls: Array<[string, Record<string, unknown>]> = [];
  /** The options each call was given: the run's signal, and the estimate a wait is told. */
  const options: Array<[string, unknown]> = [];
  const jobs = new Map<string, Answer>();
  const submit = (key: string) => {
    const answer = answers[key] ?? {};
    if (answer.error !== undefined) throw answer.error;
    const jobId = `job-${key}`;
    jobs.set(jobId, answer);
    return { jobId, status: 'queued', poll: '', estimatedSeconds: 0, ...answer.accepted };
  };
  const client = {
    ingestLibraryDocument: async (input: Record<string, unknown>, given: unknown) => { calls.push(['ingest', input]); options.push(['ingest', given]); return submit(input.filename as string); },
    refreshLibraryDocument: async (input: Record<string, unknown>, given: unknown) => { calls.push(['refresh', input]); options.push(['refresh', given]); return submit(input.id as string); },
    deleteLibraryDocument: async (input: { id: string }, given: unknown) => { calls.push(['delete', input]); options.push(['delete', given]); return { id: input.id, deleted: true }; },
    waitForJob: async (jobId: string, given: unknown) => {
      options.push(['wait', given]);
      const answer = jobs.get(jobId);
      if (answer?.jobError !== undefined) throw answer.jobError;
      return { jobId, status: 'completed', ...answer?.job };
    },
  } as unknown as ComplianceApi;
  return { client, calls, options };
}

describe('runSync outcomes', () => {
  it('a dry run says what each file would get and calls nothing', async () => {
    const items: SyncItem[] = [
      { kind: 'unchanged', path: 'a.md', tokens: 0, documentId: 'd-a' },
      { kind: 'renamed', path: 'b.md', tokens: 0, documentId: 'd-b', libraryPath: 'old/b.md' },
      { kind: 'renamed', path: 'c.md', tokens: 0, documentId: 'd-c', libraryPath: '' },
      { kind: 'duplicate', path: 'd.md', tokens: 0, sameAs: 'a.md', documentId: undefined },
      { kind: 'invalid', path: 'e.md', tokens: 0, reason: 'too long' },
      { kind: 'removed', path: 'f.md', tokens: 0, documentId: 'd-f', title: 'f', delete: false },
      { kind: 'removed', path: 'g.md', tokens: 0, documentId: 'd-g', title: 'g', delete: true },
      fresh('h.md', { tokens: 12_345 }),
      { ...changed('i.md', 'd-i'), tokens: 1_000 },
    ];
    const { client, calls } = scriptedClient({});
    const progress: Array<[number, number]> = [];
    const run = await runSync(client, planOf(items), { mode: 'live', dryRun: true, onProgress: ({ done, total }) => progress.push([done, total]) });
    expect(calls).toEqual([]);
    expect(run.results).toEqual([
      { kind: 'unchanged', path: 'a.md', tokensSpent: 0, documentId: 'd-a', outcome: 'kept', message: 'unchanged' },
      { kind: 'renamed', path: 'b.md', tokensSpent: 0, documentId: 'd-b', outcome: 'kept', message: 'renamed from old/b.md: same text, nothing charged (the library keeps the old path)' },
      { kind: 'renamed', path: 'c.md', tokensSpent: 0, documentId: 'd-c', outcome: 'kept', message: 'same text as library document d-c (ingested without a file name): nothing charged' },
      { kind: 'duplicate', path: 'd.md', tokensSpent: 0, documentId: undefined, outcome: 'skipped', message: 'same text as a.md: not sent (the service refuses duplicates)' },
      { kind: 'invalid', path: 'e.md', tokensSpent: 0, documentId: undefined, outcome: 'skipped', message: 'too long' },
      { kind: 'removed', path: 'f.md', tokensSpent: 0, documentId: 'd-f', outcome: 'kept', message: 'no longer in the repository; kept (use --delete-removed to delete it)' },
      { kind: 'removed', path: 'g.md', tokensSpent: 0, documentId: 'd-g', outcome: 'planned', message: 'would delete (free)' },
      { kind: 'new', path: 'h.md', tokensSpent: 0, documentId: undefined, outcome: 'planned', message: 'would ingest (12,345 tokens in live mode)' },
      { kind: 'changed', path: 'i.md', tokensSpent: 0, documentId: 'd-i', outcome: 'planned', message: 'would refresh (1,000 tokens in live mode)' },
    ]);
    expect(run).toMatchObject({ dryRun: true, mode: 'live', tokensSpent: 0, pricedTokens: 0, complete: true, stoppedBecause: undefined });
    expect(progress).toEqual(items.map((_, index) => [index + 1, items.length]));
  });

  it('hands the run\'s signal to every call, and the service\'s estimate to every wait', async () => {
    const signal = new AbortController().signal;
    const { client, options } = scriptedClient({ 'a.md': { accepted: { estimatedSeconds: 7 } }, 'd-b': { accepted: { estimatedSeconds: 9 } } });
    const removed: SyncItem = { kind: 'removed', path: 'c.md', tokens: 0, documentId: 'd-c', title: 'c', delete: true };
    await runSync(client, planOf([fresh('a.md'), changed('b.md', 'd-b'), removed]), { mode: 'live', concurrency: 1, signal });
    expect(options).toEqual([
      ['delete', { signal }],
      ['ingest', { signal }],
      ['wait', { signal, estimatedSeconds: 7 }],
      ['refresh', { signal }],
      ['wait', { signal, estimatedSeconds: 9 }],
    ]);
  });

  it('refuses a plan that still needs the library text', async () => {
    const plan = { ...planOf([{ kind: 'needs-content', path: 'a.md', tokens: 0, documentId: 'd-a' }]), needsContent: ['d-a'] };
    await expect(runSync(scriptedClient({}).client, plan, { mode: 'live' })).rejects.toMatchObject({ code: 'invalid_report', message: 'the sync plan is not final: resolve it first (resolveSyncPlan fetches the missing text, free)' });
  });

  it('sends what each file needs, records the version and the document, and charges only a live key', async () => {
    const items = [fresh('a.md', { category: 'Policies' }), fresh('b.md'), changed('c.md', 'd-c'), changed('d.md', 'd-d')];
    const answers = { 'a.md': { accepted: { documentId: 'doc-a' } }, 'b.md': { job: { documentId: 'doc-b' } }, 'd-c': { accepted: { version: 3 } } };
    const { client, calls } = scriptedClient(answers);
    const run = await runSync(client, planOf(items), { mode: 'live', concurrency: 1 });
    expect(calls).toEqual([
      ['ingest', { title: 'a.md', content: 'text of a.md', filename: 'a.md', tags: ['repo:acme/p'], category: 'Policies' }],
      ['ingest', { title: 'b.md', content: 'text of b.md', filename: 'b.md', tags: ['repo:acme/p'] }],
      ['refresh', { id: 'd-c', content: 'text of c.md' }],
      ['refresh', { id: 'd-d', content: 'text of d.md' }],
    ]);
    expect(run.results).toEqual([
      { kind: 'new', path: 'a.md', documentId: 'doc-a', outcome: 'ingested', tokensSpent: 100, pricedTokens: 100, message: 'ingested' },
      { kind: 'new', path: 'b.md', documentId: 'doc-b', outcome: 'ingested', tokensSpent: 100, pricedTokens: 100, message: 'ingested' },
      { kind: 'changed', path: 'c.md', documentId: 'd-c', outcome: 'refreshed', tokensSpent: 50, pricedTokens: 50, version: 3, message: 'refreshed' },
      { kind: 'changed', path: 'd.md', documentId: 'd-d', outcome: 'refreshed', tokensSpent: 50, pricedTokens: 50, message: 'refreshed' },
    ]);
    expect(run).toMatchObject({ tokensSpent: 300, pricedTokens: 300, complete: true, stoppedBecause: undefined });
    // toEqual passes an undefined property: a refresh the service gave no version carries none at all.
    expect(Object.keys(run.results[3] ?? {})).not.toContain('version');
    const sandbox = await runSync(scriptedClient(answers).client, planOf(items), { mode: 'sandbox' });
    expect(sandbox).toMatchObject({ tokensSpent: 0, pricedTokens: 300, complete: true });
  });

  it('gives each refusal, lost answer and failed job its outcome and charge', async () => {
    const apiError = (code: string, status?: number, details?: Record<string, unknown>) => new ComplianceApiError({ code, message: `${code} said`, ...(status ? { status } : {}), ...(details ? { details } : {}) });
    const jobError = new ComplianceJobError({ code: 'job_failed', message: 'the job failed', jobId: 'j', job: {} });
    const items = [
      fresh('dup.md'), changed('same.md', 'd-same'), changed('busy.md', 'd-busy'), fresh('lost.md'), fresh('job.md'),
      changed('rjob.md', 'd-rjob'), fresh('wait.md'), fresh('abort.md'), fresh('odd.md'), fresh('plain.md'),
    ];
    const abort = Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    const { client } = scriptedClient({
      'dup.md': { error: apiError('duplicate_document', 409) },
      'd-same': { error: apiError('document_unchanged', 409) },
      'd-busy': { error: apiError('document_busy', 409) },
      'lost.md': { error: apiError('outcome_unknown') },
      'job.md': { jobError },
      'd-rjob': { jobError },
      'wait.md': { jobError: new Error('socket hang up') },
      'abort.md': { error: abort },
      'odd.md': { error: 'a string' },
      'plain.md': { error: apiError('validation_error', 400) },
    });
    const run = await runSync(client, planOf(items), { mode: 'live', concurrency: 1 });
    const byPath = Object.fromEntries(run.results.map(({ path, ...rest }) => [path, rest]));
    expect(byPath['dup.md']).toMatchObject({ outcome: 'skipped', tokensSpent: 0, message: 'the library already holds this text: not ingested, nothing charged' });
    expect(byPath['same.md']).toEqual({ kind: 'changed', documentId: 'd-same', outcome: 'kept', tokensSpent: 0, message: 'the library already holds this text (another run refreshed it meanwhile): nothing charged' });
    expect(byPath['busy.md']).toMatchObject({ outcome: 'skipped', tokensSpent: 0, message: 'another run is refreshing this document right now: not sent, nothing charged; the next sync refreshes it if its text still differs' });
    expect(byPath['lost.md']).toMatchObject({ outcome: 'failed', tokensSpent: 0, chargeUncertain: true, pricedTokens: 100, message: 'no answer arrived, it may have been charged: outcome_unknown said' });
    expect(byPath['job.md']).toMatchObject({ outcome: 'failed', tokensSpent: 0, message: 'the ingest job failed (the job failed); the charge is refunded', error: { code: 'job_failed', message: 'the job failed' } });
    expect(byPath['job.md']).not.toHaveProperty('pricedTokens');
    expect(byPath['rjob.md']).toMatchObject({ outcome: 'failed', message: 'the refresh job failed (the job failed); the charge is refunded' });
    expect(byPath['wait.md']).toMatchObject({ outcome: 'failed', tokensSpent: 100, pricedTokens: 100, message: 'submitted as job job-wait.md but waiting for it failed (socket hang up); it is charged unless the job fails (then refunded)' });
    expect(byPath['abort.md']).toMatchObject({ outcome: 'failed', error: { code: 'aborted', message: 'aborted' }, message: 'aborted' });
    expect(byPath['odd.md']).toMatchObject({ outcome: 'failed', error: { code: 'unexpected', message: 'a string' }, message: 'a string' });
    expect(byPath['plain.md']).toMatchObject({ outcome: 'failed', tokensSpent: 0, error: { code: 'validation_error', message: 'validation_error said' }, message: 'validation_error said' });
    expect(byPath['plain.md']).not.toHaveProperty('chargeUncertain');
    expect(run).toMatchObject({ tokensSpent: 100, pricedTokens: 200, complete: false, stoppedBecause: undefined });
  });

  it('names the document the library already holds a duplicate as', async () => {
    const { client } = scriptedClient({ 'a.md': { error: new ComplianceApiError({ code: 'duplicate_document', message: 'dup', status: 409, details: { documentId: 'x9' } }) } });
    const run = await runSync(client, planOf([fresh('a.md')]), { mode: 'live' });
    expect(run.results[0]?.message).toBe('the library already holds this text (document x9): not ingested, nothing charged');
  });

  it('stops at a refused key, and once the library is full ingests nothing more but still refreshes', async () => {
    for (const status of [401, 402, 403]) {
      const { client, calls } = scriptedClient({ 'a.md': { error: new ComplianceApiError({ code: 'unauthorized', message: 'bad key', status }) } });
      const run = await runSync(client, planOf([fresh('a.md'), changed('b.md', 'd-b')]), { mode: 'live', concurrency: 1 });
      expect(calls.map(([kind]) => kind)).toEqual(['ingest']);
      expect(run.results[1]).toEqual({ kind: 'changed', path: 'b.md', documentId: 'd-b', outcome: 'not-attempted', tokensSpent: 0, message: 'stopped after unauthorized: bad key' });
      expect(run).toMatchObject({ complete: false, stoppedBecause: 'stopped after unauthorized: bad key' });
    }
    const conflict = scriptedClient({ 'a.md': { error: new ComplianceApiError({ code: 'conflict', message: 'busy', status: 409 }) } });
    const goesOn = await runSync(conflict.client, planOf([fresh('a.md'), fresh('b.md')]), { mode: 'live', concurrency: 1 });
    expect(goesOn.results[1]?.outcome).toBe('ingested');
    expect(goesOn.stoppedBecause).toBeUndefined();

    const full = scriptedClient({ 'a.md': { error: new ComplianceApiError({ code: 'library_full', message: 'full', status: 409 }) } });
    const run = await runSync(full.client, planOf([fresh('a.md'), fresh('b.md'), changed('c.md', 'd-c')]), { mode: 'live', concurrency: 1 });
    expect(run.results.map((result) => [result.outcome, result.message])).toEqual([
      ['failed', 'the library is full: not ingested, nothing charged; delete documents first'],
      ['not-attempted', 'not ingested: the library is full (delete documents first, for example with --delete-removed)'],
      ['refreshed', 'refreshed'],
    ]);
    expect(run.results[1]?.documentId).toBeUndefined();
    expect(run.stoppedBecause).toBe('the library is full');
  });

  it('attempts nothing once aborted and says so for every file left', async () => {
    const controller = new AbortController();
    controller.abort();
    const { client, calls } = scriptedClient({});
    const run = await runSync(client, planOf([fresh('a.md'), changed('b.md', 'd-b')]), { mode: 'live', signal: controller.signal });
    expect(calls).toEqual([]);
    expect(run.results.map((result) => [result.outcome, result.message, result.documentId])).toEqual([
      ['not-attempted', 'aborted', undefined],
      ['not-attempted', 'aborted', 'd-b'],
    ]);
    expect(run).toMatchObject({ complete: false, stoppedBecause: 'aborted' });
  });

  it('deletes a removed document asked to be deleted, for free, saying so', async () => {
    const removed: SyncItem = { kind: 'removed', path: 'gone.md', tokens: 0, documentId: 'd-gone', title: 'gone.md', delete: true };
    const run = await runSync(scriptedClient({}).client, planOf([removed]), { mode: 'live' });
    expect(run.results).toEqual([{ kind: 'removed', path: 'gone.md', documentId: 'd-gone', outcome: 'deleted', tokensSpent: 0, message: 'deleted (free)' }]);
  });
});
