/** Billing: balance, prices, packs, ledger, the daily meter, auto-top-up and checkout. */
import type { z } from 'zod/v4/mini';
import type { autoTopUp, billing, checkout, ledgerEntry, meter } from '../schemas/responses.js';
import { PACKS, PACK_CODES, type PackCode } from '../schemas/common.js';
import {
  type JsonObject,
  type NormalizeContext,
  defined,
  isRecord,
  objectOf,
  pickArray,
  pickBoolean,
  pickMode,
  pickNumber,
  pickRecord,
  pickText,
  token,
  toNumber,
  unexpected,
} from './read.js';

type BillingModel = z.output<typeof billing>;
type MeterModel = z.output<typeof meter>;
type AutoTopUpModel = z.output<typeof autoTopUp>;
type CheckoutModel = z.output<typeof checkout>;
type LedgerEntryModel = z.output<typeof ledgerEntry>;

function packCode(value: unknown): PackCode | undefined {
  const text = isRecord(value) ? pickText(value, ['code', 'id', 'pack']) : typeof value === 'string' ? value : undefined;
  if (text === undefined) return undefined;
  const code = token(text).replace(/^pack_?/, 'pack').replace(/^(\d+)$/, 'pack$1');
  return (PACK_CODES as readonly string[]).includes(code) ? (code as PackCode) : undefined;
}

/** Prices as a record `{operationId: tokens}`, from a record or a list of `{operation, tokens}`. */
export function pricesOf(value: unknown): Record<string, number> {
  if (Array.isArray(value)) {
    return Object.fromEntries(
      value.filter(isRecord).flatMap((item) => {
        const operation = pickText(item, ['operation', 'operationId', 'id', 'name', 'type']);
        const tokens = pickNumber(item, ['tokens', 'price', 'cost', 'amount']);
        return operation !== undefined && tokens !== undefined ? [[operation, tokens]] : [];
      }),
    );
  }
  if (!isRecord(value)) return {};
  return Object.fromEntries(
    Object.entries(value).flatMap(([operation, price]) => {
      const tokens = isRecord(price) ? pickNumber(price, ['tokens', 'price', 'cost', 'amount']) : toNumber(price);
      return tokens === undefined ? [] : [[operation, tokens]];
    }),
  );
}

const METER_NAMES = {
  plan: ['plan', 'planType', 'plan_type'],
  dailyFloorTokens: ['dailyFloorTokens', 'daily_floor_tokens', 'dailyFloor', 'floorTokens', 'dailyMinimumTokens', 'keepAliveTokens'],
  monthlyUsdEquivalent: ['monthlyUsdEquivalent', 'monthly_usd_equivalent', 'monthlyUsd', 'usdPerMonth', 'monthlyEquivalentUsd'],
} as const;

function normalizeMeter(raw: unknown, context: NormalizeContext): MeterModel {
  const object = objectOf(raw, context, 'meter');
  const planText = pickText(object, METER_NAMES.plan);
  const plan = planText === undefined ? undefined : token(planText).includes('api') ? 'api' : token(planText).includes('platform') ? 'platform' : undefined;
  if (plan === undefined) throw unexpected(context, 'meter plan (platform or api)', METER_NAMES.plan, object);
  const dailyFloorTokens = pickNumber(object, METER_NAMES.dailyFloorTokens);
  if (dailyFloorTokens === undefined) throw unexpected(context, 'meter daily floor', METER_NAMES.dailyFloorTokens, object);
  const days = object.estimatedDaysRemaining === null ? null : pickNumber(object, ['estimatedDaysRemaining', 'estimated_days_remaining', 'daysRemaining', 'daysLeft', 'runwayDays']);
  return defined({
    ...object,
    plan,
    dailyFloorTokens,
    // Spec: about US$20 a month on the platform plan, US$2 on the API plan.
    monthlyUsdEquivalent: pickNumber(object, METER_NAMES.monthlyUsdEquivalent) ?? (plan === 'api' ? 2 : 20),
    dailyRateTokens: pickNumber(object, ['dailyRateTokens', 'daily_rate_tokens', 'dailyRate', 'tokensPerDay', 'dailyTokens']),
    storageBytes: pickNumber(object, ['storageBytes', 'storage_bytes', 'storage.bytes', 'bytesStored', 'storageFootprintBytes']),
    estimatedDaysRemaining: days,
  }) as MeterModel;
}

