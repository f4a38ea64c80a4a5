/**
 * No request, keyed or not, makes later requests fail (issue 37.1, 37.2, 37.6). One sandbox over
 * loopback gets every hostile request of the issue and the extremes around it: the test clock moved
 * by 1e13 s and every other out-of-range value, then to the very end of its range; calendar and
 * auto-top-up settings at their limits; `__proto__`, `constructor` and `prototype` keys in every
 * JSON body and query; a stranger's bad keys from the same address. After them every operation of
 * the table still answers, through the real API client (which parses every answer), for a valid key
 * on that address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../../api/operations.js';
import type { ComplianceClient } from '../../api/node/index.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { apiClient, client, envelope, policyText, type Answer } from '../sandbox/helpers.js';

const KEY = 'csk_sandbox_hostile_requests_0001';
const LIVE = 'csk_live_hostile_requests_0002';
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'];

let box: RunningSandbox;
beforeAll(async () => {
  box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [KEY, `${LIVE}:live:5000000`] });
});
afterAll(async () => {
  await box?.close();
});

/** Not a server fault: the envelope's codes only. */
function answered(answer: Answer, what: string): void {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBeLessThan(500);
  if (answer.status >= 400) expect(Object.keys(answer.body), what).toEqual(['error']);
}

const moveClock = (advanceSeconds: unknown) => client(box, null)('POST', `${box.origin}/_sandbox/clock`, { body: { advanceSeconds } });

