/**
 * Authentication: the key from `Authorization: Bearer` or `X-API-Key`, compared by hash. Repeated
 * bad keys from one address are blocked: `threshold` failures within the window block the address's
 * bad attempts for the block duration (defaults 10 in 60 s → 5 minutes), each answered 429
 * `auth_blocked` with Retry-After. The block stops the bad attempts, not the address: a valid key
 * from it is served all along, so a stranger sharing an address (on loopback, every client) cannot
 * lock out a key it does not hold. Error messages never repeat the key.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Account, AccountStore } from './accounts.js';
import { HttpError, tooManyRequests } from './httpError.js';
import { hashKey } from './keys.js';

interface BadKeyPolicy {
  threshold: number;
  windowMs: number;
  blockMs: number;
}

function presentedKey(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization?.trim();
  const headerKey = (Array.isArray(headers['x-api-key']) ? headers['x-api-key'][0] : headers['x-api-key'])?.trim();
  let bearer: string | undefined;
  if (authorization) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization);
    if (!match) {
      throw new HttpError(401, 'invalid_api_key', 'The Authorization header is not of the form "Bearer <API key>".', 'Send Authorization: Bearer <API key>, or X-API-Key: <API key>.');
    }
    bearer = match[1];
  }
  if (bearer && headerKey && bearer !== headerKey) {
    throw new HttpError(400, 'conflicting_api_keys', 'Authorization and X-API-Key carry different keys.', 'Send the key in one header only.');
  }
  return bearer ?? (headerKey || undefined);
}

export class Authenticator {
  private readonly failures = new Map<string, { attempts: number[]; blockedUntil: number }>();

  constructor(
    private readonly accounts: AccountStore,
    private readonly policy: BadKeyPolicy,
  ) {}

  authenticate(headers: IncomingHttpHeaders, address: string, now: number): Account {
    const key = presentedKey(headers);
    if (key === undefined) {
      throw new HttpError(401, 'missing_api_key', 'This endpoint needs an API key.', 'Send Authorization: Bearer <API key>, or X-API-Key: <API key>.');
    }
    const account = this.accounts.byHash(hashKey(key));
    if (account) return account;
    const entry = this.failures.get(address);
    if (entry && entry.blockedUntil > now) {
      throw tooManyRequests(
        'auth_blocked',
        'Too many requests with an invalid API key from this address: invalid keys from it are refused for a while (valid keys are still served).',
        entry.blockedUntil - now,
        'check the key you are sending',
      );
    }
    this.recordFailure(address, now);
    throw new HttpError(401, 'invalid_api_key', 'The API key is not valid.', 'Check the key (it may have been rotated or disabled); repeated bad keys from this address are refused for a while.');
  }

  private recordFailure(address: string, now: number): void {
    const entry = this.failures.get(address) ?? { attempts: [], blockedUntil: 0 };
    entry.attempts = entry.attempts.filter((at) => at > now - this.policy.windowMs);
    entry.attempts.push(now);
    if (entry.attempts.length >= this.policy.threshold) {
      entry.blockedUntil = now + this.policy.blockMs;
      entry.attempts = [];
    }
    this.failures.set(address, entry);
  }
}
