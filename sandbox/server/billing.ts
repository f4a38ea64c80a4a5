/**
 * Prepaid tokens for live keys: prices, charges and refunds with a ledger, the read-only state at
 * zero, the daily keep-alive meter, checkout sessions, and the balance notices (low balance at about
 * a week of meter, auto-top-up link once per dip). Sandbox keys are never charged.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';
import { Statements } from '../sqlite.js';
import { operations, type OperationId } from '../../api/operations.js';
import { PACKS, PACK_CODES, type PackCode } from '../../api/schemas/common.js';
import type { Account, AccountStore } from './accounts.js';
import { HttpError } from './httpError.js';
import type { Plan } from './keys.js';
import type { Outbox } from './outbox.js';

/** The sandbox's prices for the operations the spec leaves to `/billing` (tokens per call). */
const LISTED_PRICES: Partial<Record<OperationId, number>> = {
  suggestFrameworks: 20_000,
  generateDocument: 150_000,
  mapDocument: 250_000,
};

/** Tokens per call of every priced operation, from the table's fixed prices and the listed ones. */
export const PRICES: Readonly<Record<string, number>> = Object.fromEntries(
  Object.values(operations).flatMap((op) => {
    if (op.cost.kind === 'fixed') return [[op.id, op.cost.tokens]];
    if (op.cost.kind === 'listed') {
      const tokens = LISTED_PRICES[op.id as OperationId];
      if (tokens === undefined) throw new Error(`no sandbox price for ${op.id}`);
      return [[op.id, tokens]];
    }
    return [];
  }),
);

export const METER = {
  dailyFloorTokens: { platform: 222_222, api: 22_222 } satisfies Record<Plan, number>,
  includedStorageBytes: 1024 ** 3,
  storageTokensPerGbDay: 33_333,
  /** US$ per token: 1,000,000 tokens is about US$3 (pack10: US$10 for 3.3M). */
  usdPerToken: 3e-6,
  lowBalanceDays: 7,
} as const;

const DAY_MS = 86_400_000;

export const packList = PACK_CODES.map((code) => ({ code, ...PACKS[code] }));

interface LedgerEntry {
  id: string;
  at: string;
  operation: string;
  tokens: number;
  balanceAfter: number;
  reference?: string;
  description?: string;
}

export class Billing {
  private readonly sql: Statements;

  constructor(
    db: DatabaseSync,
    private readonly accounts: AccountStore,
    private readonly outbox: Outbox,
    /** Bytes of library content a key stores (for the storage part of the meter). */
    private readonly storageBytes: (keyHash: string) => number,
    private readonly checkoutUrl: (sessionId: string) => string,
  ) {
    this.sql = new Statements(db);
  }

  priceOf(operationId: string): number {
    return PRICES[operationId] ?? 0;
  }

  dailyRate(account: Account): number {
    const excessBytes = Math.max(0, this.storageBytes(account.keyHash) - METER.includedStorageBytes);
    return METER.dailyFloorTokens[account.plan] + Math.ceil((excessBytes / 1024 ** 3) * METER.storageTokensPerGbDay);
  }

  isReadOnly(account: Account): boolean {
    return account.mode === 'live' && account.balance <= 0;
  }

  /**
   * Refuses a write on a paused account, and a charged call the balance cannot cover; nothing is
   * charged either way.
   */
  assertCanSpend(account: Account, operationId: string): void {
    if (account.mode !== 'live') return;
    if (account.balance <= 0) {
      throw new HttpError(
        402,
        'account_read_only',
        'The balance is zero: the account is read-only until it is topped up. Nothing was charged.',
        'Buy a credit pack with POST /billing/checkout; reads and GET /billing stay open.',
      );
    }
    const price = this.priceOf(operationId);
    if (price > account.balance) {
      throw new HttpError(
        402,
        'insufficient_balance',
        `${operationId} costs ${price.toLocaleString('en-US')} tokens; the balance is ${account.balance.toLocaleString('en-US')}. Nothing was charged.`,
        'Buy a credit pack with POST /billing/checkout, or enable auto-top-up.',
        { details: { priceTokens: price, balanceTokens: account.balance } },
      );
    }
  }

