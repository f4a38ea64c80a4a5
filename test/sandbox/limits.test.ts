/** Rate limit, generation quotas, the in-flight rule and the bad-key block. */
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { client, envelope, ManualClock, sandbox, SANDBOX_KEY, OTHER_KEY } from './helpers.js';

let box: RunningSandbox | undefined;
afterEach(async () => {
  await box?.close();
  box = undefined;
});

describe('rate limit', () => {
  it('reports X-RateLimit headers and answers 429 rate_limited with Retry-After once the minute is used', async () => {
    const clock = new ManualClock();
    box = await sandbox({ rateLimitPerMinute: 3, clock: clock.now });
    const call = client(box);
    const first = await call('GET', '/ping');
    expect(first.headers.get('x-ratelimit-limit')).toBe('3');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('2');
    await call('GET', '/ping');
    // Errors after authentication carry the headers too.
    const third = await call('GET', '/jobs/not-a-uuid');
    expect(third.status).toBe(400);
    expect(third.headers.get('x-ratelimit-remaining')).toBe('0');
    clock.advance(48_000);
    const limited = await call('GET', '/ping');
    const error = envelope(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('12');
    expect(error.hint).toContain('retry in 12 s');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another key has its own allowance.
    expect((await call('GET', '/ping', { key: OTHER_KEY })).status).toBe(200);
    clock.advance(12_000);
    expect((await call('GET', '/ping')).headers.get('x-ratelimit-remaining')).toBe('2');
  });
});

describe('generation rules', () => {
  it('allows one generation in flight per key: 409 job_already_running', async () => {
    const clock = new ManualClock();
    box = await sandbox({ jobSeconds: 10, clock: clock.now });
    const call = client(box);
    const first = await call('POST', '/documents/generate', { body: { framework: 'gdpr' } });
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('queued');
    envelope(await call('POST', '/documents/generate', { body: { framework: 'gdpr' } }), 409, 'job_already_running');
    // Another key is not affected.
    expect((await call('POST', '/documents/generate', { key: OTHER_KEY, body: { framework: 'gdpr' } })).status).toBe(202);
    clock.advance(10_000);
    expect((await call('POST', '/documents/generate', { body: { framework: 'gdpr' } })).status).toBe(202);
  });

  it('enforces the daily and 30-day quotas with 429 quota_exceeded and shows them in /usage', async () => {
    const clock = new ManualClock();
    box = await sandbox({ generationsPerDay: 2, generationsPer30Days: 3, clock: clock.now });
    const call = client(box);
    for (let i = 0; i < 2; i++) expect((await call('POST', '/documents/generate', { body: { framework: 'gdpr' } })).status).toBe(202);
    const daily = await call('POST', '/documents/generate', { body: { framework: 'gdpr' } });
    envelope(daily, 429, 'quota_exceeded');
    expect(daily.headers.get('retry-after')).toBe(String(24 * 3600));
    const usage = await call('GET', '/usage');
    expect(usage.body.generations.day).toEqual({ used: 2, limit: 2 });
    expect(usage.body.generations.thirtyDays).toEqual({ used: 2, limit: 3 });
    clock.advance(24 * 3600 * 1000);
    expect((await call('POST', '/documents/generate', { body: { framework: 'gdpr' } })).status).toBe(202);
    clock.advance(24 * 3600 * 1000);
    const monthly = await call('POST', '/documents/generate', { body: { framework: 'gdpr' } });
    expect(envelope(monthly, 429, 'quota_exceeded').message).toContain('30-day');
    const capabilities = await call('GET', '/capabilities');
    expect(capabilities.body.limits).toMatchObject({ generationsPerDay: 2, generationsPer30Days: 3, concurrentGenerations: 1 });
  });
});

describe('bad-key block', () => {
  it('refuses further bad keys from an address after repeated ones, until the block ends, while a valid key from it is served', async () => {
    const clock = new ManualClock();
    box = await sandbox({ badKeyThreshold: 3, badKeyWindowSeconds: 60, badKeyBlockSeconds: 300, clock: clock.now });
    const call = client(box);
    for (let i = 0; i < 3; i++) envelope(await call('GET', '/ping', { key: `csk_sandbox_wrong_${i}_xxxx` }), 401, 'invalid_api_key');
    const blocked = await call('GET', '/ping', { key: 'csk_sandbox_wrong_3_xxxx' });
    const error = envelope(blocked, 429, 'auth_blocked');
    expect(blocked.headers.get('retry-after')).toBe('300');
    expect(error.hint).toContain('retry in 300 s');
    // The address's valid key is served during the block, and public endpoints stay open.
    expect((await call('GET', '/ping', { key: SANDBOX_KEY })).status).toBe(200);
    expect((await call('GET', '/', { key: null })).status).toBe(200);
    clock.advance(299_000);
    envelope(await call('GET', '/ping', { key: 'csk_sandbox_wrong_4_xxxx' }), 429, 'auth_blocked');
    clock.advance(1_000);
    envelope(await call('GET', '/ping', { key: 'csk_sandbox_wrong_5_xxxx' }), 401, 'invalid_api_key');
  });

  it('does not block for failures spread beyond the window', async () => {
    const clock = new ManualClock();
    box = await sandbox({ badKeyThreshold: 2, badKeyWindowSeconds: 60, clock: clock.now });
    const call = client(box);
    envelope(await call('GET', '/ping', { key: 'csk_sandbox_wrong_key_1' }), 401, 'invalid_api_key');
    clock.advance(61_000);
    envelope(await call('GET', '/ping', { key: 'csk_sandbox_wrong_key_2' }), 401, 'invalid_api_key');
    expect((await call('GET', '/ping', { key: SANDBOX_KEY })).status).toBe(200);
  });
});
