/**
 * Requests per minute per key, in fixed one-minute windows starting at a key's first request. A
 * refused request does not count. Kept in memory: a restart gives every key a fresh window.
 */
import { tooManyRequests } from './httpError.js';

interface RateLimitState {
  limit: number;
  remaining: number;
  resetMs: number;
}

const WINDOW_MS = 60_000;

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  /** Counts one request, or throws 429 `rate_limited` with the headers of the exhausted window. */
  consume(keyHash: string, limit: number, now: number): RateLimitState {
    let window = this.windows.get(keyHash);
    if (!window || now - window.start >= WINDOW_MS) {
      window = { start: now, count: 0 };
      this.windows.set(keyHash, window);
    }
    const resetMs = window.start + WINDOW_MS - now;
    if (window.count >= limit) {
      const error = tooManyRequests('rate_limited', `Rate limit of ${limit} requests per minute reached for this key.`, resetMs);
      Object.assign(error.headers, headersOf({ limit, remaining: 0, resetMs }));
      throw error;
    }
    window.count += 1;
    return { limit, remaining: limit - window.count, resetMs };
  }

  peek(keyHash: string, limit: number, now: number): { used: number; limit: number } {
    const window = this.windows.get(keyHash);
    return { used: window && now - window.start < WINDOW_MS ? window.count : 0, limit };
  }
}

export function headersOf(state: RateLimitState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(Math.max(0, Math.ceil(state.resetMs / 1000))),
  };
}
