/**
 * API keys: parsing `--key KEY[:live[:BALANCE[:PLAN]]]`, issuing keys with the vendor prefix, and
 * hashing. Only the SHA-256 hash of a key is stored or compared; the key itself is never kept.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { KeyMode } from '../../api/schemas/common.js';

export type Plan = 'platform' | 'api';

export interface KeySpec {
  key: string;
  mode: KeyMode;
  /** Opening balance of a live key (tokens); ignored for sandbox keys. */
  balance: number;
  plan: Plan;
}

const KEY_PREFIX = { sandbox: 'csk_sandbox_', live: 'csk_live_' } as const;
/** A live key given without a balance opens with this many tokens (about one pack10). */
const DEFAULT_LIVE_BALANCE = 3_300_000;
const KEY_PATTERN = /^[A-Za-z0-9_.~-]{8,256}$/;

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** A short public handle of a key (from its hash): names the account in the outbox and /ping. */
export function keyIdOf(keyHash: string): string {
  return `key_${keyHash.slice(0, 12)}`;
}

export function issueKey(mode: KeyMode): string {
  return KEY_PREFIX[mode] + randomBytes(24).toString('base64url').replace(/[-_]/g, 'x');
}

/** Parses one `--key` value; errors never repeat the key. */
export function parseKeySpec(spec: string): KeySpec {
  const [key = '', mode = 'sandbox', balance, plan = 'api', ...rest] = spec.split(':');
  if (!KEY_PATTERN.test(key)) {
    throw new Error('--key: a key is 8 to 256 characters of letters, digits and _ . ~ -');
  }
  if (mode !== 'sandbox' && mode !== 'live') throw new Error(`--key: mode must be sandbox or live (got ${JSON.stringify(mode)})`);
  if (plan !== 'api' && plan !== 'platform') throw new Error(`--key: plan must be api or platform (got ${JSON.stringify(plan)})`);
  if (rest.length > 0) throw new Error('--key: expected KEY[:live[:BALANCE[:PLAN]]]');
  let tokens = mode === 'live' ? DEFAULT_LIVE_BALANCE : 0;
  if (balance !== undefined && balance !== '') {
    if (!/^\d+$/.test(balance)) throw new Error(`--key: BALANCE must be a whole number of tokens (got ${JSON.stringify(balance)})`);
    tokens = Number(balance);
  }
  return { key, mode, balance: mode === 'live' ? tokens : 0, plan };
}
