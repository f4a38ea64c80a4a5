/**
 * Library search read tolerantly (api/normalize/search.ts): every name the adapter accepts for a
 * field is read on its own, and what it cannot read fails naming what it looked for. A name dropped
 * from a list would lose a hit's document id (so its link) or its snippets.
 */
import { describe, expect, it } from 'vitest';
import { normalizeSearchResult } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const CONTEXT = { operationId: 'searchLibrary', input: {} };
const search = (raw: unknown) => normalizeSearchResult(raw, CONTEXT);
const hit = (fields: Record<string, unknown>) => search({ results: [{ documentId: 'd1', ...fields }] }).results[0]!;

describe('a search result', () => {
  it.each(['results', 'hits', 'matches', 'documents', 'items', 'data'])('reads the hits from %s', (name) => {
    expect(search({ [name]: [{ id: 'd1' }], requestId: 'r1' }).results.map((result) => result.documentId)).toEqual(['d1']);
  });

  it('reads a bare list as the hits', () => {
    expect(search([{ id: 'd1' }]).results.map((result) => result.documentId)).toEqual(['d1']);
  });

  it('fails on an answer that is no object, or has no list, naming where it looked', () => {
    expect(() => search('none')).toThrowError('searchLibrary: unexpected response: no search result (looked for an object); got string');
    expect(() => search({ total: 0 })).toThrowError('no result list (looked for results, hits, matches, documents, items, data); keys seen: total');
  });

  it('fails on a hit that is no object, or has no document id, naming which hit', () => {
    expect(() => search({ results: [{ id: 'd1' }, 'd2'] })).toThrowError('no search hit 2 as an object (looked for an object); got string');
    expect(() => search({ results: [{ id: 'd1' }, { title: 'T' }] })).toThrowError('no document id of hit 2 (looked for documentId, document_id, id, docId, document.id); keys seen: title');
  });

  it.each(['documentId', 'document_id', 'id', 'docId', 'document.id'])('reads the document id from %s', (name) => {
    expect(search({ results: [at(name, 'd7')] }).results[0]!.documentId).toBe('d7');
  });

  it.each(['query', 'q'])('reads the query from %s', (name) => {
    expect(search({ results: [], [name]: 'mfa' }).query).toBe('mfa');
  });

  it.each(['total', 'count', 'totalResults', 'total_results'])('reads the total from %s', (name) => {
    expect(search({ results: [], [name]: 12 }).total).toBe(12);
  });

  it.each(['limit', 'pageSize'])('reads the limit from %s', (name) => {
    expect(search({ results: [], [name]: 5 }).limit).toBe(5);
  });

  it.each(['snippets', 'highlights', 'highlight', 'fragments'])('reads a hit\'s snippets from the list %s', (name) => {
    expect(hit({ [name]: ['a', 'b'] }).snippets).toEqual(['a', 'b']);
  });

  it.each(['snippet', 'excerpt', 'highlight', 'summary', 'snippets', 'highlights', 'fragments'])(
    'reads a hit\'s one snippet from the text %s whole, commas and all',
    (name) => {
      expect(hit({ [name]: 'Access is granted, reviewed quarterly' }).snippets).toEqual(['Access is granted, reviewed quarterly']);
    },
  );

  it('prefers a list of snippets to a single one, and skips a list name holding no list', () => {
    expect(hit({ snippet: 'one', highlights: ['a', 'b'] }).snippets).toEqual(['a', 'b']);
    expect(hit({ snippets: null, highlight: ['a'] }).snippets).toEqual(['a']);
  });

  it('has no snippets when the hit gives none', () => {
    expect(hit({}).snippets).toEqual([]);
  });

  it.each(['title', 'name', 'document.title', 'filename'])('reads a hit\'s title from %s, else shows its id', (name) => {
    expect(hit(at(name, 'Policy')).title).toBe('Policy');
    expect(hit({}).title).toBe('d1');
  });

  it.each(['filename', 'fileName', 'document.filename'])('reads a hit\'s filename from %s', (name) => {
    expect(hit(at(name, 'policy.md')).filename).toBe('policy.md');
  });

  it.each(['category', 'document.category'])('reads a hit\'s category from %s', (name) => {
    expect(hit(at(name, 'policies')).category).toBe('policies');
  });

  it('reads a hit\'s tags', () => {
    expect(hit({ tags: 'a, b' }).tags).toEqual(['a', 'b']);
  });

  it.each(['score', 'relevance', 'rank', '_score'])('reads a hit\'s score from %s, else 0', (name) => {
    expect(hit({ [name]: 0.7 }).score).toBe(0.7);
    expect(hit({}).score).toBe(0);
  });
});
