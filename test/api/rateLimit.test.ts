/** Pacing from X-RateLimit-* headers: unit behaviour and through the client. */
import { afterEach, describe, expect, it } from 'vitest';
import { RateLimitPacer } from '../../api/rateLimit.js';
import { FakeTime, MockService, makeClient } from './helpers.js';

let service: MockService | undefined;
afterEach(async () => {
  await service?.close();
  service = undefined;
});

const limits = (limit: number, remaining: number) => ({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) });

describe('RateLimitPacer', () => {
  it('does not pace while the allowance is unknown or comfortable', () => {
    const pacer = new RateLimitPacer();
    expect(pacer.reserve(0)).toBe(0);
    pacer.observe(limits(60, 30), 0);
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.state).toEqual({ limit: 60, remaining: 30, observedAt: 0 });
  });

  it('spreads a low remaining allowance over the rest of the window', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 5), 0);
    // The first low request goes at once; the next waits 60 s / (4 left + 1) = 12 s, the one
    // after that a further 60 s / (3 + 1) = 15 s.
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(12_000);
    expect(pacer.reserve(0)).toBe(12_000 + 15_000);
  });

  it('waits for the window to roll over when nothing is left', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 0), 10_000);
    expect(pacer.reserve(25_000)).toBe(45_000);
    // Once the described window is over the pacer waits for fresh headers instead of guessing.
    expect(pacer.reserve(70_000)).toBe(0);
  });

  it('ends the window where X-RateLimit-Reset says, in seconds from now or as an epoch time', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe({ ...limits(100, 0), 'x-ratelimit-reset': '20' }, 5_000);
    expect(pacer.reserve(5_000)).toBe(20_000);
    const epoch = new RateLimitPacer({ windowMs: 60_000 });
    epoch.observe({ ...limits(100, 0), 'x-ratelimit-reset': '1800000030' }, 1_800_000_000_000);
    expect(epoch.reserve(1_800_000_000_000)).toBe(30_000);
  });

  it('keeps the window anchored where it began, not at the latest response', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 99), 0);
    // 50 s later the allowance is nearly spent: what is left lasts the 10 s to the window's end.
    pacer.observe(limits(100, 1), 50_000);
    expect(pacer.reserve(50_000)).toBe(0);
    expect(pacer.reserve(50_000)).toBe(10_000);
    // A rising allowance means a new window began.
    pacer.observe(limits(100, 99), 61_000);
    expect(pacer.reserve(61_000)).toBe(0);
  });

  it('fresh headers replace the estimate', () => {
    const pacer = new RateLimitPacer();
    pacer.observe(limits(100, 2), 0);
    pacer.reserve(0);
    pacer.observe(limits(100, 100), 1_000);
    expect(pacer.reserve(1_000)).toBe(0);
  });
});

describe('the client paces requests', () => {
  it('exposes the headers and sleeps before sending when the allowance runs low', async () => {
    service = new MockService()
      .reply(200, { mode: 'sandbox' }, limits(60, 3))
      .reply(200, { mode: 'sandbox' }, limits(60, 2))
      .reply(200, { mode: 'sandbox' }, limits(60, 1));
    const time = new FakeTime();
    const client = makeClient(service, time);
    expect(client.rateLimit).toEqual({ limit: undefined, remaining: undefined, observedAt: undefined });
    await client.getUsage();
    expect(client.rateLimit).toEqual({ limit: 60, remaining: 3, observedAt: time.now() });
    expect(time.sleeps).toEqual([]);
    await client.getUsage(); // remaining 3 ≤ low water (6): first paced request goes at once
    expect(time.sleeps).toEqual([]);
    await client.getUsage(); // remaining 2: the rest of the window (60 s) over 3 slots
    expect(time.sleeps).toEqual([20_000]);
    expect(client.rateLimit.remaining).toBe(1);
  });

  it('shares one pacer between concurrent calls', async () => {
    service = new MockService().reply(200, { mode: 'sandbox' }, limits(100, 1));
    for (let i = 0; i < 3; i++) service.reply(200, { mode: 'sandbox' }, limits(100, 0));
    const time = new FakeTime();
    const waiting: Array<{ ms: number; release: () => void }> = [];
    const client = makeClient(service, time, {
      sleep: (ms) => new Promise<void>((release) => waiting.push({ ms, release })),
    });
    await client.getUsage();
    const calls = Promise.all([client.getUsage(), client.getUsage(), client.getUsage()]);
    while (service.received.length < 2 || waiting.length < 2) await new Promise((resolve) => setImmediate(resolve));
    // One request was left: the first call takes it, the other two wait for the window to end.
    expect(waiting.map((entry) => entry.ms)).toEqual([60_000, 60_000]);
    expect(service.received).toHaveLength(2);
    for (const entry of waiting) entry.release();
    await calls;
    expect(service.received).toHaveLength(4);
  });

  it('can be turned off', async () => {
    service = new MockService().reply(200, { mode: 'sandbox' }, limits(100, 0)).reply(200, { mode: 'sandbox' }, limits(100, 0));
    const time = new FakeTime();
    const client = makeClient(service, time, { pacing: false });
    await client.getUsage();
    await client.getUsage();
    expect(time.sleeps).toEqual([]);
    expect(client.rateLimit.remaining).toBeUndefined();
  });
});

