/**
 * Capabilities read tolerantly (api/normalize/capabilities.ts): every name the adapter accepts for
 * a field or limit is read on its own, the limits the spec states stand in when the answer leaves
 * them out, and an answer without document types fails naming where it looked. The limits decide
 * what a run refuses before it uploads.
 */
import { describe, expect, it } from 'vitest';
import { normalizeCapabilities } from '../../api/normalize/index.js';
import { at } from './helpers.js';

const CONTEXT = { operationId: 'getCapabilities', input: {} };
const capabilities = (fields: Record<string, unknown>) => normalizeCapabilities({ documentTypes: [], ...fields }, CONTEXT);
/** The limits the spec states, present in every answer. */
const SPEC = { concurrentGenerations: 1, libraryMinChars: 200, libraryMaxChars: 300_000, uploadMaxBytes: 10 * 1024 * 1024, autoTopUpMinThreshold: 100_000 };

describe('capabilities', () => {
  it('fails on an answer that is no object, or has no document types, naming where it looked', () => {
    expect(() => normalizeCapabilities('x', CONTEXT)).toThrowError('getCapabilities: unexpected response: no capabilities (looked for an object); got string');
    expect(() => normalizeCapabilities({ formats: [] }, CONTEXT)).toThrowError('no document types (looked for documentTypes, document_types, types, documents.types); keys seen: formats');
  });

  it.each(['documentTypes', 'document_types', 'types', 'documents.types'])('reads the document types from %s', (name) => {
    expect(normalizeCapabilities(at(name, ['policy']), CONTEXT).documentTypes).toEqual([{ id: 'policy', title: 'policy' }]);
  });

  it.each(['id', 'type', 'slug', 'name', 'key'])('reads a document type\'s id from %s, and skips one without', (name) => {
    expect(capabilities({ documentTypes: [{ [name]: 'policy' }, { title: 'No id' }, 3] }).documentTypes).toEqual([{ [name]: 'policy', id: 'policy', title: 'policy' }]);
  });

  it.each(['title', 'name', 'label'])('reads a document type\'s title from %s', (name) => {
    expect(capabilities({ documentTypes: [{ id: 'policy', [name]: 'Policy', description: 'A policy' }] }).documentTypes[0]).toMatchObject({ title: 'Policy', description: 'A policy' });
  });

  it.each(['formats', 'outputFormats', 'downloadFormats'])('reads the formats from %s, keeping only known ones; else every format', (name) => {
    expect(capabilities({ [name]: ['md', 'html', 'pdf'] }).formats).toEqual(['md', 'pdf']);
    expect(capabilities({}).formats).toEqual(['json', 'md', 'pdf', 'docx']);
  });

  it.each(['limits', 'keyLimits', 'quotas'])('reads the limits from %s, keeping unknown ones', (name) => {
    expect(capabilities({ [name]: { rpm: 60, burst: 5 } }).limits).toEqual({ ...SPEC, rpm: 60, burst: 5, requestsPerMinute: 60 });
  });

  it('has the limits the spec states, and no others, when the answer gives none', () => {
    expect(capabilities({}).limits).toStrictEqual(SPEC);
  });

  it.each([
    ['requestsPerMinute', ['requestsPerMinute', 'requests_per_minute', 'rateLimit', 'rpm', 'requests.perMinute']],
    ['generationsPerDay', ['generationsPerDay', 'generations_per_day', 'dailyGenerations', 'generations.day', 'generations.perDay']],
    ['generationsPer30Days', ['generationsPer30Days', 'generations_per_30_days', 'monthlyGenerations', 'generations.thirtyDays', 'generations.per30Days']],
    ['concurrentGenerations', ['concurrentGenerations', 'concurrent_generations', 'concurrency', 'maxConcurrentJobs']],
    ['libraryDocuments', ['libraryDocuments', 'library_documents', 'maxDocuments', 'library.documents', 'libraryCapacity']],
    ['libraryMinChars', ['libraryMinChars', 'library_min_chars', 'minChars', 'library.minChars']],
    ['libraryMaxChars', ['libraryMaxChars', 'library_max_chars', 'maxChars', 'library.maxChars']],
    ['uploadMaxBytes', ['uploadMaxBytes', 'upload_max_bytes', 'maxUploadBytes', 'upload.maxBytes']],
    ['searchDefaultLimit', ['searchDefaultLimit', 'search_default_limit', 'search.defaultLimit']],
    ['searchMaxLimit', ['searchMaxLimit', 'search_max_limit', 'search.maxLimit']],
    ['autoTopUpMinThreshold', ['autoTopUpMinThreshold', 'auto_topup_min_threshold', 'autoTopUp.minThreshold']],
  ])('reads the limit %s from each of its names', (limit, names) => {
    for (const name of names) expect(capabilities({ limits: at(name, 7) }).limits[limit]).toBe(7);
  });

  it.each(['uploadKinds', 'upload_kinds', 'acceptedFileTypes'])('reads the upload kinds from %s', (name) => {
    expect(capabilities({ limits: { [name]: ['md', 'pdf'] } }).limits.uploadKinds).toEqual(['md', 'pdf']);
  });

  it.each(['prices', 'pricing'])('reads the prices from %s', (name) => {
    expect(capabilities({ [name]: { mapDocument: 250_000 } }).prices).toEqual({ mapDocument: 250_000 });
  });

  it.each(['verifiedFrameworks', 'verified_frameworks', 'frameworks'])('reads the verified frameworks from %s: a name, or an object verified unless it says not', (name) => {
    expect(capabilities({ [name]: ['gdpr', { id: 'nis2', title: 'NIS2' }, { slug: 'x', verified: false }, { name: 'SOC 2' }, { slug: 'iso', name: 'ISO 27001' }, { title: 'no slug' }, 4, null] }).verifiedFrameworks).toEqual([
      { slug: 'gdpr', name: 'gdpr', verified: true },
      { id: 'nis2', title: 'NIS2', slug: 'nis2', name: 'NIS2', verified: true },
      { slug: 'x', name: 'x', verified: false },
      { name: 'SOC 2', slug: 'SOC 2', verified: true },
      { slug: 'iso', name: 'ISO 27001', verified: true },
    ]);
    expect(capabilities({}).verifiedFrameworks).toEqual([]);
  });

  it('reads the key mode', () => {
    expect(capabilities({ environment: 'production' }).mode).toBe('live');
  });
});
