/**
 * getBilling, checkout and auto-top-up read tolerantly (api/normalize/billing.ts): every name the
 * adapter accepts for a field is read on its own, and what it cannot read fails naming what it
 * looked for. Balances, prices and the meter decide what a run may spend, so a name dropped from a
 * list would turn a known balance into a refusal or a price into the table's default.
 */
import { describe, expect, it } from 'vitest';
import { normalizeAutoTopUp, normalizeBilling, normalizeCheckout } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const CONTEXT = { operationId: 'getBilling', input: {} };
const METER = { plan: 'platform', dailyFloorTokens: 10 };
const billing = (fields: Record<string, unknown>) => normalizeBilling({ balanceTokens: 1, meter: METER, ...fields }, CONTEXT);
const meterOf = (fields: Record<string, unknown>) => billing({ meter: fields }).meter;

describe('the billing view', () => {
  it.each(['balanceTokens', 'balance_tokens', 'tokenBalance', 'balance.tokens', 'balance', 'tokens', 'credits'])('reads the balance from %s', (name) => {
    expect(normalizeBilling({ ...at(name, 4_200), meter: METER }, CONTEXT).balanceTokens).toBe(4_200);
  });

  it.each(['meter', 'dailyMeter', 'daily_meter', 'keepAlive'])('reads the meter from %s', (name) => {
    expect(normalizeBilling({ balanceTokens: 1, [name]: { plan: 'api', dailyFloorTokens: 7 } }, CONTEXT).meter).toMatchObject({ plan: 'api', dailyFloorTokens: 7 });
  });

  it('without a meter, fails naming where it looked', () => {
    expect(() => normalizeBilling({ balanceTokens: 1 }, CONTEXT)).toThrowError(/no meter \(looked for meter, dailyMeter\)/);
  });

  it.each(['status', 'accountStatus', 'state'])('reads the account status from %s; read-only in any spelling, anything else active', (name) => {
    expect(billing({ [name]: 'Read-Only' }).status).toBe('read_only');
    expect(billing({ [name]: 'readonly' }).status).toBe('read_only');
    expect(billing({ [name]: 'suspended' }).status).toBe('active');
  });

  it('has no status when the answer gives none', () => {
    expect(billing({}).status).toBeUndefined();
  });

  it.each(['packs', 'creditPacks', 'credit_packs'])('reads the packs from %s', (name) => {
    expect(billing({ [name]: ['pack10'] }).packs).toEqual([{ code: 'pack10', priceUsd: 10, tokens: 3_300_000, bonusPercent: 0 }]);
  });

  it('reads a pack\'s code from code, id or pack, in any spelling, and drops what is not a pack', () => {
    const packs = billing({ packs: [{ code: 'pack_25' }, { id: 'Pack-50' }, { pack: '200' }, { code: 'pack7' }, 42, {}] }).packs;
    expect(packs.map((pack) => pack.code)).toEqual(['pack25', 'pack50', 'pack200']);
  });

  it.each([
    ['priceUsd', 'tokens', 'bonusPercent'],
    ['price_usd', 'credits', 'bonus_percent'],
    ['price', 'tokens', 'bonus'],
    ['usd', 'tokens', 'bonus'],
  ])('reads a pack\'s price from %s, tokens from %s and bonus from %s', (price, tokens, bonus) => {
    expect(billing({ packs: [{ code: 'pack10', [price]: 11, [tokens]: 12, [bonus]: 13 }] }).packs).toMatchObject([{ code: 'pack10', priceUsd: 11, tokens: 12, bonusPercent: 13 }]);
  });

  it.each(['prices', 'pricing', 'priceList'])('reads the prices from %s', (name) => {
    expect(billing({ [name]: { mapDocument: 250_000 } }).prices).toEqual({ mapDocument: 250_000 });
  });

  it.each(['operation', 'operationId', 'id', 'name', 'type'])('reads a listed price\'s operation from %s', (name) => {
    expect(billing({ prices: [{ [name]: 'mapDocument', tokens: 9 }] }).prices).toEqual({ mapDocument: 9 });
  });

  it.each(['tokens', 'price', 'cost', 'amount'])('reads a price\'s tokens from %s, listed or keyed', (name) => {
    expect(billing({ prices: [{ operation: 'mapDocument', [name]: 9 }] }).prices).toEqual({ mapDocument: 9 });
    expect(billing({ prices: { mapDocument: { [name]: 9 } } }).prices).toEqual({ mapDocument: 9 });
  });

  it('keeps only prices it can read', () => {
    expect(billing({ prices: [{ operation: 'a' }, { tokens: 3 }, 'x', { operation: 'b', tokens: '1,200' }] }).prices).toStrictEqual({ b: 1_200 });
    expect(billing({ prices: { a: 'n/a', b: 5 } }).prices).toStrictEqual({ b: 5 });
    expect(billing({ prices: 'free' }).prices).toEqual({});
  });

  it.each(['ledger', 'transactions', 'history', 'entries'])('reads the ledger from %s', (name) => {
    expect(billing({ [name]: [{ id: 'e1' }] }).ledger.map((entry) => entry.id)).toEqual(['e1']);
  });

  it('numbers ledger entries without an id, and defaults what an entry leaves out', () => {
    expect(billing({ ledger: ['junk', {}, {}] }).ledger).toEqual([{ id: '2', at: '', operation: '', tokens: 0 }, { id: '3', at: '', operation: '', tokens: 0 }]);
  });

  it.each([
    ['id', 'at', 'operation', 'tokens', 'balanceAfter', 'reference', 'description'],
    ['entryId', 'createdAt', 'operationId', 'amount', 'balance_after', 'ref', 'note'],
    ['reference', 'created_at', 'type', 'delta', 'balance', 'jobId', 'memo'],
    ['id', 'timestamp', 'kind', 'change', 'balance', 'documentId', 'memo'],
    ['id', 'date', 'description', 'tokens', 'balance', 'reference', 'description'],
    ['id', 'time', 'operation', 'tokens', 'balance', 'reference', 'description'],
  ])('reads a ledger entry from %s, %s, %s, %s, %s, %s, %s', (id, when, operation, tokens, balanceAfter, reference, description) => {
    const entry = billing({ ledger: [{ [id]: 'r1', [when]: '2026-01-01', [operation]: 'mapDocument', [tokens]: -5, [balanceAfter]: 95, [reference]: 'r1', [description]: 'mapDocument' }] }).ledger[0];
    expect(entry).toMatchObject({ id: 'r1', at: '2026-01-01', operation: 'mapDocument', tokens: -5, balanceAfter: 95, reference: 'r1', description: 'mapDocument' });
  });

  it.each(['autoTopUp', 'auto_topup', 'autoTopup'])('reads the auto-top-up setting from %s', (name) => {
    expect(billing({ [name]: { enabled: false } }).autoTopUp).toEqual({ enabled: false });
  });
});