  /** Charges a live key for an admitted call (call inside the request's transaction). Returns tokens charged. */
  charge(account: Account, operationId: string, reference: string, now: number): number {
    if (account.mode !== 'live') return 0;
    const price = this.priceOf(operationId);
    if (price === 0) return 0;
    this.assertCanSpend(account, operationId);
    this.move(account.keyHash, -price, operationId, now, reference, `${operations[operationId as OperationId]?.summary ?? operationId}`);
    return price;
  }

  refund(keyHash: string, tokens: number, reference: string, reason: string, now: number): void {
    if (tokens <= 0) return;
    this.move(keyHash, tokens, 'refund', now, reference, reason);
  }

  credit(keyHash: string, tokens: number, operation: string, reference: string, description: string, now: number): void {
    this.move(keyHash, tokens, operation, now, reference, description);
  }

  meterDue(account: Account, now: number): boolean {
    return account.mode === 'live' && now - account.meterChargedThrough >= DAY_MS;
  }

  /** Deducts the daily meter for every whole day since it was last charged (live keys). */
  settleMeter(account: Account, now: number): void {
    if (account.mode !== 'live') return;
    const days = Math.floor((now - account.meterChargedThrough) / DAY_MS);
    if (days <= 0) return;
    const due = days * this.dailyRate(account);
    const taken = Math.min(due, Math.max(0, account.balance));
    this.accounts.setMeterChargedThrough(account.keyHash, account.meterChargedThrough + days * DAY_MS);
    if (taken > 0) {
      this.move(account.keyHash, -taken, 'meter', now, undefined, `Daily meter, ${days} day${days > 1 ? 's' : ''} (${account.plan} plan)`);
    }
  }

  createCheckoutSession(keyHash: string, pack: PackCode, now: number): { sessionId: string; url: string } {
    const sessionId = `cs_sandbox_${randomBytes(12).toString('hex')}`;
    this.sql.prepare('INSERT INTO sbx_checkout_sessions (id, key_hash, pack, created_at) VALUES (?, ?, ?, ?)').run(sessionId, keyHash, pack, now);
    return { sessionId, url: this.checkoutUrl(sessionId) };
  }

  checkoutSession(sessionId: string): { id: string; keyHash: string; pack: PackCode; paidAt: number | null } | undefined {
    const row = this.sql.prepare('SELECT * FROM sbx_checkout_sessions WHERE id = ?').get(sessionId) as
      | { id: string; key_hash: string; pack: string; paid_at: number | null }
      | undefined;
    return row ? { id: row.id, keyHash: row.key_hash, pack: row.pack as PackCode, paidAt: row.paid_at } : undefined;
  }

  /** Completes a payment: credits the pack once (a second payment of the same session is refused). */
  pay(sessionId: string, now: number): { pack: PackCode; tokens: number; balanceTokens: number } {
    const session = this.checkoutSession(sessionId);
    if (!session) throw new HttpError(404, 'checkout_not_found', 'No such checkout session.', 'Create one with POST /billing/checkout.');
    if (session.paidAt !== null) {
      throw new HttpError(409, 'already_paid', 'This checkout session is already paid.', 'Create a new session to buy another pack.');
    }
    this.sql.prepare('UPDATE sbx_checkout_sessions SET paid_at = ? WHERE id = ?').run(now, sessionId);
    const { tokens, priceUsd } = PACKS[session.pack];
    this.credit(session.keyHash, tokens, 'topup', sessionId, `Credit pack ${session.pack} (US$${priceUsd})`, now);
    return { pack: session.pack, tokens, balanceTokens: this.accounts.byHash(session.keyHash)!.balance };
  }

  ledger(keyHash: string, limit = 50): LedgerEntry[] {
    const rows = this.sql.prepare('SELECT * FROM sbx_ledger WHERE key_hash = ? ORDER BY seq DESC LIMIT ?')
      .all(keyHash, limit) as Array<Record<string, string | number | null>>;
    return rows.map((row) => ({
      id: String(row.id),
      at: new Date(Number(row.at)).toISOString(),
      operation: String(row.operation),
      tokens: Number(row.tokens),
      balanceAfter: Number(row.balance_after),
      ...(row.reference === null ? {} : { reference: String(row.reference) }),
      ...(row.description === null ? {} : { description: String(row.description) }),
    }));
  }