function ledgerEntryOf(raw: unknown, index: number): LedgerEntryModel | undefined {
  if (!isRecord(raw)) return undefined;
  return defined({
    ...raw,
    id: pickText(raw, ['id', 'entryId', 'reference']) ?? String(index + 1),
    at: pickText(raw, ['at', 'createdAt', 'created_at', 'timestamp', 'date', 'time']) ?? '',
    operation: pickText(raw, ['operation', 'operationId', 'type', 'kind', 'description']) ?? '',
    tokens: pickNumber(raw, ['tokens', 'amount', 'delta', 'change']) ?? 0,
    balanceAfter: pickNumber(raw, ['balanceAfter', 'balance_after', 'balance']),
    reference: pickText(raw, ['reference', 'ref', 'jobId', 'documentId']),
    description: pickText(raw, ['description', 'note', 'memo']),
  }) as LedgerEntryModel;
}

export function normalizeAutoTopUp(raw: unknown, context: NormalizeContext): AutoTopUpModel {
  const outer = objectOf(raw, context, 'auto-top-up setting');
  const object = pickRecord(outer, ['autoTopUp', 'auto_topup', 'autoTopup', 'setting']) ?? outer;
  const enabled = pickBoolean(object, ['enabled', 'active', 'on', 'isEnabled']);
  if (enabled === undefined) throw unexpected(context, 'auto-top-up enabled flag', ['enabled', 'active', 'on'], object);
  return defined({
    ...object,
    enabled,
    thresholdTokens: pickNumber(object, ['thresholdTokens', 'threshold_tokens', 'threshold', 'thresholdBalance']),
    pack: packCode(object.pack ?? object.packCode ?? object.pack_code),
  }) as AutoTopUpModel;
}

const BALANCE_NAMES = ['balanceTokens', 'balance_tokens', 'tokenBalance', 'balance.tokens', 'balance', 'tokens', 'credits'];

export function normalizeBilling(raw: unknown, context: NormalizeContext): BillingModel {
  const object = objectOf(raw, context, 'billing view');
  const balanceTokens = pickNumber(object, BALANCE_NAMES);
  if (balanceTokens === undefined) throw unexpected(context, 'token balance', BALANCE_NAMES, object);
  const meterObject = pickRecord(object, ['meter', 'dailyMeter', 'daily_meter', 'keepAlive']);
  if (meterObject === undefined) throw unexpected(context, 'meter', ['meter', 'dailyMeter'], object);
  const statusText = pickText(object, ['status', 'accountStatus', 'state']);
  const status = statusText === undefined ? undefined : token(statusText).replace('readonly', 'read_only') === 'read_only' ? 'read_only' : 'active';
  const packs = (pickArray(object, ['packs', 'creditPacks', 'credit_packs']) ?? []).flatMap((item) => {
    const code = packCode(item);
    if (code === undefined) return [];
    const known = PACKS[code];
    const fields: JsonObject = isRecord(item) ? item : {};
    return [
      defined({
        ...fields,
        code,
        priceUsd: pickNumber(fields, ['priceUsd', 'price_usd', 'price', 'usd']) ?? known.priceUsd,
        tokens: pickNumber(fields, ['tokens', 'credits']) ?? known.tokens,
        bonusPercent: pickNumber(fields, ['bonusPercent', 'bonus_percent', 'bonus']) ?? known.bonusPercent,
      }),
    ];
  });
  const autoTopUpObject = pickRecord(object, ['autoTopUp', 'auto_topup', 'autoTopup']);
  return defined({
    ...object,
    mode: pickMode(object),
    balanceTokens,
    status,
    prices: pricesOf(object.prices ?? object.pricing ?? object.priceList),
    packs,
    ledger: (pickArray(object, ['ledger', 'transactions', 'history', 'entries']) ?? [])
      .map(ledgerEntryOf)
      .filter((entry): entry is LedgerEntryModel => entry !== undefined),
    meter: normalizeMeter(meterObject, context),
    autoTopUp: autoTopUpObject ? normalizeAutoTopUp(autoTopUpObject, context) : undefined,
  }) as BillingModel;
}

export function normalizeCheckout(raw: unknown, context: NormalizeContext): CheckoutModel {
  const object = objectOf(raw, context, 'checkout');
  const URL_NAMES = ['url', 'checkoutUrl', 'checkout_url', 'sessionUrl', 'paymentUrl', 'session.url'];
  const url = pickText(object, URL_NAMES);
  if (url === undefined) throw unexpected(context, 'checkout url', URL_NAMES, object);
  const code = packCode(object.pack) ?? packCode(context.input?.pack);
  if (code === undefined) throw unexpected(context, 'pack code', ['pack', 'pack.code'], object);
  return {
    ...object,
    url,
    sessionId: pickText(object, ['sessionId', 'session_id', 'id', 'session.id']) ?? '',
    pack: { ...(isRecord(object.pack) ? object.pack : {}), code },
  } as CheckoutModel;
}
