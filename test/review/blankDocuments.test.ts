/**
 * A document with no letter or digit of any script is refused uncharged by the review loop's mapping
 * (issue 37.5): one of its own, or a policy set of nothing else, is refused before anything is sent;
 * in a set with real text it is carried along (the set costs one mapping either way). The real client
 * against the sandbox in-process, a live key with a balance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runMapping } from '../../review/mapping.js';
import { ReviewError } from '../../review/errors.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { apiClient, failure, LIVE_KEY, liveBalance, policyText, sandbox } from '../sandbox/helpers.js';

const BLANK = [
  { path: 'policies/braille.md', content: '\u2800'.repeat(300) },
  { path: 'policies/marks.md', content: '---\ntitle: Only front matter\n---\n' + '\u0301'.repeat(300) },
  { path: 'policies/notehead.md', content: '\u{1D159}\n' },
];
const REAL = { path: 'policies/access.md', content: policyText('blank documents') };

let box: RunningSandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(async () => {
  await box?.close();
});

const balance = () => liveBalance(box);

describe('blank documents in the review loop\u2019s mapping', () => {
  it.each(['combined', 'per-document'] as const)('are refused before anything is sent (%s), naming each file', async (mode) => {
    const before = await balance();
    const error = await failure<ReviewError>(runMapping(apiClient(box, LIVE_KEY), { framework: 'hipaa-security', files: BLANK, mode }));
    expect(error).toBeInstanceOf(ReviewError);
    expect(error.code).toBe('empty_document');
    for (const file of BLANK) expect(error.message).toContain(file.path);
    expect(error.message).toContain('no letter or digit');
    expect(await balance()).toBe(before);
  });

  it('refuses a per-document run holding one blank document before mapping the others', async () => {
    const before = await balance();
    const error = await failure<ReviewError>(runMapping(apiClient(box, LIVE_KEY), { framework: 'hipaa-security', files: [REAL, BLANK[0]!], mode: 'per-document' }));
    expect(error.code).toBe('empty_document');
    expect(error.message).not.toContain(REAL.path);
    expect(await balance()).toBe(before);
  });

  it('maps a policy set holding real text once, blank documents and all', async () => {
    const before = await balance();
    const run = await runMapping(apiClient(box, LIVE_KEY), { framework: 'hipaa-security', files: [REAL, ...BLANK], mode: 'combined' });
    expect(run.reports).toHaveLength(1);
    expect(before - (await balance())).toBe(250_000);
  });
});
