/** priceSyncPlan: what merging costs the library sync, priced as the sync itself is (GET /billing's list, else the operation table). */
import { describe, expect, it } from 'vitest';
import { contentHash } from '../../api/contentHash.js';
import { planSync, priceSyncPlan, type LibraryDocument } from '../../review/index.js';

const TAG = 'repo:northwind/policies';
const text = (topic: string) => `# ${topic}\n\n${`Northwind's rules on ${topic}. `.repeat(12)}\n`;
const library: LibraryDocument[] = [
  { id: 'd1', title: 'a', filename: 'policies/a.md', tags: [TAG], version: 1, contentHash: contentHash(text('a')) },
  { id: 'd2', title: 'b', filename: 'policies/b.md', tags: [TAG], version: 1, contentHash: contentHash(text('b')) },
  { id: 'd3', title: 'gone', filename: 'policies/gone.md', tags: [TAG], version: 1, contentHash: contentHash(text('gone')) },
];
const groups = [{ paths: ['policies/*.md'], tags: [] }];
const files = [
  { path: 'policies/a.md', content: text('a, edited') },
  { path: 'policies/b.md', content: text('b') },
  { path: 'policies/new.md', content: text('new') },
];

describe('priceSyncPlan', () => {
  const plan = planSync({ files, library, repoTag: TAG, groups, deleteRemoved: false });

  it('counts new, changed and removed documents and prices them from the given list', () => {
    const price = priceSyncPlan(plan, { ingestLibraryDocument: 7, refreshLibraryDocument: 11 });
    expect(price.counts).toEqual({ new: 1, changed: 1, removed: 1 });
    expect(price.tokens).toBe(18);
    expect(price.lines).toEqual([
      { operationId: 'ingestLibraryDocument', count: 1, tokensEach: 7 },
      { operationId: 'refreshLibraryDocument', count: 1, tokensEach: 11 },
    ]);
  });

  it('prices what the list leaves out at the operation table\'s price, the same as the sync plan; 0 when nothing changes', () => {
    expect(priceSyncPlan(plan, { refreshLibraryDocument: 11 }).tokens).toBe(400_000 + 11);
    const priced = planSync({ files, library, repoTag: TAG, groups, deleteRemoved: false, prices: { refreshLibraryDocument: 11 } });
    expect(priced.totalTokens).toBe(400_000 + 11);
    const same = planSync({ files: [{ path: 'policies/a.md', content: text('a') }, { path: 'policies/b.md', content: text('b') }, { path: 'policies/gone.md', content: text('gone') }], library, repoTag: TAG, groups, deleteRemoved: false });
    expect(priceSyncPlan(same, {})).toMatchObject({ counts: { new: 0, changed: 0, removed: 0 }, tokens: 0 });
  });
});
