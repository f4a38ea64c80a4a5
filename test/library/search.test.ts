import { beforeAll, describe, expect, it } from 'vitest';
import { searchResult } from '../../api/schemas/responses.js';
import { SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT, type Library } from '../../sandbox/library/index.js';
import { loadPolicies } from '../fixtures/policies/corpus.js';
import { rankingTable } from '../../sandbox/library/schema.js';
import { ingestReady, LATER, newLibrary, NOW, policyText } from './helpers.js';

const CATEGORIES: Record<string, string> = {
  'access-control-policy.md': 'Access Control',
  'incident-response-plan.md': 'Incident Response',
  'data-protection-policy.md': 'Data Protection',
  'vendor-management-policy.md': 'Vendor Management',
};

let library: Library;
const idOf = new Map<string, string>();

beforeAll(() => {
  library = newLibrary().library;
  for (const policy of loadPolicies()) {
    const category = CATEGORIES[policy.file];
    const doc = ingestReady(library, 'k', { title: policy.title, content: policy.content, filename: policy.file, ...(category ? { category } : {}) });
    idOf.set(policy.file, doc.id);
  }
});

function top(query: string, extra: { category?: string; tags?: string[] } = {}): string | undefined {
  const first = library.search('k', { query, ...extra }).results[0];
  return [...idOf.entries()].find(([, id]) => id === first?.documentId)?.[0];
}