  meterView(account: Account) {
    const dailyRateTokens = this.dailyRate(account);
    return {
      plan: account.plan,
      dailyFloorTokens: METER.dailyFloorTokens[account.plan],
      monthlyUsdEquivalent: Math.round(METER.dailyFloorTokens[account.plan] * 30 * METER.usdPerToken * 100) / 100,
      dailyRateTokens,
      storageBytes: this.storageBytes(account.keyHash),
      includedStorageBytes: METER.includedStorageBytes,
      storageTokensPerGbDay: METER.storageTokensPerGbDay,
      // Sandbox keys are never metered: nothing runs out.
      estimatedDaysRemaining: account.mode === 'live' ? Math.floor((Math.max(0, account.balance) / dailyRateTokens) * 10) / 10 : null,
    };
  }

  autoTopUpView(account: Account) {
    return {
      enabled: account.autoTopUp.enabled,
      ...(account.autoTopUp.thresholdTokens === null ? {} : { thresholdTokens: account.autoTopUp.thresholdTokens }),
      ...(account.autoTopUp.pack === null ? {} : { pack: account.autoTopUp.pack }),
    };
  }

  /**
   * Sends the balance notices a change calls for, each once per dip: the low-balance email when
   * about a week of meter remains, and the auto-top-up checkout link below the threshold. A notice
   * re-arms when the balance climbs back above its line.
   */
  evaluateNotices(keyHash: string, now: number): void {
    const account = this.accounts.byHash(keyHash);
    if (!account || account.mode !== 'live') return;
    const rate = this.dailyRate(account);
    const lowLine = METER.lowBalanceDays * rate;
    let lowBalanceNotified = account.lowBalanceNotified;
    if (account.balance < lowLine && !lowBalanceNotified) {
      lowBalanceNotified = true;
      const days = Math.floor((Math.max(0, account.balance) / rate) * 10) / 10;
      this.outbox.send({
        keyId: account.keyId,
        kind: 'low_balance',
        at: now,
        subject: `Low balance: about ${days} days of meter left`,
        body:
          `Your balance is ${account.balance.toLocaleString('en-US')} tokens, about ${days} days at the current daily rate of ` +
          `${rate.toLocaleString('en-US')} tokens. At zero the account becomes read-only (nothing is deleted). ` +
          'Top up with POST /billing/checkout or enable auto-top-up.',
      });
    } else if (account.balance >= lowLine) {
      lowBalanceNotified = false;
    }
    const setting = account.autoTopUp;
    let autoTopUpNotified = setting.notified;
    if (setting.enabled && setting.thresholdTokens !== null && setting.pack !== null) {
      if (account.balance < setting.thresholdTokens && !autoTopUpNotified) {
        autoTopUpNotified = true;
        const { url } = this.createCheckoutSession(keyHash, setting.pack, now);
        const pack = PACKS[setting.pack];
        this.outbox.send({
          keyId: account.keyId,
          kind: 'auto_topup',
          at: now,
          subject: `Auto-top-up: your balance fell below ${setting.thresholdTokens.toLocaleString('en-US')} tokens`,
          body:
            `Your balance is ${account.balance.toLocaleString('en-US')} tokens. Complete this prefilled checkout for ${setting.pack} ` +
            `(US$${pack.priceUsd}, ${pack.tokens.toLocaleString('en-US')} tokens): ${url}`,
        });
      } else if (account.balance >= setting.thresholdTokens) {
        autoTopUpNotified = false;
      }
    }
    if (lowBalanceNotified !== account.lowBalanceNotified || autoTopUpNotified !== setting.notified) {
      this.accounts.setNotices(keyHash, { lowBalanceNotified, autoTopUpNotified });
    }
  }

  private move(keyHash: string, tokens: number, operation: string, now: number, reference: string | undefined, description: string): void {
    const account = this.accounts.byHash(keyHash);
    if (!account) throw new Error('unknown account');
    const balanceAfter = account.balance + tokens;
    this.accounts.setBalance(keyHash, balanceAfter);
    const seq = (this.sql.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS next FROM sbx_ledger').get() as { next: number }).next;
    this.sql.prepare('INSERT INTO sbx_ledger (id, seq, key_hash, at, operation, tokens, balance_after, reference, description) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(`led_${randomUUID()}`, seq, keyHash, now, operation, tokens, balanceAfter, reference ?? null, description);
    this.evaluateNotices(keyHash, now);
  }
}
