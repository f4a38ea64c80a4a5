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
