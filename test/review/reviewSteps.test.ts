/**
 * review/reviewSteps.ts one step at a time, against the in-process sandbox with a recording client:
 * what the plan reads before it spends, what the charged step reports and counts, what follows it,
 * and when a finished review passes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComplianceApi } from '../../api/clientTypes.js';
import { ComplianceApiError } from '../../api/errors.js';
import { parseConfig, readDeclarations, readMappingStore, ReviewError, runReview, serializeMappingStore } from '../../review/index.js';
import { finishReview, gapsUpdatesAndDrift, planReview, syncAndMap } from '../../review/reviewSteps.js';
import type { ReviewInput, ReviewProgress } from '../../review/reviewTypes.js';
import { GENERATE_ACCESS_CONTROL, HIPAA_CONFIG } from '../actions/harness.js';
import { apiClient, faultyClient, isMapUpload, jobNotFoundAnswer, LIVE_KEY, OTHER_KEY, POLICY_PAIR, policyText, recordingClient, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';

const MAP_PRICE = 250_000;
const files = [...POLICY_PAIR];

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 100_000 });
});
afterAll(async () => {
  await box?.close();
});

/** The live key's real client, recording what each step asks for. */
const recording = (replace: Parameters<typeof recordingClient>[2] = {}) => recordingClient(box, LIVE_KEY, replace);

function input(config: string, extra: Partial<ReviewInput> = {}): ReviewInput {
  return { config: parseConfig(config), files, readDeclarations, today: '2026-01-05', checkUpdates: false, ...extra };
}

function progressLog() {
  const seen: Array<[ReviewProgress['phase'], string]> = [];
  return { seen, progress: (phase: ReviewProgress['phase'], message: string) => seen.push([phase, message]) };
}

const NO_FRAMEWORKS = 'repository: acme/policies\ndocuments:\n  - name: policies\n    paths: ["policies/*.md"]\n';

