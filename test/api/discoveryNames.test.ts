/**
 * Framework discovery and a framework's details read tolerantly (api/normalize/candidates.ts,
 * api/normalize/framework.ts): every name the adapters accept for a field is read on its own, the
 * confidence is a fraction whatever scale the service uses, and what they cannot read fails naming
 * what they looked for. The candidates decide which framework a run maps against.
 */
import { describe, expect, it } from 'vitest';
import { normalizeFramework, normalizeSuggestResult } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const SUGGEST = { operationId: 'suggestFrameworks', input: {} };
const suggest = (raw: unknown) => normalizeSuggestResult(raw, SUGGEST);
const candidate = (fields: Record<string, unknown>) => suggest({ candidates: [{ name: 'GDPR', ...fields }] }).candidates[0]!;

describe('discovery candidates', () => {
  it.each(['candidates', 'results', 'frameworks', 'suggestions', 'items', 'data'])('reads the candidates from %s', (name) => {
    expect(suggest({ [name]: [{ name: 'GDPR' }], mode: 'sandbox' }).candidates.map((item) => item.name)).toEqual(['GDPR']);
  });

  it('reads a bare list, and a bare name as a candidate ranked by its place', () => {
    expect(suggest(['GDPR', 'ePrivacy']).candidates).toEqual([
      { rank: 1, name: 'GDPR', regulator: '', jurisdiction: '', sector: '', sourceUrl: '', confidence: 0, reasoning: '' },
      { rank: 2, name: 'ePrivacy', regulator: '', jurisdiction: '', sector: '', sourceUrl: '', confidence: 0, reasoning: '' },
    ]);
  });

  it('fails on an answer that is no object, has no list, or a candidate it cannot read, naming which', () => {
    expect(() => suggest(7)).toThrowError('suggestFrameworks: unexpected response: no discovery result (looked for an object); got number');
    expect(() => suggest({ mode: 'live' })).toThrowError('no candidate list (looked for candidates, results, frameworks, suggestions, items, data); keys seen: mode');
    expect(() => suggest({ candidates: ['GDPR', 3] })).toThrowError('no candidate 2 as an object (looked for an object); got number');
    expect(() => suggest({ candidates: ['GDPR', { rank: 2 }] })).toThrowError('no name of candidate 2 (looked for name, framework, frameworkName, title, standard, framework.name); keys seen: rank');
  });

  it.each(['name', 'framework', 'frameworkName', 'title', 'standard', 'framework.name'])('reads a candidate\'s name from %s', (name) => {
    expect(suggest({ candidates: [at(name, 'NIS2')] }).candidates[0]!.name).toBe('NIS2');
  });

  it.each(['rank', 'position', 'order'])('reads the rank from %s and orders by it; without one, by place', (name) => {
    const result = suggest({ candidates: [{ name: 'B', [name]: 2 }, { name: 'A', [name]: 1 }] });
    expect(result.candidates.map((item) => [item.name, item.rank])).toEqual([['A', 1], ['B', 2]]);
    expect(suggest({ candidates: [{ name: 'A' }, { name: 'B' }] }).candidates.map((item) => item.rank)).toEqual([1, 2]);
  });

  it.each(['slug', 'id', 'frameworkSlug', 'framework.slug'])('reads the slug from %s', (name) => {
    expect(suggest({ candidates: [{ name: 'GDPR', ...at(name, 'gdpr') }] }).candidates[0]!.slug).toBe('gdpr');
  });

  it.each(['regulator', 'authority', 'issuer', 'issuingBody', 'body', 'publisher'])('reads the regulator from %s', (name) => {
    expect(candidate({ [name]: 'EDPB' }).regulator).toBe('EDPB');
  });

  it.each(['jurisdiction', 'country', 'region', 'jurisdictions'])('reads the jurisdiction from %s', (name) => {
    expect(candidate({ [name]: 'EU' }).jurisdiction).toBe('EU');
  });

  it.each(['sector', 'domain', 'industry', 'sectors'])('reads the sector from %s', (name) => {
    expect(candidate({ [name]: 'health' }).sector).toBe('health');
  });

  it('joins listed jurisdictions and sectors, and keeps them as written when given as text', () => {
    expect(candidate({ jurisdictions: ['EU', 'UK'], sectors: ['health', 'finance'] })).toMatchObject({ jurisdiction: 'EU, UK', sector: 'health, finance' });
    expect(candidate({ jurisdictions: 'EU,UK', sectors: 'health,finance' })).toMatchObject({ jurisdiction: 'EU,UK', sector: 'health,finance' });
  });

  it.each(['sourceUrl', 'source_url', 'url', 'link', 'source', 'reference', 'source.url'])('reads the source from %s', (name) => {
    expect(candidate(at(name, 'https://example.test/gdpr')).sourceUrl).toBe('https://example.test/gdpr');
  });

  it.each(['confidence', 'score', 'probability', 'relevance'])('reads the confidence from %s', (name) => {
    expect(candidate({ [name]: 0.4 }).confidence).toBe(0.4);
  });

  it.each(['confidencePercent', 'confidence_pct'])('reads %s as a percentage, even at 1 or below', (name) => {
    expect(candidate({ [name]: 1 }).confidence).toBe(0.01);
    expect(candidate({ [name]: 40 }).confidence).toBe(0.4);
  });

  it.each([
    [1, 1],
    [0.5, 0.5],
    [87, 0.87],
    [250, 1],
    [-3, 0],
  ])('a confidence of %s reads as %s', (value, confidence) => {
    expect(candidate({ confidence: value }).confidence).toBe(confidence);
  });

  it('has no confidence when the candidate gives none', () => {
    expect(candidate({}).confidence).toBe(0);
  });

  it.each(['reasoning', 'rationale', 'reason', 'explanation', 'why', 'justification'])('reads the reasoning from %s', (name) => {
    expect(candidate({ [name]: 'EU personal data' }).reasoning).toBe('EU personal data');
  });

  it.each(['verified', 'isVerified'])('reads whether it is verified from %s', (name) => {
    expect(candidate({ [name]: true }).verified).toBe(true);
  });

  it.each(['warnings', 'warning', 'notes'])('reads the warnings from %s', (name) => {
    expect(suggest({ candidates: [], [name]: ['few documents'] }).warnings).toEqual(['few documents']);
  });
});

