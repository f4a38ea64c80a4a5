import { describe, expect, it } from 'vitest';
import { SANDBOX_CLASSIFICATION_WATERMARK, SANDBOX_SUMMARY_PREFIX } from '../../sandbox/library/index.js';
import { loadPolicies } from '../fixtures/policies/corpus.js';
import { ingestReady, newLibrary } from './helpers.js';

const policies = new Map(loadPolicies().map((p) => [p.file, p]));
const policy = (file: string) => policies.get(file)!;

const PASSWORD_STANDARD = `# Password and Authentication Standard

Every user account has a unique user ID and is protected by a password of at least 14 characters. Multi-factor authentication is required for remote access and for administrative access to any system.

Passwords are stored in the approved password manager, never shared, and changed at once when compromise is suspected. Accounts lock after ten failed logins, and privileged accounts are reviewed in the monthly access review.`;

describe('classification', () => {
  it('keeps a given category and given tags, adding derived topic tags', () => {
    const { library } = newLibrary();
    const doc = ingestReady(library, 'k', { title: 'IR', content: policy('incident-response-plan.md').content, category: 'Security Operations', tags: ['Tier-1'] });
    expect(doc.category).toBe('Security Operations');
    expect(doc.classification).toMatchObject({ method: 'given', confidence: 1 });
    expect(doc.tags[0]).toBe('Tier-1');
    expect(doc.tags).toContain('incident-escalation');
  });

  it('places a document in the most similar category the caller already uses', () => {
    const { library } = newLibrary();
    ingestReady(library, 'k', { title: 'Access Control Policy', content: policy('access-control-policy.md').content, category: 'Identity & Access' });
    ingestReady(library, 'k', { title: 'Incident Response Plan', content: policy('incident-response-plan.md').content, category: 'SecOps' });
    const passwords = ingestReady(library, 'k', { title: 'Password Standard', content: PASSWORD_STANDARD });
    expect(passwords.category).toBe('Identity & Access');
    expect(passwords.classification?.method).toBe('existing');
    const vendors = ingestReady(library, 'k', { title: 'Vendors', content: policy('vendor-management-policy.md').content });
    expect(vendors.category).toBe('Vendor Management');
    expect(vendors.classification?.method).toBe('builtin');
  });

  it.each([
    ['business-continuity-plan.md', 'Business Continuity'],
    ['vendor-management-policy.md', 'Vendor Management'],
    ['risk-management-policy.md', 'Risk Management'],
    ['acceptable-use-policy.md', 'Acceptable Use'],
    ['access-control-policy.md', 'Access Control'],
  ])('classifies %s into the built-in %s when the caller has no categories', (file, category) => {
    const { library } = newLibrary();
    expect(ingestReady(library, 'k', { title: policy(file).title, content: policy(file).content }).category).toBe(category);
  });

  it('falls back to General for text with no compliance topic', () => {
    const { library } = newLibrary();
    const doc = ingestReady(library, 'k', { title: 'Minutes', content: 'The committee met on Tuesday to discuss the summer fair. '.repeat(6) });
    expect(doc).toMatchObject({ category: 'General', classification: { method: 'fallback' } });
  });

  it('writes an extractive summary of real sentences, watermarked only in sandbox mode', () => {
    const { library } = newLibrary();
    const content = policy('business-continuity-plan.md').content;
    const live = ingestReady(library, 'live-key', { title: 'BCP', content });
    const sandbox = ingestReady(library, 'sandbox-key', { title: 'BCP', content }, 'sandbox');
    expect(live.summary!.length).toBeLessThanOrEqual(320);
    const sentences = live.summary!.split(/(?<=\.) /);
    for (const sentence of sentences) expect(content.replace(/\n/g, ' ')).toContain(sentence);
    expect(sandbox.summary).toBe(SANDBOX_SUMMARY_PREFIX + live.summary);
    expect(sandbox.classification?.watermark).toBe(SANDBOX_CLASSIFICATION_WATERMARK);
    expect(live.classification).not.toHaveProperty('watermark');
    expect(sandbox.category).toBe(live.category);
  });
});
