/** Merging a key's index: same answers, and the server merges only once writes have stopped. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexMaintenance } from '../../sandbox/server/indexMaintenance.js';
import { loadPolicies } from '../fixtures/policies/corpus.js';
import { INDEX_MERGE_EVERY_WRITES } from '../../sandbox/library/index.js';
import { ingestReady, newLibrary, policyText } from './helpers.js';

const QUERIES = ['multi-factor authentication', 'incident escalation', '"data retention"', 'vendor risk assessment', 'backup'];

describe('Library.mergeIndex', () => {
  it('leaves every search answer unchanged', () => {
    const { library } = newLibrary();
    for (const policy of loadPolicies()) ingestReady(library, 'key', { title: policy.title, content: policy.content, filename: policy.file });
    const before = QUERIES.map((query) => library.search('key', { query }));
    library.mergeIndex('key');
    expect(QUERIES.map((query) => library.search('key', { query }))).toEqual(before);
    expect(before.every((outcome) => outcome.results.length > 0)).toBe(true);
  });

  it(`merges a key during a burst every ${INDEX_MERGE_EVERY_WRITES} index writes (ingests and deletes), other keys apart`, () => {
    const { library } = newLibrary();
    const merge = vi.spyOn(library, 'mergeIndex');
    const ids: string[] = [];
    for (let i = 1; i < INDEX_MERGE_EVERY_WRITES; i++) ids.push(ingestReady(library, 'a', { title: `A ${i}`, content: policyText(`alpha ${i}`) }).id);
    ingestReady(library, 'b', { title: 'B', content: policyText('beta') });
    expect(merge).not.toHaveBeenCalled();
    library.delete('a', ids[0]!);
    expect(merge.mock.calls).toEqual([['a']]);
    for (const id of ids.slice(1)) library.delete('a', id);
    expect(merge.mock.calls).toEqual([['a']]);
    expect(library.search('b', { query: 'beta' }).total).toBe(1);
  });

  it('creates nothing for a key with no library yet', () => {
    const { db, library } = newLibrary();
    ingestReady(library, 'a', { title: 'A', content: policyText('alpha') });
    const tables = () => db.prepare(`select name from sqlite_master order by name`).all().map((row) => row.name);
    const before = tables();
    library.mergeIndex('nobody');
    expect(tables()).toEqual(before);
    expect(library.search('nobody', { query: 'alpha' })).toMatchObject({ total: 0, results: [] });
  });

  it('starts the burst count again after a merge made by the server', () => {
    const { library } = newLibrary();
    const merge = vi.spyOn(library, 'mergeIndex');
    for (let i = 1; i < INDEX_MERGE_EVERY_WRITES; i++) ingestReady(library, 'a', { title: `A ${i}`, content: policyText(`alpha ${i}`) });
    library.mergeIndex('a');
    ingestReady(library, 'a', { title: 'A last', content: policyText('alpha last') });
    expect(merge.mock.calls).toEqual([['a']]);
  });
});

describe('IndexMaintenance', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('merges a key once its writes have stopped for the idle time, never during a burst', () => {
    vi.useFakeTimers();
    const { library } = newLibrary();
    const merge = vi.spyOn(library, 'mergeIndex');
    const maintenance = new IndexMaintenance(library, 1_000);
    maintenance.written('a');
    vi.advanceTimersByTime(900);
    maintenance.written('a');
    vi.advanceTimersByTime(900);
    maintenance.written('b');
    expect(merge).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(merge.mock.calls).toEqual([['a']]);
    vi.advanceTimersByTime(900);
    expect(merge.mock.calls).toEqual([['a'], ['b']]);
  });

  it('cancels pending merges on close', () => {
    vi.useFakeTimers();
    const { library } = newLibrary();
    const merge = vi.spyOn(library, 'mergeIndex');
    const maintenance = new IndexMaintenance(library, 1_000);
    maintenance.written('a');
    maintenance.close();
    vi.advanceTimersByTime(5_000);
    expect(merge).not.toHaveBeenCalled();
  });
});
