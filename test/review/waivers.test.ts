/** Waivers (review/waivers.ts): which apply to a framework and a control, and until when. */
import { describe, expect, it } from 'vitest';
import { findWaiver, waiversFor, waiverState } from '../../review/waivers.js';

const waiver = (framework: string, control: string, expires = '2026-06-30') => ({ framework, control, reason: 'vendor', owner: 'alice', expires });

describe('waivers', () => {
  it('hold through their expiry day, counted from a date or a timestamp', () => {
    expect(waiverState(waiver('gdpr', 'Art. 32'), '2026-06-30T23:59:59Z')).toMatchObject({ expired: false, daysLeft: 1 });
    expect(waiverState(waiver('gdpr', 'Art. 32'), '2026-07-01T00:00:01Z')).toMatchObject({ expired: true, daysLeft: 0 });
  });

  it('apply to the framework by any of its names, whatever the case and spaces, and to no other', () => {
    const waivers = [waiver(' GDPR ', 'Art. 32'), waiver('hipaa-security', '164.308')];
    expect(waiversFor(waivers, [undefined, ' gdpr '])).toEqual([waivers[0]]);
    expect(waiversFor(waivers, ['soc-2'])).toEqual([]);
  });

  it('are found by control id whatever the case and spaces on either side', () => {
    const waivers = [waiver('gdpr', ' Art. 32 ')];
    expect(findWaiver(waivers, 'art. 32 ')).toBe(waivers[0]);
    expect(findWaiver(waivers, 'Art. 33')).toBeUndefined();
  });
});
