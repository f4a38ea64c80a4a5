/** The Compliance Trigger's poll with a fake poll context against a real sandbox. */
import type { IDataObject, ILoadOptionsFunctions } from 'n8n-workflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../../api/node/index.js';
import { ComplianceTrigger } from '../../../nodes/ComplianceTrigger/ComplianceTrigger.node.js';
import { STATE_KEY, type ComplianceTriggerV1 } from '../../../nodes/ComplianceTrigger/v1/ComplianceTriggerV1.node.js';
import { detect, type TriggerState } from '../../../nodes/ComplianceTrigger/events.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { fakePoll } from './fakeContext.js';

const KEY = 'csk_sandbox_unit_trigger_key_01';
const LIVE = 'csk_live_unit_trigger_live_key_1';
const TEXT = 'Backups are taken nightly, encrypted, copied off site and restore-tested every quarter by the operations team. '.repeat(3);

let sandbox: RunningSandbox;
let client: ComplianceClient;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, jobSeconds: 0, keys: [KEY, `${LIVE}:live:50000`] });
  client = new ComplianceClient({ apiKey: KEY, baseUrl: sandbox.baseUrl });
});
afterAll(async () => sandbox?.close());

/** The node as n8n runs a version 2 trigger (version 1 is the same implementation). */
const trigger = () => new ComplianceTrigger().nodeVersions[2] as ComplianceTriggerV1;

async function poll(parameters: IDataObject, staticData: IDataObject, mode: 'manual' | 'trigger' = 'trigger', apiKey = KEY) {
  const { context } = fakePoll({ credentials: { apiKey, baseUrl: sandbox.baseUrl }, parameters, staticData, mode });
  const result = await trigger().poll.call(context);
  return result ? result[0]!.map((item) => item.json) : [];
}