const FRAMEWORK = { operationId: 'getFramework', input: {} };
const framework = (fields: Record<string, unknown>) => normalizeFramework({ slug: 'gdpr', name: 'GDPR', ...fields }, FRAMEWORK);

describe('a framework\'s details', () => {
  it('fails on an answer that is no object, or names no framework', () => {
    expect(() => normalizeFramework([], FRAMEWORK)).toThrowError('getFramework: unexpected response: no framework (looked for an object); got an array');
    expect(() => normalizeFramework({ regulator: 'EDPB' }, FRAMEWORK)).toThrowError('no framework name or slug (looked for name, title, slug, id); keys seen: regulator');
    // A name alone is not enough: the slug is what later calls name the framework by.
    expect(() => normalizeFramework({ name: 'GDPR' }, FRAMEWORK)).toThrowError('no framework name or slug');
    expect(() => normalizeFramework({ name: 'GDPR' }, { operationId: 'getFramework' })).toThrowError('no framework name or slug');
  });

  it('reads the framework wrapped in framework, keeping what sits beside it', () => {
    expect(normalizeFramework({ framework: { slug: 'gdpr', name: 'GDPR' }, requestId: 'r1' }, FRAMEWORK)).toMatchObject({ slug: 'gdpr', name: 'GDPR', requestId: 'r1' });
  });

  it.each(['slug', 'id', 'frameworkSlug'])('reads the slug from %s, else the one asked for', (name) => {
    expect(normalizeFramework({ name: 'GDPR', [name]: 'gdpr' }, FRAMEWORK).slug).toBe('gdpr');
    expect(normalizeFramework({ name: 'GDPR' }, { operationId: 'getFramework', input: { slug: 'asked' } }).slug).toBe('asked');
  });

  it.each(['name', 'title', 'frameworkName'])('reads the name from %s, else shows the slug', (name) => {
    expect(normalizeFramework({ slug: 'gdpr', [name]: 'GDPR' }, FRAMEWORK).name).toBe('GDPR');
    expect(normalizeFramework({ slug: 'gdpr' }, FRAMEWORK).name).toBe('gdpr');
  });

  it.each([
    ['regulator', ['regulator', 'authority', 'issuer', 'publisher']],
    ['jurisdiction', ['jurisdiction', 'country', 'region']],
    ['sector', ['sector', 'domain', 'industry']],
    ['sourceUrl', ['sourceUrl', 'source_url', 'url', 'link', 'source']],
  ] as const)('reads the %s from each of its names, else empty', (field, names) => {
    for (const name of names) expect(framework({ [name]: 'x' })[field]).toBe('x');
    expect(framework({})[field]).toBe('');
  });

  it.each(['verified', 'isVerified'])('reads whether it is verified from %s, else not', (name) => {
    expect(framework({ [name]: true }).verified).toBe(true);
    expect(framework({}).verified).toBe(false);
  });

  it.each([
    ['version', ['version', 'revision']],
    ['description', ['description', 'summary']],
  ] as const)('reads the %s from each of its names', (field, names) => {
    for (const name of names) expect(framework({ [name]: 'x' })[field]).toBe('x');
  });

  it.each(['controls', 'requirements', 'controlSet', 'items'])('reads the controls from %s; without any, none are listed', (name) => {
    expect(framework({ [name]: [{ id: 'A.1', title: 'Policies' }, 'not a control'] }).controls).toEqual([{ id: 'A.1', title: 'Policies' }]);
    expect(framework({}).controls).toBeUndefined();
  });

  it.each([
    ['id', ['id', 'controlId', 'control_id', 'ref', 'code']],
    ['title', ['title', 'name', 'description']],
    ['group', ['group', 'category', 'family', 'domain', 'section']],
  ] as const)('reads a control\'s %s from each of its names', (field, names) => {
    for (const name of names) expect(framework({ controls: [{ [name]: 'x' }] }).controls?.[0]?.[field]).toBe('x');
    expect(framework({ controls: [{}] }).controls).toEqual([{ id: '', title: '' }]);
  });

  it.each(['updates', 'changes', 'changelog', 'history'])('reads the updates from %s; without any, the list is empty', (name) => {
    expect(framework({ [name]: [{ date: '2025-01-01', title: 'Guidance' }, 3] }).updates).toEqual([{ date: '2025-01-01', title: 'Guidance' }]);
    expect(framework({}).updates).toEqual([]);
  });

  it.each([
    ['date', ['date', 'publishedAt', 'published', 'at', 'effectiveDate', 'updatedAt']],
    ['title', ['title', 'name', 'summary', 'description']],
    ['summary', ['summary', 'description', 'details']],
    ['url', ['url', 'link', 'sourceUrl']],
  ] as const)('reads an update\'s %s from each of its names', (field, names) => {
    for (const name of names) expect(framework({ updates: [{ [name]: 'x' }] }).updates[0]?.[field]).toBe('x');
    expect(framework({ updates: [{}] }).updates).toEqual([{ date: '', title: '' }]);
  });
});
