/**
 * Rate-limit pacing. Every response may carry `X-RateLimit-Limit` and `X-RateLimit-Remaining`
 * (requests per minute per key; the spec names these two) and, where the service sends it,
 * `X-RateLimit-Reset` (seconds until the window rolls over, or an epoch time). Once the remaining
 * allowance runs low, requests are spaced so it lasts until the window ends, instead of walking
 * into 429s. All calls of one client share one pacer, so concurrent calls queue behind each other.
 */
import type { RateLimitState } from './clientTypes.js';

export interface PacerOptions {
  /** Length of the service's rate window; the spec states a per-minute allowance. */
  windowMs?: number;
  /** Pacing starts when the estimated remaining allowance is at or below this share of the limit. */
  lowWaterFraction?: number;
}

function headerNumber(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const number = Number(value.split(',')[0]!.trim());
  return Number.isFinite(number) && number >= 0 ? number : undefined;
}

export class RateLimitPacer {
  readonly #windowMs: number;
  readonly #lowWaterFraction: number;
  #limit: number | undefined;
  #remaining: number | undefined;
  #observedAt: number | undefined;
  /** Estimated end of the current window (epoch ms). */
  #windowEnd: number | undefined;
  /** Requests released since the last observation: the headers do not count them yet. */
  #releasedSinceObservation = 0;
  /** When the last paced request was (or will be) released. */
  #lastReleaseAt = Number.NEGATIVE_INFINITY;

  constructor(options: PacerOptions = {}) {
    this.#windowMs = options.windowMs ?? 60_000;
    this.#lowWaterFraction = options.lowWaterFraction ?? 0.1;
  }

  get state(): RateLimitState {
    return { limit: this.#limit, remaining: this.#remaining, observedAt: this.#observedAt };
  }

  /** Records the headers of a response (any status). */
  observe(headers: Record<string, string>, nowMs: number): void {
    const limit = headerNumber(headers['x-ratelimit-limit']);
    const remaining = headerNumber(headers['x-ratelimit-remaining']);
    if (limit === undefined && remaining === undefined) return;
    const reset = headerNumber(headers['x-ratelimit-reset']);
    if (reset !== undefined) {
      // Large values are epoch times (seconds), small ones seconds from now.
      this.#windowEnd = reset > 1e9 ? reset * 1000 : nowMs + reset * 1000;
    } else if (
      this.#windowEnd === undefined ||
      nowMs >= this.#windowEnd ||
      (remaining !== undefined && this.#remaining !== undefined && remaining > this.#remaining)
    ) {
      // Without a reset header: a rising allowance means a new window began now.
      this.#windowEnd = nowMs + this.#windowMs;
    }
    if (limit !== undefined) this.#limit = limit;
    if (remaining !== undefined) this.#remaining = remaining;
    this.#observedAt = nowMs;
    this.#releasedSinceObservation = 0;
  }

  /**
   * Reserves a slot for one request and returns how long to wait before sending it (0 while the
   * allowance is comfortable or unknown).
   */
  reserve(nowMs: number): number {
    const limit = this.#limit;
    const remaining = this.#remaining;
    const windowEnd = this.#windowEnd;
    if (remaining === undefined || windowEnd === undefined) return 0;
    if (nowMs >= windowEnd) return 0; // the window the headers described is over
    const estimate = remaining - this.#releasedSinceObservation;
    this.#releasedSinceObservation++;
    const lowWater = Math.max(1, Math.ceil((limit ?? remaining) * this.#lowWaterFraction));
    if (estimate > lowWater) return 0;
    // Spread what is left evenly over the rest of the window; with nothing left, wait it out.
    const releaseAt =
      estimate <= 0
        ? Math.max(windowEnd, this.#lastReleaseAt)
        : Math.max(nowMs, this.#lastReleaseAt + (windowEnd - nowMs) / (estimate + 1));
    this.#lastReleaseAt = releaseAt;
    return Math.max(0, Math.ceil(releaseAt - nowMs));
  }
}