describe('Compliance Trigger', () => {
  it('library: the first poll records, later polls fire once per add, refresh and removal', async () => {
    const staticData: IDataObject = {};
    const parameters = { event: 'libraryDocumentChanged' };
    expect(await poll(parameters, staticData)).toEqual([]);
    const accepted = await client.ingestLibraryDocument({ title: 'Backups', content: TEXT });
    // "Fetch Test Event" shows the change without moving the cursor.
    const manual = await poll(parameters, staticData, 'manual');
    expect(manual).toMatchObject([{ event: 'libraryDocumentChanged', change: 'added', documentId: accepted.documentId }]);
    const added = await poll(parameters, staticData);
    expect(added).toMatchObject([{ change: 'added', documentId: accepted.documentId, version: 1 }]);
    // The same poll again (a retry, a second worker with the saved cursor): nothing new.
    expect(await poll(parameters, staticData)).toEqual([]);
    await client.refreshLibraryDocument({ id: accepted.documentId!, content: `${TEXT} Changed.` });
    expect(await poll(parameters, staticData)).toMatchObject([{ change: 'updated', version: 2 }]);
    await client.deleteLibraryDocument({ id: accepted.documentId! });
    expect(await poll(parameters, staticData)).toMatchObject([{ change: 'removed', documentId: accepted.documentId }]);
    expect(await poll(parameters, staticData)).toEqual([]);
    // Three events, three remembered keys.
    expect((staticData[STATE_KEY] as TriggerState).seen).toHaveLength(3);
  });

  it('a restart resumes from the saved cursor (a copy of the static data)', async () => {
    const staticData: IDataObject = {};
    const parameters = { event: 'libraryDocumentChanged' };
    await poll(parameters, staticData);
    const accepted = await client.ingestLibraryDocument({ title: 'Restart', content: `${TEXT} Restart.` });
    const restored = JSON.parse(JSON.stringify(staticData)) as IDataObject;
    expect(await poll(parameters, restored)).toMatchObject([{ change: 'added', documentId: accepted.documentId }]);
  });

  it('balance low: fires once per dip on a live key; manual mode leaves the cursor alone', async () => {
    const staticData: IDataObject = {};
    const parameters = { event: 'balanceLow', thresholdDays: 7 };
    const manual = await poll(parameters, staticData, 'manual', LIVE);
    expect(manual).toMatchObject([{ event: 'balanceLow', estimatedDaysRemaining: expect.any(Number) }]);
    expect(staticData).toEqual({});
    expect(await poll(parameters, staticData, 'trigger', LIVE)).toMatchObject([{ event: 'balanceLow', eventKey: 'balanceLow:1', balanceTokens: 50_000 }]);
    expect(await poll(parameters, staticData, 'trigger', LIVE)).toEqual([]);
    // Under a lower threshold the balance is not low: re-armed, and the next dip is a new event.
    expect(await poll({ ...parameters, thresholdDays: 1 }, staticData, 'trigger', LIVE)).toEqual([]);
    expect(await poll(parameters, staticData, 'trigger', LIVE)).toMatchObject([{ eventKey: 'balanceLow:2' }]);
  });

  it('framework updates: baseline first, then only new dated updates', async () => {
    const updates = [{ date: '2024-01-01', title: 'Old' }];
    const api = {
      getFramework: async () => ({ slug: 'gdpr', name: 'GDPR', updates }),
    } as unknown as Parameters<typeof detect>[0];
    const parameters = { event: 'frameworkUpdated' as const, frameworks: ['gdpr'] };
    let state: TriggerState = {};
    let result = await detect(api, state, parameters, Date.now());
    expect(result.events).toEqual([]);
    expect(result.sample).toMatchObject({ slug: 'gdpr', update: { title: 'Old' } });
    state = result.state;
    updates.push({ date: '2025-06-01', title: 'New guidance' });
    result = await detect(api, state, parameters, Date.now());
    expect(result.events).toMatchObject([{ event: 'frameworkUpdated', slug: 'gdpr', update: { title: 'New guidance' } }]);
    expect((await detect(api, result.state, parameters, Date.now())).events).toEqual([]);
  });

  it('review due: fires for a review date reached, even after the service moved on to the next one', async () => {
    let calendar = { cadence: 'monthly', nextReviewAt: '2030-01-01T00:00:00.000Z' };
    const api = { getCalendar: async () => calendar } as unknown as Parameters<typeof detect>[0];
    const parameters = { event: 'reviewDue' as const };
    let result = await detect(api, {}, parameters, Date.parse('2029-12-31T00:00:00Z'));
    expect(result.events).toEqual([]);
    expect(result.sample).toMatchObject({ due: false, reviewAt: '2030-01-01T00:00:00.000Z' });
    calendar = { cadence: 'monthly', nextReviewAt: '2030-02-01T00:00:00.000Z' };
    result = await detect(api, result.state, parameters, Date.parse('2030-01-02T00:00:00Z'));
    expect(result.events).toMatchObject([{ event: 'reviewDue', reviewAt: '2030-01-01T00:00:00.000Z', due: true }]);
    expect((await detect(api, result.state, parameters, Date.parse('2030-01-03T00:00:00Z'))).events).toEqual([]);
  });

  it('framework updates need at least one framework (version 1 text, version 2 multi-select)', async () => {
    await expect(poll({ event: 'frameworkUpdated', frameworks: ' , ' }, {})).rejects.toThrow(/No framework is chosen to watch/);
    await expect(poll({ event: 'frameworkUpdated', frameworks: [] }, {})).rejects.toThrow(/No framework is chosen to watch/);
  });

  it('version 2 offers the verified frameworks to pick and watches the picked slugs (a list)', async () => {
    const { context } = fakePoll({ credentials: { apiKey: KEY, baseUrl: sandbox.baseUrl }, parameters: {} });
    const options = await trigger().methods.loadOptions.getVerifiedFrameworks.call(context as unknown as ILoadOptionsFunctions);
    const { verifiedFrameworks } = await client.getCapabilities();
    expect(options.map((option) => option.value).sort()).toEqual(verifiedFrameworks.map((framework) => framework.slug).sort());
    expect(options.length).toBeGreaterThan(1);
    const picked = [String(options[0]!.value), String(options[1]!.value)];
    const staticData: IDataObject = {};
    await poll({ event: 'frameworkUpdated', frameworks: picked }, staticData);
    expect(Object.keys((staticData[STATE_KEY] as TriggerState).frameworks ?? {}).sort()).toEqual([...picked].sort());
  });

  it('review due: Fetch Test Event without a review calendar says why there is no output', async () => {
    await client.setCalendar({ cadence: 'none' });
    const fetched = poll({ event: 'reviewDue' }, {}, 'manual');
    await expect(fetched).rejects.toThrow(/No review is scheduled: the review calendar's cadence is none/);
    await expect(fetched).rejects.toMatchObject({ description: expect.stringMatching(/Calendar → Set/) });
    // Active polling just finds nothing, without an error.
    expect(await poll({ event: 'reviewDue' }, {})).toEqual([]);
  });
});