describe('hostile requests', () => {
  it('the test clock: 1e13 s, 1e12 s and every other out-of-range value are 400 and move nothing; it moves to the end of its range and no further', async () => {
    const raw = client(box, null);
    const start = Date.parse((await moveClock(0)).body.now as string);
    for (const value of [1e13, 1e12, 1e308, Number.MAX_SAFE_INTEGER, 4e9, -1, -1e13, '60', null, true, [60], { seconds: 60 }]) {
      const answer = await moveClock(value);
      envelope(answer, 400, 'invalid_request');
      expect(answer.body.error.message, JSON.stringify(value)).toMatch(/advanceSeconds must be a number from 0 to [\d,]+: the sandbox clock moves at most 100 years ahead/);
    }
    for (const rawBody of ['{"advanceSeconds": 1e999}', '{"advanceSeconds": -1e999}', 'null', '[]', '{']) answered(await raw('POST', `${box.origin}/_sandbox/clock`, { rawBody }), rawBody);
    expect(Date.parse((await moveClock(0)).body.now as string) - start).toBeLessThan(60_000);

    // The whole range, in two moves: 99 years, then exactly what is left.
    expect((await moveClock(99 * 365.25 * 86_400)).status).toBe(200);
    const refused = await moveClock(2 * 365.25 * 86_400);
    envelope(refused, 400, 'invalid_request');
    const room = Number(/from 0 to ([\d,]+)/.exec(refused.body.error.message as string)![1]!.replaceAll(',', ''));
    expect(room).toBeGreaterThan(364 * 86_400);
    expect(room).toBeLessThan(366 * 86_400);
    const end = await moveClock(room);
    expect(end.status).toBe(200);
    expect(new Date(end.body.now as string).getUTCFullYear()).toBeGreaterThanOrEqual(new Date(start).getUTCFullYear() + 99);
    envelope(await moveClock(1), 400, 'invalid_request');
  });

  it('settings at their limits: a calendar from year 0 and to year 9999, auto-top-up at the largest threshold', async () => {
    const call = client(box, KEY);
    for (const firstReviewAt of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59Z']) {
      for (const cadence of ['monthly', 'quarterly']) answered(await call('PUT', '/calendar', { body: { cadence, firstReviewAt } }), `calendar ${cadence} ${firstReviewAt}`);
    }
    const live = client(box, LIVE);
    answered(await live('PUT', '/billing/auto-topup', { body: { enabled: true, thresholdTokens: Number.MAX_SAFE_INTEGER, pack: 'pack500' } }), 'auto-top-up');
  });

  it('`__proto__`, `constructor` and `prototype` keys: answered 400 or ignored in every JSON body, 400 in every query, never 500', async () => {
    const call = client(box, KEY);
    const bodies: Array<[method: string, path: string, body: Record<string, unknown>]> = [
      ['POST', '/frameworks/suggest', { query: 'health data in the US' }],
      ['POST', '/documents/generate', { framework: 'gdpr' }],
      ['POST', '/documents/map', { framework: 'hipaa-security', content: policyText('prototype keys') }],
      ['POST', '/library/documents', { title: 'Prototype keys', content: policyText('prototype keys') }],
      ['POST', '/library/documents/doc_0000000000000000/refresh', { content: policyText('prototype keys') }],
      ['POST', '/library/search', { query: 'backups' }],
      ['POST', '/billing/checkout', { pack: 'pack10' }],
      ['PUT', '/billing/auto-topup', { enabled: false }],
      ['PUT', '/calendar', { cadence: 'none' }],
      ['PUT', '/calendar', { cadence: 'monthly', firstReviewAt: '2030-01-01T00:00:00Z' }],
    ];
    for (const [method, path, body] of bodies) {
      for (const key of PROTOTYPE_KEYS) {
        for (const value of [{ polluted: true }, { prototype: { polluted: true } }, 'x', null]) {
          // Written as text: an object literal's `__proto__` sets its prototype rather than a key.
          const rawBody = `${JSON.stringify(body).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
          answered(await call(method, path, { rawBody, headers: { 'content-type': 'application/json' } }), `${method} ${path} ${rawBody.slice(-80)}`);
        }
      }
    }
    const form = new FormData();
    form.set('framework', 'hipaa-security');
    for (const key of PROTOTYPE_KEYS) form.set(key, 'x');
    form.set('file', new Blob([policyText('multipart prototype keys')]), 'policy.md');
    answered(await call('POST', '/documents/map', { rawBody: form }), 'multipart with prototype keys');
    for (const path of ['/ping', '/library', '/usage', '/billing', '/calendar', '/capabilities']) {
      for (const key of PROTOTYPE_KEYS) envelope(await call('GET', `${path}?${key}=1`), 400, 'unknown_field');
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a stranger\u2019s bad keys from this address: its further bad keys are refused, a valid key is served', async () => {
    const call = client(box, KEY);
    for (let i = 0; i < 12; i++) expect([401, 429]).toContain((await call('GET', '/ping', { key: `csk_sandbox_stranger_${i}_xxxxxxxx` })).status);
    envelope(await call('GET', '/ping', { key: 'csk_sandbox_stranger_last_xxxxxxxx' }), 429, 'auth_blocked');
    expect((await call('GET', '/ping')).status).toBe(200);
  });

  it('after all of them, every operation of the table answers a valid key through the real client', async () => {
    const api: ComplianceClient = apiClient(box, KEY);
    const called = new Set<OperationId>();
    const call = async <Id extends OperationId>(id: Id, input?: Parameters<ComplianceClient['call']>[1]) => {
      called.add(id);
      return (await api.call(id, input as never)) as Record<string, unknown>;
    };
    await call('getServiceCard');
    await call('getOpenApi');
    expect(await call('ping')).toMatchObject({ mode: 'sandbox' });
    await call('getCapabilities');
    await call('suggestFrameworks', { query: 'health data in the US' });
    await call('getFramework', { slug: 'hipaa-security' });
    const generation = await call('generateDocument', { framework: 'gdpr' });
    expect((await api.waitForJob(generation.jobId as string)).status).toBe('completed');
    const mapping = await call('mapDocument', { framework: 'hipaa-security', content: policyText('after the attacks') });
    expect((await call('getJob', { jobId: mapping.jobId as string })).status).toBe('completed');
    await call('downloadDocument', { jobId: mapping.jobId as string, format: 'json' });
    const ingest = await call('ingestLibraryDocument', { title: 'After the attacks', content: policyText('after the attacks, library') });
    await api.waitForJob(ingest.jobId as string);
    const refresh = await call('refreshLibraryDocument', { id: ingest.documentId as string, content: policyText('after the attacks, refreshed') });
    await api.waitForJob(refresh.jobId as string);
    expect(await call('listLibrary')).toHaveProperty('documents');
    await call('getLibraryDocument', { id: ingest.documentId as string });
    await call('searchLibrary', { query: 'backups' });
    await call('deleteLibraryDocument', { id: ingest.documentId as string });
    await call('getUsage');
    await call('getBilling');
    await call('createCheckout', { pack: 'pack10' });
    await call('getAutoTopUp');
    await call('setAutoTopUp', { enabled: false });
    await call('getCalendar');
    await call('setCalendar', { cadence: 'quarterly' });
    expect([...called].sort()).toEqual(Object.keys(operations).sort());
    // The live key, a century of meter later: its reads still answer (its writes are 402 read-only, as they should be).
    const live = apiClient(box, LIVE);
    expect(await live.getBilling()).toHaveProperty('balanceTokens');
    expect(await live.getCalendar()).toHaveProperty('cadence');
    expect(await live.getUsage()).toBeDefined();
  });
});
