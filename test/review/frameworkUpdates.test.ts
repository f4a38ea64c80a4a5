/** review/frameworkUpdates.ts: slugs from compliance.yml's names, duplicates refused, updates since the last review. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertDistinctFrameworks, checkFrameworkUpdates, resolveFrameworkSlug } from '../../review/index.js';
import { apiClient, LIVE_KEY, sandbox } from '../sandbox/helpers.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import type { ComplianceApi } from '../../api/clientTypes.js';

const VERIFIED = [
  { slug: 'hipaa-security', name: '  HIPAA Security Rule ', verified: true },
  { slug: 'NIST-CSF-2', name: 'NIST Cybersecurity Framework 2.0', verified: true },
];

describe('resolveFrameworkSlug', () => {
  it('a verified framework by slug or name, in any case and with spaces around', () => {
    expect(resolveFrameworkSlug(' Hipaa-Security ', VERIFIED)).toBe('hipaa-security');
    expect(resolveFrameworkSlug('hipaa security rule', VERIFIED)).toBe('hipaa-security');
    expect(resolveFrameworkSlug('nist-csf-2', VERIFIED)).toBe('NIST-CSF-2');
  });

  it('else the value itself when slug-shaped (trimmed), else its slugified form', () => {
    expect(resolveFrameworkSlug(' Custom_Framework.v2 ', VERIFIED)).toBe('Custom_Framework.v2');
    expect(resolveFrameworkSlug('My Own Framework!', VERIFIED)).toBe('my-own-framework');
    expect(resolveFrameworkSlug('pci-dss-4', [])).toBe('pci-dss-4');
  });
});

describe('assertDistinctFrameworks', () => {
  it('refuses a framework listed twice under its name and its slug, naming both entries', () => {
    expect(() => assertDistinctFrameworks([{ framework: 'soc-2' }, { framework: 'HIPAA Security Rule' }, { framework: 'hipaa-security' }], VERIFIED)).toThrow(
      expect.objectContaining({
        code: 'invalid_config',
        message: 'frameworks[2] "hipaa-security" is the same framework as frameworks[1] "HIPAA Security Rule" (hipaa-security): it would be mapped and charged twice',
        hint: 'List each framework once in compliance.yml (or in the framework input).',
      }),
    );
  });

  it('accepts distinct frameworks', () => {
    expect(() => assertDistinctFrameworks([{ framework: 'soc-2' }, { framework: 'HIPAA Security Rule' }, { framework: 'nist-csf-2' }], VERIFIED)).not.toThrow();
  });
});

describe('checkFrameworkUpdates against the sandbox', () => {
  let box: RunningSandbox;
  beforeAll(async () => {
    box = await sandbox();
  });
  afterAll(async () => {
    await box?.close();
  });

  it('per framework once: the updates after the date, newest first, and the newest of all; an unknown one carries its error', async () => {
    const results = await checkFrameworkUpdates(apiClient(box, LIVE_KEY), ['nist-csf-2', 'no-such-framework', 'nist-csf-2'], '2023-08-08');
    expect(results.map((entry) => entry.slug)).toEqual(['nist-csf-2', 'no-such-framework']);
    const [nist, unknown] = results;
    expect(nist).toMatchObject({ name: expect.stringContaining('NIST'), latestUpdate: '2024-02-26' });
    expect(nist?.updates.map((update) => update.date)).toEqual(['2024-02-26']);
    expect(nist?.error).toBeUndefined();
    expect(unknown).toMatchObject({ name: undefined, updates: [], latestUpdate: undefined, error: { code: expect.stringMatching(/not_found/), message: expect.stringMatching(/\S/) } });
  });

  it('without a date every update counts, newest first', async () => {
    const [nist] = await checkFrameworkUpdates(apiClient(box, LIVE_KEY), ['nist-csf-2'], undefined);
    expect(nist?.updates.map((update) => update.date)).toEqual(['2024-02-26', '2023-08-08', '2018-04-16', '2014-02-12']);
  });

  it('a cancelled check stops with the cancellation, never as a framework that could not be read', async () => {
    const cancelled = checkFrameworkUpdates(apiClient(box, LIVE_KEY), ['nist-csf-2'], undefined, { signal: AbortSignal.abort() });
    await expect(cancelled).rejects.toMatchObject({ name: 'ComplianceError', code: 'aborted' });
  });
});

describe('checkFrameworkUpdates: what the service cannot be made to send', () => {
  const answering = (getFramework: ComplianceApi['getFramework']) => ({ getFramework }) as unknown as ComplianceApi;

  it('compares updates by day, even when the service dates them to the second', async () => {
    const client = answering(async () => ({ slug: 'x', name: 'X', updates: [{ date: '2023-08-08T12:00:00Z', title: 'Same day' }, { date: '2023-08-09T00:00:00Z', title: 'Next day' }] }) as never);
    const [entry] = await checkFrameworkUpdates(client, ['x'], '2023-08-08');
    expect(entry?.updates.map((update) => update.title)).toEqual(['Next day']);
    expect(entry?.latestUpdate).toBe('2023-08-09');
  });

  it('an error that is not the service\'s is thrown as it is', async () => {
    const client = answering(async () => {
      throw new TypeError('socket hang-up handler failed');
    });
    await expect(checkFrameworkUpdates(client, ['x'], undefined)).rejects.toThrow('socket hang-up handler failed');
  });
});