describe('RateLimitPacer reading the headers', () => {
  it('ignores blank, negative and unreadable values, and takes the first of repeated ones', () => {
    const pacer = new RateLimitPacer();
    pacer.observe({ 'x-ratelimit-limit': ' ', 'x-ratelimit-remaining': '-1' }, 0);
    expect(pacer.state).toEqual({ limit: undefined, remaining: undefined, observedAt: undefined });
    pacer.observe({ 'x-ratelimit-limit': 'many', 'x-ratelimit-remaining': '7, 9' }, 5);
    expect(pacer.state).toEqual({ limit: undefined, remaining: 7, observedAt: 5 });
  });

  it('takes a remaining allowance without a limit, pacing against it alone', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe({ 'x-ratelimit-remaining': '1' }, 0);
    expect(pacer.state).toEqual({ limit: undefined, remaining: 1, observedAt: 0 });
    // Low water is at least one request: the one left goes at once, the next waits out the window.
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(60_000);
  });

  it('keeps the last limit when a response names only the remaining allowance', () => {
    const pacer = new RateLimitPacer();
    pacer.observe(limits(100, 50), 0);
    pacer.observe({ 'x-ratelimit-remaining': '40' }, 1_000);
    expect(pacer.state).toEqual({ limit: 100, remaining: 40, observedAt: 1_000 });
    pacer.observe({ 'x-ratelimit-limit': '120' }, 2_000);
    expect(pacer.state).toEqual({ limit: 120, remaining: 40, observedAt: 2_000 });
  });

  it('does not pace on a limit alone: only a remaining allowance is spent', () => {
    const pacer = new RateLimitPacer();
    pacer.observe({ 'x-ratelimit-limit': '100' }, 0);
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(0);
  });

  it('reads a reset of exactly 1e9 as seconds from now, anything larger as an epoch time', () => {
    const seconds = new RateLimitPacer();
    seconds.observe({ ...limits(100, 0), 'x-ratelimit-reset': '1000000000' }, 5_000);
    expect(seconds.reserve(5_000)).toBe(1e12);
    const epoch = new RateLimitPacer();
    epoch.observe({ ...limits(100, 0), 'x-ratelimit-reset': '1000000001' }, 5_000);
    expect(epoch.reserve(5_000)).toBe(1_000_000_001_000 - 5_000);
  });
});

describe('RateLimitPacer windows without a reset header', () => {
  it('starts a new window when a response arrives exactly as the old one ends', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 50), 0);
    pacer.observe(limits(100, 0), 60_000);
    expect(pacer.reserve(60_000)).toBe(60_000);
  });

  it('a falling or equal allowance keeps the window; only a rising one starts a new one', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 5), 0);
    pacer.observe(limits(100, 5), 30_000);
    pacer.observe(limits(100, 0), 40_000);
    expect(pacer.reserve(40_000)).toBe(20_000);
  });

  it('a rising allowance without a limit header also starts a new window', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe({ 'x-ratelimit-remaining': '0' }, 0);
    pacer.observe({ 'x-ratelimit-remaining': '1' }, 30_000);
    expect(pacer.reserve(30_000)).toBe(0);
    expect(pacer.reserve(30_000)).toBe(60_000);
  });

  it('no longer paces from the moment the described window ends', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 0), 0);
    expect(pacer.reserve(59_999)).toBe(1);
    expect(pacer.reserve(60_000)).toBe(0);
  });
});

describe('RateLimitPacer low water', () => {
  it('starts pacing at the low-water share of the limit, not above it', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000, lowWaterFraction: 0.2 });
    pacer.observe(limits(10, 3), 0);
    // Low water 2: the third-last request goes at once, the second-last too (2 ≤ 2, first paced), the last spread.
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(30_000);
  });

  it('rounds the low water up, and the default share is a tenth', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(11, 2), 0);
    // A tenth of 11 rounds up to 2: pacing starts with the 2 left.
    expect(pacer.reserve(0)).toBe(0);
    expect(pacer.reserve(0)).toBe(30_000);
  });

  it('spreads from now, never earlier than the last paced release', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 3), 0);
    expect(pacer.reserve(0)).toBe(0);
    // 40 s later: 20 s left over the 2 + 1 slots, after a release at 0: at 40 s, as now.
    expect(pacer.reserve(40_000)).toBe(0);
    // Then 20 s over 1 + 1 slots after the release at 40 s: 10 s more.
    expect(pacer.reserve(40_000)).toBe(10_000);
  });

  it('forgets a release planned past the window once the window is over', () => {
    const pacer = new RateLimitPacer({ windowMs: 60_000 });
    pacer.observe(limits(100, 4), 0);
    // A burst spreads from each earlier release: the fourth is planned at 65 s, past the window's end.
    expect([pacer.reserve(0), pacer.reserve(0), pacer.reserve(0), pacer.reserve(0)]).toEqual([0, 15_000, 35_000, 65_000]);
    expect(pacer.reserve(60_000)).toBe(0);
  });

  it('waits whole milliseconds', () => {
    const pacer = new RateLimitPacer({ windowMs: 1_000 });
    pacer.observe(limits(100, 3), 0);
    pacer.reserve(0);
    // 1000 ms over 2 + 1 slots: 333.3… ms, waited as 334.
    expect(pacer.reserve(0)).toBe(334);
  });
});
