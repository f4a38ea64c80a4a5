/**
 * The contract suite: the API module's real client against the sandbox over loopback, for every
 * operation of the table, with both auth headers and both key modes. Later work keeps it green.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceApiError, ComplianceClient, operationIds, operations, type OperationId } from '../../api/node/index.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { LIVE_KEY, policyText, sandbox, SANDBOX_KEY } from './helpers.js';

const combinations = [
  { mode: 'sandbox', key: SANDBOX_KEY, authHeader: 'bearer' },
  { mode: 'sandbox', key: SANDBOX_KEY, authHeader: 'x-api-key' },
  { mode: 'live', key: LIVE_KEY, authHeader: 'bearer' },
  { mode: 'live', key: LIVE_KEY, authHeader: 'x-api-key' },
] as const;

describe.each(combinations)('$mode key via $authHeader', ({ mode, key, authHeader }) => {
  let box: RunningSandbox;
  let api: ComplianceClient;
  const covered = new Set<OperationId>();
  /** Checks a result against the table's output schema and records the operation as exercised. */
  const conforms = (id: OperationId, result: unknown) => {
    covered.add(id);
    if (operations[id].response === 'json') expect(operations[id].output.safeParse(result).success).toBe(true);
  };

  beforeAll(async () => {
    box = await sandbox();
    api = new ComplianceClient({ apiKey: key, baseUrl: box.baseUrl, authHeader, maxRetries: 0 });
  });
  afterAll(async () => {
    await box.close();
    // Every operation of the table was exercised through the client.
    expect([...covered].sort()).toEqual([...operationIds].sort());
  });

  it('reads the public card and description, pings and reads capabilities and usage', async () => {
    const card = await api.getServiceCard();
    conforms('getServiceCard', card);
    expect(card.version).toBe('v1');
    conforms('getOpenApi', await api.getOpenApi());
    const ping = await api.ping();
    conforms('ping', ping);
    expect(ping.mode).toBe(mode);
    const capabilities = await api.getCapabilities();
    conforms('getCapabilities', capabilities);
    expect(capabilities.formats).toEqual(['json', 'md', 'pdf', 'docx']);
    conforms('getUsage', await api.getUsage());
  });

  it('discovers frameworks and reads one', async () => {
    const suggested = await api.suggestFrameworks({ query: 'health data privacy in the United States', jurisdiction: 'US' });
    conforms('suggestFrameworks', suggested);
    expect(suggested.candidates.length).toBeGreaterThan(0);
    const framework = await api.getFramework({ slug: suggested.candidates[0]!.slug! });
    conforms('getFramework', framework);
    expect(framework.updates.length).toBeGreaterThan(0);
  });

  it('generates, polls and downloads in every format', async () => {
    const accepted = await api.generateDocument({ framework: 'gdpr', organisation: { name: 'Contract Test Ltd' } });
    conforms('generateDocument', accepted);
    const job = await api.getJob({ jobId: accepted.jobId });
    conforms('getJob', job);
    await api.waitForJob(accepted.jobId);
    for (const format of ['json', 'md', 'pdf', 'docx'] as const) {
      const download = await api.downloadDocument({ jobId: accepted.jobId, format });
      covered.add('downloadDocument');
      expect(download.kind).toBe(format === 'json' ? 'json' : format === 'md' ? 'text' : 'binary');
    }
  });

  it('maps a document against a verified framework', async () => {
    const accepted = await api.mapDocument({ framework: 'gdpr', content: policyText('Data protection'), title: 'Data protection policy' });
    conforms('mapDocument', accepted);
    // A verified framework: its coverage is computed from the controls' statuses (others answer a sample).
    const { report } = await api.mapAndDownload({ framework: 'hipaa-security', content: policyText('Security') });
    expect(report.controls.length).toBeGreaterThan(0);
    // The percentage the controls' statuses give (a partial counts half), to one decimal.
    const count = (status: string) => report.controls.filter((control) => control.status === status).length;
    expect(report.coverage).toBe(Math.round(((count('covered') + count('partial') / 2) / report.controls.length) * 1000) / 10);
    expect(report.coverage).toBeGreaterThan(0);
  });

  it('runs the library: ingest, list, get, refresh, search, delete', async () => {
    const ingested = await api.ingestLibraryDocument({ title: 'Access control policy', content: policyText('Access control'), category: 'Security', tags: ['access'] });
    conforms('ingestLibraryDocument', ingested);
    await api.waitForJob(ingested.jobId);
    const id = ingested.documentId!;
    conforms('listLibrary', await api.listLibrary());
    const document = await api.getLibraryDocument({ id, include: 'content' });
    conforms('getLibraryDocument', document);
    expect(document.content).toContain('least privilege');
    const refreshed = await api.refreshLibraryDocument({ id, content: `${policyText('Access control')}\n\nRevised: passwords rotate yearly.` });
    conforms('refreshLibraryDocument', refreshed);
    await api.waitForJob(refreshed.jobId);
    const found = await api.searchLibrary({ query: 'multi-factor authentication' });
    conforms('searchLibrary', found);
    expect(found.results[0]?.documentId).toBe(id);
    conforms('deleteLibraryDocument', await api.deleteLibraryDocument({ id }));
    await expect(api.getLibraryDocument({ id })).rejects.toMatchObject({ status: 404 });
  });

  it('reads and sets billing, checkout, auto-top-up and the calendar', async () => {
    const billing = await api.getBilling();
    conforms('getBilling', billing);
    expect(billing.mode).toBe(mode);
    if (mode === 'live') expect(billing.balanceTokens).toBeLessThan(5_000_000);
    else expect(billing.balanceTokens).toBe(0);
    const checkout = await api.createCheckout({ pack: 'pack25' });
    conforms('createCheckout', checkout);
    expect(checkout.url).toContain(checkout.sessionId);
    conforms('setAutoTopUp', await api.setAutoTopUp({ enabled: true, thresholdTokens: 200_000, pack: 'pack10' }));
    conforms('getAutoTopUp', await api.getAutoTopUp());
    const calendar = await api.setCalendar({ cadence: 'monthly' });
    conforms('setCalendar', calendar);
    expect(calendar.nextReviewAt).toBeTruthy();
    conforms('getCalendar', await api.getCalendar());
  });

  it('surfaces the envelope as ComplianceApiError with code and request id', async () => {
    const error = await api.getJob({ jobId: '00000000-0000-4000-8000-000000000000' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ComplianceApiError);
    expect(error).toMatchObject({ status: 404, code: 'job_not_found', requestId: expect.stringMatching(/^req_/) });
  });
});