describe('search quality on a realistic policy corpus', () => {
  it.each([
    ['multi-factor authentication', 'access-control-policy.md'],
    ['incident escalation', 'incident-response-plan.md'],
    ['data retention period', 'data-protection-policy.md'],
    ['vendor risk assessment', 'vendor-management-policy.md'],
    ['phishing simulations', 'security-awareness-training-policy.md'],
    ['tabletop exercise failover', 'business-continuity-plan.md'],
    ['visitor badge escort', 'physical-security-policy.md'],
    ['background check screening', 'hr-security-policy.md'],
    ['risk appetite', 'risk-management-policy.md'],
  ])('ranks the expected policy first for "%s"', (query, expected) => {
    expect(top(query)).toBe(expected);
  });

  it('returns the searchResult shape with highlighted snippets in every result', () => {
    const outcome = library.search('k', { query: 'encryption keys' });
    expect(searchResult.safeParse(outcome).success).toBe(true);
    expect(outcome.results.length).toBeGreaterThan(1);
    for (const hit of outcome.results) {
      expect(hit.snippets.length).toBeGreaterThanOrEqual(1);
      expect(hit.snippets.length).toBeLessThanOrEqual(3);
      for (const snippet of hit.snippets) expect(snippet).toMatch(/<mark>[^<]+<\/mark>/);
    }
    const best = outcome.results[0]!.snippets.join(' ');
    expect(best).toMatch(/<mark>encryption<\/mark>/i);
    expect(best).toMatch(/<mark>keys?<\/mark>/i);
  });

  it('orders documents with every term before documents with some, with scores that follow the order', () => {
    const outcome = library.search('k', { query: 'sanction shredding' });
    const scores = outcome.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // No document has both words: each result matches one of two terms and scores at most 0.5.
    expect(scores.every((s) => s > 0 && s <= 0.5)).toBe(true);
    const both = library.search('k', { query: 'sanction disciplinary' });
    expect(both.results[0]!.score).toBeGreaterThan(0.5);
    expect(top('sanction disciplinary')).toBe('hr-security-policy.md');
  });

  it('matches a quoted phrase only where the words stand together', () => {
    const phrase = library.search('k', { query: '"break-glass accounts"' });
    expect(phrase.results.map((r) => r.documentId)).toEqual([idOf.get('access-control-policy.md')]);
    const loose = library.search('k', { query: '"accounts glass"' });
    expect(loose.total).toBe(0);
    expect(library.search('k', { query: 'accounts glass' }).total).toBeGreaterThan(1);
  });

  it('narrows results by category and by tag', () => {
    const all = library.search('k', { query: 'access' });
    const narrowed = library.search('k', { query: 'access', category: 'access control' });
    expect(narrowed.total).toBeLessThan(all.total);
    expect(narrowed.results.every((r) => r.category === 'Access Control')).toBe(true);
    const tagged = library.search('k', { query: 'access', tags: ['Physical-Security'] });
    expect(tagged.results.map((r) => r.documentId)).toEqual([idOf.get('physical-security-policy.md')]);
  });

  it('has a default limit of 10, a maximum of 50, and rejects more instead of clamping', () => {
    expect(SEARCH_DEFAULT_LIMIT).toBe(10);
    expect(SEARCH_MAX_LIMIT).toBe(50);
    const outcome = library.search('k', { query: 'ePHI' });
    expect(outcome.total).toBeGreaterThan(10);
    expect(outcome.results).toHaveLength(10);
    expect(outcome.limit).toBe(10);
    expect(library.search('k', { query: 'ePHI', limit: 2 }).results).toHaveLength(2);
    for (const limit of [0, 51, 2.5]) {
      expect(() => library.search('k', { query: 'ePHI', limit })).toThrow(expect.objectContaining({ code: 'invalid_limit', status: 400 }));
    }
  });

  it.each([
    'NEAR(access review)',
    'access AND NOT review',
    'acc*',
    '"unbalanced quote',
    'title:access',
    '^access -review',
    'access) OR (review',
    '"" "access"',
    "'; drop table library_documents; --",
  ])('answers the hostile query %j safely', (query) => {
    const outcome = library.search('k', { query });
    expect(searchResult.safeParse(outcome).success).toBe(true);
    expect(library.list('k').documents.length).toBe(idOf.size);
  });


  it.each(['', '   ', '?!*"()', '"'])('rejects the query %j with a clear error', (query) => {
    expect(() => library.search('k', { query })).toThrow(expect.objectContaining({ code: 'invalid_query', status: 400 }));
  });

  it('escapes markup of the stored text in snippets', () => {
    const own = newLibrary().library;
    ingestReady(own, 'k', { title: 'Web', content: `<script>alert(1)</script> The web application firewall blocks injection & cross-site scripting attacks near the edge. ${'Filler sentence about review. '.repeat(8)}` });
    // FTS5 operators are plain words to the engine.
    expect(own.search('k', { query: 'NEAR' }).results[0]?.snippets[0]).toContain('<mark>near</mark>');
    const snippet = own.search('k', { query: 'firewall' }).results[0]!.snippets[0]!;
    expect(snippet).toContain('&lt;script&gt;');
    expect(snippet).toContain('<mark>firewall</mark>');
    expect(snippet).toContain('&amp;');
  });

  it('ranks by the whole document, kept current through refresh and delete, and quotes the passage that answers', () => {
    const { db, library: own } = newLibrary();
    const mentions = (seed: string, times: number) => `${policyText(seed, 1500)}\n\n${'Records follow the retention schedule. '.repeat(times)}`;
    const heavy = ingestReady(own, 'k', { title: 'Heavy', content: mentions('archive', 6) });
    const light = ingestReady(own, 'k', { title: 'Light', content: mentions('ledger', 2) });
    expect(own.search('k', { query: 'retention' }).results.map((r) => r.title)).toEqual(['Heavy', 'Light']);
    expect(own.search('k', { query: 'retention' }).results[0]!.snippets[0]).toContain('<mark>retention</mark>');

    const work = own.beginRefresh('k', heavy.id, mentions('archive', 1), NOW);
    own.completeWork('k', work.documentId, { mode: 'live', now: LATER });
    expect(own.search('k', { query: 'retention' }).results.map((r) => r.title)).toEqual(['Light', 'Heavy']);
    const rows = () => (db.prepare(`select count(*) as n from ${rankingTable('k')}`).get() as { n: number }).n;
    expect(rows()).toBe(2);
    own.delete('k', light.id);
    expect(rows()).toBe(1);
    expect(own.search('k', { query: 'retention' }).results.map((r) => r.title)).toEqual(['Heavy']);
  });
});