describe('planReview', () => {
  it('refuses a library sync on a pull request before it calls the service, and names the way out', async () => {
    const { client, calls } = recording();
    const error = await planReview(client, input(HIPAA_CONFIG(0), { event: { kind: 'pull_request', pullRequest: 3 }, sync: 'run' }), () => {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReviewError);
    expect((error as ReviewError).message).toContain('a review with the library sync');
    expect((error as ReviewError).hint).toBe('Skip the sync in a pull request (map prices the merge without writing); the library syncs on pushes to the default branch.');
    expect(calls).toEqual([]);
  });

  it('lets a pull request dry-run the sync, and takes an event-less run as one that asked for every write', async () => {
    const dry = await planReview(recording().client, input(HIPAA_CONFIG(0), { event: { kind: 'pull_request', pullRequest: 3 }, sync: 'run', dryRun: true }), () => {});
    expect(dry.toSync).toBeDefined();
    const plain = await planReview(recording().client, input(HIPAA_CONFIG(0)), () => {});
    expect(plain.policy.mayWriteIssues).toBe(true);
    expect(plain.syncMode).toBe('run');
    expect(plain.toSync).toBe(plain.plan);
  });

  it('passes the caller’s signal to its reads and reads the catalogue only when a framework or a generation needs it', async () => {
    const signal = new AbortController().signal;
    const none = recording();
    const bare = await planReview(none.client, input(NO_FRAMEWORKS, { sync: 'skip', signal }), () => {});
    expect(none.methods()).toEqual(['ping', 'getBilling']);
    expect(none.calls.map((call) => (call.args[1] as { signal?: AbortSignal }).signal)).toEqual([signal, signal]);
    expect(bare.verified).toEqual([]);

    const mapped = recording();
    const withFramework = await planReview(mapped.client, input(HIPAA_CONFIG(0), { sync: 'skip' }), () => {});
    expect(mapped.methods()).toEqual(['ping', 'getBilling', 'getCapabilities']);
    expect(withFramework.verified.length).toBeGreaterThan(0);

    const generated = recording();
    await planReview(generated.client, input(`${NO_FRAMEWORKS}${GENERATE_ACCESS_CONTROL}`, { sync: 'skip' }), () => {});
    expect(generated.methods()).toEqual(['ping', 'getBilling', 'getCapabilities']);
  });

  it('finds a file given as ./path, ././path or with a doubled slash by the path its glob selected', async () => {
    for (const spell of [(path: string) => `./${path}`, (path: string) => `././${path}`, (path: string) => path.replace('/', '//')]) {
      const planned = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip', files: files.map((file) => ({ ...file, path: spell(file.path) })) }), () => {});
      expect(planned.mappings[0]?.files).toEqual(files);
    }
  });

  it('refuses a sync without a repository to tag, and says where to set it', async () => {
    const config = HIPAA_CONFIG(0).replace('repository: acme/policies\n', '');
    const error = await planReview(recording().client, input(config), () => {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ReviewError);
    expect(error).toMatchObject({ code: 'invalid_config', message: 'sync needs the repository (owner/name) to tag its documents', hint: 'Set repository in compliance.yml or pass it.' });
    const given = await planReview(recording().client, input(config, { repository: 'acme/other' }), () => {});
    expect(given.plan?.repoTag).toBe('repo:acme/other');
  });

  it('reads the library, says so, and deletes what the repository removed only when asked', async () => {
    await runReview(apiClient(box, LIVE_KEY), { ...input(HIPAA_CONFIG(0), { repository: 'acme/removal' }), event: { kind: 'push' }, sync: 'run' });
    const kept = input(HIPAA_CONFIG(0), { repository: 'acme/removal', files: files.slice(0, 1) });
    const log = progressLog();
    const planned = await planReview(recording().client, kept, log.progress);
    expect(log.seen).toEqual([['plan', 'reading the library']]);
    expect(planned.plan?.items.filter((item) => item.kind === 'removed').map((item) => [item.path, item.kind === 'removed' && item.delete])).toEqual([['policies/backup.md', false]]);
    const deleting = await planReview(recording().client, { ...kept, deleteRemoved: true }, () => {});
    expect(deleting.plan?.items.filter((item) => item.kind === 'removed').map((item) => [item.path, item.kind === 'removed' && item.delete])).toEqual([['policies/backup.md', true]]);
  });

  it('prices the merge only when the sync is priced, and syncs only when it runs', async () => {
    const priced = await planReview(recording().client, input(HIPAA_CONFIG(0), { repository: 'acme/priced', sync: 'price' }), () => {});
    expect(priced.mergePrice).toBeDefined();
    expect(priced.toSync).toBeUndefined();
    expect(priced.calls.map((call) => call.operationId)).toEqual(['mapDocument']);
    const run = await planReview(recording().client, input(HIPAA_CONFIG(0), { repository: 'acme/priced' }), () => {});
    expect(run.mergePrice).toBeUndefined();
    expect(run.calls.map((call) => call.operationId)).toEqual(['ingestLibraryDocument', 'refreshLibraryDocument', 'mapDocument']);
    const skipped = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip' }), () => {});
    expect([skipped.plan, skipped.mergePrice, skipped.toSync]).toEqual([undefined, undefined, undefined]);
  });

  it('refuses two entries that name one framework, once the catalogue says so', async () => {
    const { verified } = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip' }), () => {});
    const name = verified.find((entry) => entry.slug === 'hipaa-security')?.name;
    if (!name) throw new Error('the catalogue lacks hipaa-security');
    const twice = HIPAA_CONFIG(0, `  - framework: ${JSON.stringify(name)}\n    threshold: 0\n`);
    await expect(planReview(recording().client, input(twice, { sync: 'skip' }), () => {})).rejects.toMatchObject({ code: 'invalid_config', message: expect.stringContaining('it would be mapped and charged twice') });
  });

  it('finds a file by its path when ./ only appears inside it', async () => {
    const config = 'repository: acme/dots\ndocuments:\n  - name: notes\n    paths: ["**/*.md"]\n';
    const dotted = [{ path: 'notes./access.md', content: policyText('dotted folder') }];
    const planned = await planReview(recording().client, input(config, { files: dotted }), () => {});
    expect(planned.plan?.contents.get('notes./access.md')).toMatch(/dotted folder/);
  });

  it('passes the caller’s signal to the library listing', async () => {
    const { client, calls } = recording();
    const { signal } = new AbortController();
    await planReview(client, input(HIPAA_CONFIG(0), { signal }), () => {});
    const listing = calls.filter((call) => call.method === 'listLibrary');
    expect(listing.length).toBeGreaterThan(0);
    expect(listing.every((call) => (call.args[1] as { signal?: AbortSignal }).signal === signal)).toBe(true);
  });

  it('passes the caller’s signal to the reads that confirm a changed document', async () => {
    // Texts no other test's document holds, so they are ours to sync, not duplicates.
    const own = files.map((file) => ({ ...file, content: `${file.content}\nKept by the confirmation test.\n` }));
    // Another key's library, so the other tests here see theirs as they left it.
    await runReview(apiClient(box, OTHER_KEY), { ...input(NO_FRAMEWORKS, { repository: 'acme/confirm', files: own }), event: { kind: 'push' }, sync: 'run' });
    const edited = own.map((file, index) => (index === 0 ? { ...file, content: `${file.content}\nReviewed again in 2026.\n` } : file));
    const { client, calls } = recordingClient(box, OTHER_KEY);
    const { signal } = new AbortController();
    const planned = await planReview(client, input(HIPAA_CONFIG(0), { repository: 'acme/confirm', files: edited, signal }), () => {});
    expect(planned.plan?.items.map((item) => item.kind)).toEqual(['changed', 'unchanged']);
    const reads = calls.filter((call) => call.method === 'getLibraryDocument');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((call) => (call.args[1] as { signal?: AbortSignal }).signal === signal)).toBe(true);
  });

  it('reuses a stored mapping the service confirms, pricing no call for it, and says why it does not reuse one it cannot confirm', async () => {
    const run = input(HIPAA_CONFIG(0), { sync: 'skip' });
    const { client } = recording();
    const first = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
    const reuse = readMappingStore(serializeMappingStore(7, first.stored), 7);
    const log = progressLog();
    const planned = await planReview(client, { ...run, reuse }, log.progress);
    expect(planned.calls).toEqual([]);
    expect(log.seen).toEqual([]);
    const mapLog = progressLog();
    const again = await syncAndMap(client, { ...run, reuse }, planned, mapLog.progress);
    expect(mapLog.seen).toEqual([['map', 'reusing the mapping of hipaa-security from an earlier run: same framework and documents, 0 tokens']]);
    expect([again.reused, again.tokensSpent]).toEqual([['hipaa-security'], 0]);

    const unknown = readMappingStore(serializeMappingStore(7, first.stored.map((entry) => ({ ...entry, reports: entry.reports.map((report) => ({ ...report, jobId: '00000000-0000-4000-8000-000000000000' })) }))), 7);
    const rejectLog = progressLog();
    const rejected = await planReview(client, { ...run, reuse: unknown }, rejectLog.progress);
    expect(rejected.calls.map((call) => call.operationId)).toEqual(['mapDocument']);
    expect(rejectLog.seen).toEqual([['map', expect.stringMatching(/^the stored mapping of hipaa-security is not reused: \S/)]]);
  });

  it('plans no mapping call when nothing changed since the base', async () => {
    const planned = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip', unchangedSinceBase: true }), () => {});
    expect(planned.unchanged).toBe(true);
    expect(planned.calls).toEqual([]);
  });

  it('counts against the cap it is given, else one of maxTokens', async () => {
    const capped = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip', maxTokens: 1234 }), () => {});
    expect(capped.ledger.maxTokens).toBe(1234);
    const shared = capped.ledger;
    const given = await planReview(recording().client, input(HIPAA_CONFIG(0), { sync: 'skip', ledger: shared, maxTokens: 5 }), () => {});
    expect(given.ledger).toBe(shared);
  });
});

describe('syncAndMap', () => {
  it('says what it syncs and maps, and counts both in what it spent and what the cap settles to', async () => {
    const { client } = recording();
    // Texts no other test syncs: the library is the key's, and a text it holds already is a duplicate, not new.
    const fresh = [{ path: 'policies/spend-a.md', content: policyText('spend a') }, { path: 'policies/spend-b.md', content: policyText('spend b') }];
    const run = input(HIPAA_CONFIG(0), { repository: 'acme/spend', files: fresh });
    const planned = await planReview(client, run, () => {});
    const log = progressLog();
    const done = await syncAndMap(client, run, planned, log.progress);
    expect(log.seen[0]).toEqual(['sync', 'syncing: 2 new, 0 changed, 0 unchanged']);
    expect(log.seen.slice(1, 3).map(([phase, message]) => [phase, message.replace(/ \S+\.md/, ' FILE')])).toEqual([['sync', '1/2 FILE: ingested'], ['sync', '2/2 FILE: ingested']]);
    expect(log.seen.at(-1)).toEqual(['map', 'mapping 2 documents against hipaa-security (combined)']);
    expect(done.sync?.tokensSpent).toBeGreaterThan(0);
    expect(done.tokensSpent).toBe((done.sync?.tokensSpent ?? 0) + MAP_PRICE);
    expect(done.pricedTokens).toBe((done.sync?.pricedTokens ?? 0) + MAP_PRICE);
  });

  it('names one document in the singular', async () => {
    const run = input(HIPAA_CONFIG(0), { sync: 'skip', files: files.slice(0, 1) });
    const { client } = recording();
    const log = progressLog();
    await syncAndMap(client, run, await planReview(client, run, () => {}), log.progress);
    expect(log.seen).toEqual([['map', 'mapping 1 document against hipaa-security (combined)']]);
  });

  it('takes the failOn of compliance.yml when the caller sets none, and the caller’s over it', async () => {
    const run = input(HIPAA_CONFIG(0, 'failOn: new-gaps\n'), { sync: 'skip' });
    const { client } = recording();
    const planned = await planReview(client, run, () => {});
    expect((await syncAndMap(client, run, planned, () => {})).frameworks[0]?.failOn).toBe('new-gaps');
    expect((await syncAndMap(client, { ...run, failOn: 'declared-without-evidence' }, planned, () => {})).frameworks[0]?.failOn).toBe('declared-without-evidence');
    const plain = input(HIPAA_CONFIG(0), { sync: 'skip' });
    expect((await syncAndMap(client, plain, await planReview(client, plain, () => {}), () => {})).frameworks[0]?.failOn).toBe('coverage');
  });

  it('reports a mapping the service failed after sending as not evaluated, and counts its price as possibly charged', async () => {
    const failure = new ComplianceApiError({ code: 'internal_error', message: 'The service failed.', hint: 'Retry later.', status: 502 });
    const { client } = recording({ mapAndDownload: () => Promise.reject(failure) });
    const run = input(HIPAA_CONFIG(0), { sync: 'skip' });
    const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
    expect(done.frameworks).toEqual([]);
    expect(done.frameworkErrors).toEqual([{ framework: 'hipaa-security', code: 'internal_error', message: failure.toDisplayString() }]);
    expect(done.tokensSpent).toBe(0);
    expect(done.pricedTokens).toBe(MAP_PRICE);
  });

  it('counts nothing for a mapping refused before sending, and rethrows what is not a service or review error', async () => {
    const run = input(HIPAA_CONFIG(0), { sync: 'skip', files: [{ path: 'policies/blank.md', content: '   \n' }] });
    const { client } = recording();
    const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
    expect(done.frameworkErrors.map((entry) => [entry.framework, entry.code])).toEqual([['hipaa-security', 'empty_document']]);
    expect(done.frameworkErrors[0]?.message).toMatch(/^framework hipaa-security: policies\/blank\.md /);
    expect(done.pricedTokens).toBe(0);

    const bug = new TypeError('a bug');
    const broken = recording({ mapAndDownload: () => Promise.reject(bug) });
    const plain = input(HIPAA_CONFIG(0), { sync: 'skip' });
    await expect(syncAndMap(broken.client, plain, await planReview(broken.client, plain, () => {}), () => {})).rejects.toBe(bug);
  });

  it('counts an upload the service admitted as spent when a later one of the framework is refused, and starts none after the refusal', async () => {
    // A key of its own, with room for two uploads until another run on the same key spends one of them.
    const key = 'csk_live_partialmap_0001';
    const own = await sandbox({ keys: [`${key}:live:${3 * MAP_PRICE - 1}`], rateLimitPerMinute: 100_000 });
    try {
      const other = apiClient(own, key);
      let uploads = 0;
      const { client, real } = recordingClient(own, key, {
        mapAndDownload: async (...args: unknown[]) => {
          uploads += 1;
          if (uploads === 2) await other.mapDocument({ framework: 'hipaa-security', content: policyText('another run on the same key') });
          return real.mapAndDownload(...(args as Parameters<ComplianceApi['mapAndDownload']>));
        },
      });
      const three = [...files, { path: 'policies/third.md', content: policyText('third') }];
      const run = input(HIPAA_CONFIG(0, '    mode: per-document\n'), { sync: 'skip', files: three, concurrency: 1 });
      const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
      expect(done.frameworkErrors.map((entry) => entry.code)).toEqual(['insufficient_balance']);
      expect([uploads, done.tokensSpent, done.pricedTokens]).toEqual([2, MAP_PRICE, MAP_PRICE]);
      expect((await other.getBilling()).balanceTokens).toBe(MAP_PRICE - 1);
    } finally {
      await own.close();
    }
  });

  it('counts a mapping admitted and then failed against the cap but not as spent: the service refunds a failed job', async () => {
    const key = 'csk_live_failedmap_0001';
    const own = await sandbox({ keys: [`${key}:live:${2 * MAP_PRICE}`], faults: true });
    try {
      // The sandbox's own fault: the mapping is admitted (and charged), then its job fails and is refunded.
      const client = faultyClient(own, key, (request, send) => send(isMapUpload(request) ? { ...request, headers: { ...request.headers, 'x-sandbox-fault': 'job-fail' } } : request));
      const run = input(HIPAA_CONFIG(0), { sync: 'skip' });
      const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
      expect(done.frameworkErrors.map((entry) => entry.code)).toEqual(['job_failed']);
      expect([done.tokensSpent, done.pricedTokens]).toEqual([0, MAP_PRICE]);
      const billing = await client.getBilling();
      expect([billing.balanceTokens, billing.ledger.filter((entry) => entry.operation === 'refund').map((entry) => entry.tokens)]).toEqual([2 * MAP_PRICE, [MAP_PRICE]]);
    } finally {
      await own.close();
    }
  });

  it('counts a mapping whose job completed as spent when its download then fails, whatever the failure', async () => {
    const key = 'csk_live_lostreport_0001';
    const own = await sandbox({ keys: [`${key}:live:${2 * MAP_PRICE}`] });
    try {
      // A 404 for the finished job's report: a fault the sandbox does not produce for a job it holds.
      const client = faultyClient(own, key, (request, send) => (request.method === 'GET' && /\/documents\/[^/]+$/.test(new URL(request.url).pathname) ? Promise.resolve(jobNotFoundAnswer()) : send(request)));
      const run = input(HIPAA_CONFIG(0), { sync: 'skip' });
      const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
      expect(done.frameworkErrors.map((entry) => entry.code)).toEqual(['job_not_found']);
      expect([done.tokensSpent, done.pricedTokens]).toEqual([MAP_PRICE, MAP_PRICE]);
      expect((await client.getBilling()).balanceTokens).toBe(MAP_PRICE);
    } finally {
      await own.close();
    }
  });

  it('reports a report without controls as not evaluated, after paying for it', async () => {
    const { client, real } = recording({
      mapAndDownload: async (...args: unknown[]) => {
        const answer = await real.mapAndDownload(...(args as Parameters<ComplianceApi['mapAndDownload']>));
        return { ...answer, report: { ...answer.report, controls: [], summary: { ...answer.report.summary, controls: 0 } } };
      },
    });
    const run = input(HIPAA_CONFIG(0), { sync: 'skip' });
    const done = await syncAndMap(client, run, await planReview(client, run, () => {}), () => {});
    expect(done.frameworks).toEqual([]);
    expect(done.frameworkErrors.map((entry) => entry.code)).toEqual(['no_controls']);
    expect(done.tokensSpent).toBe(MAP_PRICE);
    expect(done.stored.map((entry) => entry.framework)).toEqual(['hipaa-security']);
  });
});

describe('gapsUpdatesAndDrift', () => {
  // The sandbox catalogue's newest HIPAA Security Rule update (the proposed rule of 2025).
  const LATEST_HIPAA_UPDATE = '2025-01-06';

  it('reads no framework update when told not to, and each framework’s once otherwise', async () => {
    const run = input(`${HIPAA_CONFIG(0)}${GENERATE_ACCESS_CONTROL}`, { sync: 'skip' });
    const off = recording();
    const planned = await planReview(off.client, run, () => {});
    const offLog = progressLog();
    const none = await gapsUpdatesAndDrift(off.client, run, planned, [], offLog.progress);
    expect(none).toEqual({ gapPlan: undefined, frameworkUpdates: [], drift: undefined });
    expect(off.methods()).not.toContain('getFramework');
    expect(offLog.seen).toEqual([]);

    const on = recording();
    const onLog = progressLog();
    const read = await gapsUpdatesAndDrift(on.client, { ...run, checkUpdates: undefined }, planned, [], onLog.progress);
    expect(on.calls.filter((call) => call.method === 'getFramework').map((call) => call.args[0])).toEqual([{ slug: 'hipaa-security' }]);
    expect(read.frameworkUpdates.map((entry) => entry.slug)).toEqual(['hipaa-security']);
    expect(onLog.seen).toEqual([['updates', 'reading framework updates']]);
    // Asked for explicitly, as when left out.
    expect((await gapsUpdatesAndDrift(recording().client, { ...run, checkUpdates: true }, planned, [], () => {})).frameworkUpdates.map((entry) => entry.slug)).toEqual(['hipaa-security']);
  });

  it('passes the caller’s signal to the update reads, and resolves no framework when it reads no update', async () => {
    const { signal } = new AbortController();
    const run = input(HIPAA_CONFIG(0), { sync: 'skip', checkUpdates: undefined, signal });
    const { client, calls } = recording();
    const planned = await planReview(client, run, () => {});
    await gapsUpdatesAndDrift(client, run, planned, [], () => {});
    expect(calls.filter((call) => call.method === 'getFramework').map((call) => (call.args[1] as { signal?: AbortSignal }).signal)).toEqual([signal]);
    // A framework the catalogue lacks is a mapping error already; without updates it is not looked up again.
    const unknown = input(HIPAA_CONFIG(0).replace('hipaa-security', 'no-such-framework'), { sync: 'skip' });
    await expect(gapsUpdatesAndDrift(client, unknown, { ...planned }, [], () => {})).resolves.toMatchObject({ frameworkUpdates: [] });
  });

  it('checks drift only with a manifest and a generate section, against the framework’s latest update', async () => {
    const manifest = { schemaVersion: 1 as const, documents: [] };
    const withGenerate = input(`${HIPAA_CONFIG(0)}${GENERATE_ACCESS_CONTROL}`, { sync: 'skip', manifest, checkUpdates: undefined });
    const { client } = recording();
    const log = progressLog();
    const planned = await planReview(client, withGenerate, () => {});
    const checked = await gapsUpdatesAndDrift(client, withGenerate, planned, [], log.progress);
    expect(log.seen).toEqual([['updates', 'reading framework updates'], ['drift', 'checking generated documents']]);
    expect(checked.drift?.documents.map((document) => document.frameworkUpdatedAt)).toEqual([LATEST_HIPAA_UPDATE]);
    // A generated document may name its framework by title: its latest update is still the slug's.
    const byTitle = input(`${HIPAA_CONFIG(0)}${GENERATE_ACCESS_CONTROL.replace('framework: hipaa-security', 'framework: HIPAA Security Rule')}`, { sync: 'skip', manifest, checkUpdates: undefined });
    const titled = await gapsUpdatesAndDrift(client, byTitle, await planReview(client, byTitle, () => {}), [], () => {});
    expect(titled.drift?.documents.map((document) => document.frameworkUpdatedAt)).toEqual([LATEST_HIPAA_UPDATE]);

    const withoutGenerate = input(HIPAA_CONFIG(0), { sync: 'skip', manifest });
    const skipped = await gapsUpdatesAndDrift(client, withoutGenerate, await planReview(client, withoutGenerate, () => {}), [], () => {});
    expect(skipped.drift).toBeUndefined();
  });

  it('plans gap issues only when issues are given and the event may write them', async () => {
    const run = input(HIPAA_CONFIG(100), { sync: 'skip', existingIssues: [] });
    const { client } = recording();
    const planned = await planReview(client, run, () => {});
    const { frameworks } = await syncAndMap(client, run, planned, () => {});
    expect((await gapsUpdatesAndDrift(client, run, planned, frameworks, () => {})).gapPlan?.create.length).toBeGreaterThan(0);
    const pullRequest = { ...run, event: { kind: 'pull_request' as const, pullRequest: 4 } };
    const refused = await planReview(client, pullRequest, () => {});
    expect((await gapsUpdatesAndDrift(client, pullRequest, refused, frameworks, () => {})).gapPlan).toBeUndefined();
    const noIssues = { ...run, existingIssues: undefined };
    expect((await gapsUpdatesAndDrift(client, noIssues, planned, frameworks, () => {})).gapPlan).toBeUndefined();
  });
});

describe('finishReview', () => {
  async function parts(threshold: number) {
    const run = input(HIPAA_CONFIG(threshold), { sync: 'skip' });
    const { client } = recording();
    const planned = await planReview(client, run, () => {});
    const done = await syncAndMap(client, run, planned, () => {});
    const priced = { estimate: { tokens: 0 }, budget: { ok: true } } as unknown as Parameters<typeof finishReview>[2];
    return { run, planned, done, priced };
  }

  it('passes only a completed or unchanged run whose frameworks all passed and were all evaluated', async () => {
    const { run, planned, done, priced } = await parts(0);
    const finished = (status: Parameters<typeof finishReview>[3], extra: Parameters<typeof finishReview>[4] = {}) =>
      finishReview(run, planned, priced, status, { frameworks: done.frameworks, ...extra });
    expect(finished('completed').passed).toBe(true);
    expect(finished('unchanged').passed).toBe(true);
    expect(finished('refused').passed).toBe(false);
    expect(finished('dry-run').passed).toBe(false);
    expect(finished('completed', { frameworkErrors: [{ framework: 'soc2', code: 'internal_error', message: 'failed' }] }).passed).toBe(false);
    const failing = await parts(100);
    expect(finishReview(failing.run, failing.planned, failing.priced, 'completed', { frameworks: failing.done.frameworks }).passed).toBe(false);
  });

  it('fills what the run did not reach with empty answers, and dates the report at the start of today', async () => {
    const { run, planned, priced } = await parts(0);
    const result = finishReview(run, planned, priced, 'refused', {});
    expect([result.frameworks, result.frameworkErrors, result.frameworkUpdates, result.reused, result.mappings, result.tokensSpent]).toEqual([[], [], [], [], [], 0]);
    expect([result.gapPlan, result.drift, result.sync]).toEqual([undefined, undefined, undefined]);
    expect(result.report.generatedAt).toBe('2026-01-05T00:00:00Z');
  });

  it('points the report at the run’s repository, commit and server', async () => {
    const { run, planned, priced } = await parts(0);
    const located = finishReview({ ...run, runRepository: 'acme/run', commit: 'c'.repeat(40), serverUrl: 'https://git.example', forge: 'gitlab', now: '2026-01-05T10:00:00Z' }, planned, priced, 'refused', {});
    expect(located.report).toMatchObject({ repository: 'acme/run', commit: 'c'.repeat(40), serverUrl: 'https://git.example', forge: 'gitlab', generatedAt: '2026-01-05T10:00:00Z' });
    const fallback = finishReview(run, planned, priced, 'refused', {});
    expect(fallback.report.repository).toBe('acme/policies');
    expect([fallback.report.commit, fallback.report.serverUrl]).toEqual([undefined, undefined]);
  });
});
