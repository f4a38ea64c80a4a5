/** One account per key hash: mode, plan, balance and the per-key settings (auto-top-up, calendar). */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { Statements } from '../sqlite.js';
import type { Cadence, KeyMode, PackCode } from '../../api/schemas/common.js';
import { hashKey, keyIdOf, type KeySpec, type Plan } from './keys.js';

export interface Account {
  keyHash: string;
  keyId: string;
  mode: KeyMode;
  plan: Plan;
  balance: number;
  createdAt: number;
  meterChargedThrough: number;
  lowBalanceNotified: boolean;
  autoTopUp: { enabled: boolean; thresholdTokens: number | null; pack: PackCode | null; notified: boolean };
  calendar: { cadence: Cadence; firstReviewAt: number | null; remindedThrough: number | null };
}

interface AccountRow {
  key_hash: string;
  key_id: string;
  mode: string;
  plan: string;
  balance: number;
  created_at: number;
  meter_charged_through: number;
  low_balance_notified: number;
  auto_topup_enabled: number;
  auto_topup_threshold: number | null;
  auto_topup_pack: string | null;
  auto_topup_notified: number;
  cadence: string;
  first_review_at: number | null;
  reminded_through: number | null;
}

function fromRow(row: AccountRow): Account {
  return {
    keyHash: row.key_hash,
    keyId: row.key_id,
    mode: row.mode as KeyMode,
    plan: row.plan as Plan,
    balance: row.balance,
    createdAt: row.created_at,
    meterChargedThrough: row.meter_charged_through,
    lowBalanceNotified: row.low_balance_notified === 1,
    autoTopUp: {
      enabled: row.auto_topup_enabled === 1,
      thresholdTokens: row.auto_topup_threshold,
      pack: row.auto_topup_pack as PackCode | null,
      notified: row.auto_topup_notified === 1,
    },
    calendar: { cadence: row.cadence as Cadence, firstReviewAt: row.first_review_at, remindedThrough: row.reminded_through },
  };
}

export class AccountStore {
  private readonly sql: Statements;
  private writes = 0;

  constructor(db: DatabaseSync) {
    this.sql = new Statements(db);
  }

  /**
   * Registers a key given at start. An existing account keeps its balance and settings (state
   * persists across restarts); switching its mode (the operator's switch) resets the balance.
   */
  register(spec: KeySpec, now: number): Account {
    const keyHash = hashKey(spec.key);
    const existing = this.byHash(keyHash);
    if (existing && existing.mode === spec.mode) return existing;
    if (existing) {
      this.write('UPDATE sbx_accounts SET mode = ?, plan = ?, balance = ?, meter_charged_through = ? WHERE key_hash = ?', spec.mode, spec.plan, spec.balance, now, keyHash);
    } else {
      this.write(
        'INSERT INTO sbx_accounts (key_hash, key_id, mode, plan, balance, created_at, meter_charged_through) VALUES (?, ?, ?, ?, ?, ?, ?)',
        keyHash, keyIdOf(keyHash), spec.mode, spec.plan, spec.balance, now, now,
      );
    }
    return this.byHash(keyHash)!;
  }

  /**
   * Counts the writes to any account (rolled-back ones too): a request holding an account read at
   * count N reads it again only when the count has moved since.
   */
  get writeCount(): number {
    return this.writes;
  }

  byHash(keyHash: string): Account | undefined {
    const row = this.sql.row<AccountRow>('SELECT * FROM sbx_accounts WHERE key_hash = ?', keyHash);
    return row ? fromRow(row) : undefined;
  }

  setBalance(keyHash: string, balance: number): void {
    this.write('UPDATE sbx_accounts SET balance = ? WHERE key_hash = ?', balance, keyHash);
  }

  setMeterChargedThrough(keyHash: string, at: number): void {
    this.write('UPDATE sbx_accounts SET meter_charged_through = ? WHERE key_hash = ?', at, keyHash);
  }

  setNotices(keyHash: string, notices: { lowBalanceNotified: boolean; autoTopUpNotified: boolean }): void {
    this.write('UPDATE sbx_accounts SET low_balance_notified = ?, auto_topup_notified = ? WHERE key_hash = ?', notices.lowBalanceNotified ? 1 : 0, notices.autoTopUpNotified ? 1 : 0, keyHash);
  }

  setAutoTopUp(keyHash: string, setting: { enabled: boolean; thresholdTokens: number | null; pack: PackCode | null }): void {
    this.write(
      'UPDATE sbx_accounts SET auto_topup_enabled = ?, auto_topup_threshold = ?, auto_topup_pack = ?, auto_topup_notified = 0 WHERE key_hash = ?',
      setting.enabled ? 1 : 0, setting.thresholdTokens, setting.pack, keyHash,
    );
  }

  setCalendar(keyHash: string, calendar: { cadence: Cadence; firstReviewAt: number | null; remindedThrough: number | null }): void {
    this.write('UPDATE sbx_accounts SET cadence = ?, first_review_at = ?, reminded_through = ? WHERE key_hash = ?', calendar.cadence, calendar.firstReviewAt, calendar.remindedThrough, keyHash);
  }

  setRemindedThrough(keyHash: string, at: number): void {
    this.write('UPDATE sbx_accounts SET reminded_through = ? WHERE key_hash = ?', at, keyHash);
  }

  private write(sql: string, ...params: SQLInputValue[]): void {
    this.writes++;
    this.sql.run(sql, ...params);
  }
}
