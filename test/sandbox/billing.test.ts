/** Live-mode billing: charges and ledger, read-only at zero, checkout, notices, meter, refunds, calendar. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, LIVE_KEY, ManualClock, sandbox, SANDBOX_KEY } from './helpers.js';

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

async function outbox(box: RunningSandbox, keyId: string, kind: string) {
  const answer = await fetch(`${box.origin}/_sandbox/outbox?keyId=${keyId}&kind=${kind}`);
  return ((await answer.json()) as { messages: Array<{ subject: string; body: string; to: string }> }).messages;
}

function keyIdOf(box: RunningSandbox, key: string): string {
  return box.keys.find((k) => k.key === key)!.keyId;
}

describe('charges', () => {
  it('charges live keys by the listed prices with a ledger entry, and never charges sandbox keys', async () => {
    box = await sandbox();
    const call = client(box, LIVE_KEY);
    const billing = (await call('GET', '/billing')).body;
    expect(billing).toMatchObject({ mode: 'live', balanceTokens: 5_000_000, status: 'active' });
    expect(billing.prices).toMatchObject({ ingestLibraryDocument: 400_000, refreshLibraryDocument: 400_000, searchLibrary: 5_000 });
    expect(billing.packs).toHaveLength(6);
    expect(billing.meter).toMatchObject({ plan: 'api', dailyFloorTokens: 22_222, monthlyUsdEquivalent: 2 });
    expect((await call('GET', '/capabilities')).body.prices).toEqual(billing.prices);

    const suggested = await call('POST', '/frameworks/suggest', { body: { query: 'health data privacy in the US' } });
    expect(suggested.status).toBe(200);
    const after = (await call('GET', '/billing')).body;
    expect(after.balanceTokens).toBe(5_000_000 - billing.prices.suggestFrameworks);
    expect(after.ledger[0]).toMatchObject({ operation: 'suggestFrameworks', tokens: -billing.prices.suggestFrameworks, reference: suggested.headers.get('x-request-id') });

    const sandboxCall = client(box, SANDBOX_KEY);
    await sandboxCall('POST', '/frameworks/suggest', { body: { query: 'payments' } });
    const sandboxBilling = (await sandboxCall('GET', '/billing')).body;
    expect(sandboxBilling).toMatchObject({ mode: 'sandbox', balanceTokens: 0, status: 'active', ledger: [] });
  });
});

describe('read-only at zero', () => {
  it('refuses writes at zero (402 account_read_only), keeps reads, billing and checkout open, and reopens on payment', async () => {
    const key = 'csk_live_small_balance_1';
    box = await sandbox({ keys: [`${key}:live:40000`] });
    const call = client(box, key);
    expect((await call('POST', '/frameworks/suggest', { body: { query: 'a' } })).status).toBe(200);
    expect((await call('POST', '/frameworks/suggest', { body: { query: 'b' } })).status).toBe(200);
    envelope(await call('POST', '/frameworks/suggest', { body: { query: 'c' } }), 402, 'account_read_only');
    envelope(await call('PUT', '/calendar', { body: { cadence: 'monthly' } }), 402, 'account_read_only');
    expect((await call('GET', '/ping')).status).toBe(200);
    expect((await call('GET', '/library')).status).toBe(200);
    const billing = await call('GET', '/billing');
    expect(billing.body).toMatchObject({ balanceTokens: 0, status: 'read_only' });

    const checkout = await call('POST', '/billing/checkout', { body: { pack: 'pack10' } });
    expect(checkout.status).toBe(200);
    expect(checkout.body.pack.code).toBe('pack10');
    expect(checkout.body.url).toBe(`${box.origin}/_sandbox/checkout/${checkout.body.sessionId}`);
    const page = await fetch(checkout.body.url);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('pack10');
    const paid = await fetch(`${checkout.body.url}/pay`, { method: 'POST' });
    expect(await paid.json()).toMatchObject({ paid: true, tokens: 3_300_000, balanceTokens: 3_300_000 });
    envelope(await call(`POST`, `${checkout.body.url}/pay`), 409, 'already_paid');

    const reopened = await call('GET', '/billing');
    expect(reopened.body).toMatchObject({ balanceTokens: 3_300_000, status: 'active' });
    expect(reopened.body.ledger[0]).toMatchObject({ operation: 'topup', tokens: 3_300_000, reference: checkout.body.sessionId });
    expect((await call('POST', '/frameworks/suggest', { body: { query: 'c' } })).status).toBe(200);
  });

  it('refuses a call the balance cannot cover with 402 insufficient_balance and charges nothing', async () => {
    const key = 'csk_live_small_balance_2';
    box = await sandbox({ keys: [`${key}:live:10000`] });
    const call = client(box, key);
    const refused = await call('POST', '/frameworks/suggest', { body: { query: 'a' } });
    expect(envelope(refused, 402, 'insufficient_balance').priceTokens).toBe(20_000);
    expect((await call('GET', '/billing')).body).toMatchObject({ balanceTokens: 10_000, ledger: [] });
  });
});

describe('notices and meter', () => {
  it('emails an auto-top-up checkout link once per dip below the threshold', async () => {
    const key = 'csk_live_autotopup_01';
    box = await sandbox({ keys: [`${key}:live:1000000`] });
    const call = client(box, key);
    const keyId = keyIdOf(box, key);
    envelope(await call('PUT', '/billing/auto-topup', { body: { enabled: true, thresholdTokens: 50_000, pack: 'pack10' } }), 400, 'invalid_threshold');
    const set = await call('PUT', '/billing/auto-topup', { body: { enabled: true, thresholdTokens: 970_000, pack: 'pack25' } });
    expect(set.body).toEqual({ enabled: true, thresholdTokens: 970_000, pack: 'pack25' });
    expect((await call('GET', '/billing/auto-topup')).body).toEqual(set.body);
    await call('POST', '/frameworks/suggest', { body: { query: 'a' } }); // 980,000
    expect(await outbox(box, keyId, 'auto_topup')).toHaveLength(0);
    await call('POST', '/frameworks/suggest', { body: { query: 'b' } }); // 960,000: dip
    await call('POST', '/frameworks/suggest', { body: { query: 'c' } }); // 940,000: same dip
    const mails = await outbox(box, keyId, 'auto_topup');
    expect(mails).toHaveLength(1);
    const link = /http:\/\/\S+\/_sandbox\/checkout\/cs_sandbox_\w+/.exec(mails[0]!.body)![0];
    expect(await (await fetch(`${link}/pay`, { method: 'POST' })).json()).toMatchObject({ pack: 'pack25' });
    expect(await outbox(box, keyId, 'auto_topup')).toHaveLength(1);
    expect((await call('PUT', '/billing/auto-topup', { body: { enabled: false } })).body).toEqual({ enabled: false });
  });

  it('emails the low-balance notice at about a week of meter, and deducts the daily meter', async () => {
    const clock = new ManualClock();
    const key = 'csk_live_lowbalance_01';
    box = await sandbox({ keys: [`${key}:live:190000`], clock: clock.now });
    const call = client(box, key);
    const keyId = keyIdOf(box, key);
    await call('POST', '/frameworks/suggest', { body: { query: 'a' } }); // 170,000 > 7 × 22,222
    expect(await outbox(box, keyId, 'low_balance')).toHaveLength(0);
    await call('POST', '/frameworks/suggest', { body: { query: 'b' } }); // 150,000 < 155,554
    await call('POST', '/frameworks/suggest', { body: { query: 'c' } });
    const mails = await outbox(box, keyId, 'low_balance');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to).toContain('technical-contact');
    clock.advance(2 * 86_400_000);
    const billing = (await call('GET', '/billing')).body;
    expect(billing.balanceTokens).toBe(130_000 - 2 * 22_222);
    expect(billing.ledger[0]).toMatchObject({ operation: 'meter', tokens: -2 * 22_222 });
    expect(billing.meter.estimatedDaysRemaining).toBeCloseTo((130_000 - 2 * 22_222) / 22_222, 0);
  });
});

describe('refunds', () => {
  it('refunds a job that fails after admission', async () => {
    box = await sandbox({ faults: true });
    const call = client(box, LIVE_KEY);
    const job = await call('POST', '/documents/generate', { body: { framework: 'gdpr' }, headers: { 'x-sandbox-fault': 'job-fail' } });
    expect(job.status).toBe(202);
    expect((await call('GET', `/jobs/${job.body.jobId}`)).body.status).toBe('failed');
    const billing = (await call('GET', '/billing')).body;
    expect(billing.balanceTokens).toBe(5_000_000);
    expect(billing.ledger.map((e: { operation: string; tokens: number; reference: string }) => [e.operation, e.tokens, e.reference])).toEqual([
      ['refund', billing.prices.generateDocument, job.body.jobId],
      ['generateDocument', -billing.prices.generateDocument, job.body.jobId],
    ]);
  });
});

describe('calendar', () => {
  it('sets a cadence, gives the next review date and emails a reminder when it passes', async () => {
    const clock = new ManualClock(Date.UTC(2026, 0, 5, 9));
    box = await sandbox({ clock: clock.now });
    const call = client(box);
    expect((await call('GET', '/calendar')).body).toMatchObject({ cadence: 'none', nextReviewAt: null });
    const defaulted = await call('PUT', '/calendar', { body: { cadence: 'quarterly' } });
    expect(defaulted.body.nextReviewAt).toBe('2026-04-05T09:00:00.000Z');
    const set = await call('PUT', '/calendar', { body: { cadence: 'monthly', firstReviewAt: '2026-01-01T09:00:00Z' } });
    expect(set.body).toMatchObject({ cadence: 'monthly', firstReviewAt: '2026-01-01T09:00:00.000Z', nextReviewAt: '2026-02-01T09:00:00.000Z' });
    expect(await outbox(box, keyIdOf(box, SANDBOX_KEY), 'review_reminder')).toHaveLength(0);
    clock.advance(28 * 86_400_000);
    expect((await call('GET', '/calendar')).body.nextReviewAt).toBe('2026-03-01T09:00:00.000Z');
    const reminders = await outbox(box, keyIdOf(box, SANDBOX_KEY), 'review_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toContain('2026-02-01');
  });
});