describe('the meter', () => {
  it.each(['plan', 'planType', 'plan_type'])('reads the plan from %s: api, platform, or an error naming the field', (name) => {
    expect(meterOf({ [name]: 'API plan', dailyFloorTokens: 1 }).plan).toBe('api');
    expect(meterOf({ [name]: 'Platform', dailyFloorTokens: 1 }).plan).toBe('platform');
    expect(() => meterOf({ [name]: 'enterprise', dailyFloorTokens: 1 })).toThrowError(/no meter plan \(platform or api\) \(looked for plan, planType, plan_type\)/);
  });

  it.each(['dailyFloorTokens', 'daily_floor_tokens', 'dailyFloor', 'floorTokens', 'dailyMinimumTokens', 'keepAliveTokens'])('reads the daily floor from %s', (name) => {
    expect(meterOf({ plan: 'api', [name]: 33 }).dailyFloorTokens).toBe(33);
  });

  it('without a plan, fails naming where it looked', () => {
    expect(() => meterOf({ dailyFloorTokens: 1 })).toThrowError(/no meter plan \(platform or api\)/);
  });

  it('without a daily floor, fails naming where it looked', () => {
    expect(() => meterOf({ plan: 'api' })).toThrowError(/no meter daily floor \(looked for dailyFloorTokens, daily_floor_tokens, dailyFloor/);
  });

  it.each(['monthlyUsdEquivalent', 'monthly_usd_equivalent', 'monthlyUsd', 'usdPerMonth', 'monthlyEquivalentUsd'])('reads the monthly figure from %s, else US$2 on the API plan and US$20 on the platform', (name) => {
    expect(meterOf({ ...METER, [name]: 5 }).monthlyUsdEquivalent).toBe(5);
    expect(meterOf({ plan: 'api', dailyFloorTokens: 1 }).monthlyUsdEquivalent).toBe(2);
    expect(meterOf(METER).monthlyUsdEquivalent).toBe(20);
  });

  it.each([
    ['dailyRateTokens', 'storageBytes', 'estimatedDaysRemaining'],
    ['daily_rate_tokens', 'storage_bytes', 'estimated_days_remaining'],
    ['dailyRate', 'storage.bytes', 'daysRemaining'],
    ['tokensPerDay', 'bytesStored', 'daysLeft'],
    ['dailyTokens', 'storageFootprintBytes', 'runwayDays'],
  ])('reads the daily rate from %s, the storage from %s and the runway from %s', (rate, storage, days) => {
    expect(meterOf({ ...METER, [rate]: 1, ...at(storage, 2), [days]: 3 })).toMatchObject({ dailyRateTokens: 1, storageBytes: 2, estimatedDaysRemaining: 3 });
  });

  it('keeps a runway the service says is unknown (null) as null, and leaves out one it does not give', () => {
    expect(meterOf({ ...METER, estimatedDaysRemaining: null }).estimatedDaysRemaining).toBeNull();
    expect(meterOf(METER)).not.toHaveProperty('estimatedDaysRemaining');
  });
});

describe('auto-top-up', () => {
  const read = (raw: unknown) => normalizeAutoTopUp(raw, { operationId: 'getAutoTopUp', input: {} });

  it.each(['autoTopUp', 'auto_topup', 'autoTopup', 'setting'])('reads the setting inside %s, or the answer itself', (name) => {
    expect(read({ [name]: { enabled: true } })).toEqual({ enabled: true });
    expect(read({ enabled: true })).toEqual({ enabled: true });
  });

  it.each([
    ['enabled', 'thresholdTokens', 'pack'],
    ['active', 'threshold_tokens', 'packCode'],
    ['on', 'threshold', 'pack_code'],
    ['isEnabled', 'thresholdBalance', 'pack'],
  ])('reads the flag from %s, the threshold from %s and the pack from %s', (flag, threshold, pack) => {
    expect(read({ [flag]: 'yes', [threshold]: 100, [pack]: 'pack50' })).toMatchObject({ enabled: true, thresholdTokens: 100, pack: 'pack50' });
  });

  it('without a flag, fails naming where it looked', () => {
    expect(() => read({ threshold: 5 })).toThrowError(/no auto-top-up enabled flag \(looked for enabled, active, on\)/);
  });
});

describe('checkout', () => {
  const read = (raw: unknown, input: Record<string, unknown> = {}) => normalizeCheckout(raw, { operationId: 'createCheckout', input });

  it.each(['url', 'checkoutUrl', 'checkout_url', 'sessionUrl', 'paymentUrl', 'session.url'])('reads the payment link from %s', (name) => {
    expect(read({ ...at(name, 'https://pay.example/s'), pack: 'pack10' }).url).toBe('https://pay.example/s');
  });

  it.each(['sessionId', 'session_id', 'id', 'session.id'])('reads the session from %s, else leaves it empty', (name) => {
    expect(read({ url: 'u', pack: 'pack10', ...at(name, 's_1') }).sessionId).toBe('s_1');
    expect(read({ url: 'u', pack: 'pack10' }).sessionId).toBe('');
  });

  it('an answer that is not an object fails naming what was expected', () => {
    expect(() => normalizeBilling([], CONTEXT)).toThrowError(/no billing view \(looked for an object\)/);
    expect(() => normalizeAutoTopUp('on', CONTEXT)).toThrowError(/no auto-top-up setting \(looked for an object\)/);
    expect(() => read(null)).toThrowError(/no checkout \(looked for an object\)/);
    expect(() => normalizeCheckout({ url: 'u' }, { operationId: 'createCheckout' })).toThrowError(/no pack code/);
  });

  it('takes the pack from the answer, keeping its fields, else from what was asked; fails naming both without one', () => {
    expect(read({ url: 'u', pack: { code: 'pack25', priceUsd: 25 } }).pack).toEqual({ code: 'pack25', priceUsd: 25 });
    expect(read({ url: 'u' }, { pack: 'pack50' }).pack).toEqual({ code: 'pack50' });
    expect(() => read({ url: 'u' })).toThrowError(/no pack code \(looked for pack, pack\.code\)/);
    expect(() => read({ pack: 'pack10' })).toThrowError(/no checkout url \(looked for url, checkoutUrl, checkout_url, sessionUrl, paymentUrl, session\.url\)/);
  });
});
