/**
 * api/schemas/requests.ts through validateInput, as the client runs it before sending: what each
 * accepted input becomes on the wire (aliases folded, tags split), and what each refusal says, in
 * the words and with the code the service would use.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod/v4/mini';
import type { ComplianceValidationError } from '../../api/errors.js';
import type { OperationId } from '../../api/operations.js';
import { LIMITS } from '../../api/schemas/common.js';
import { LIBRARY_TEXT } from './helpers.js';

// Each test builds the schemas it reads afresh (they are built on first use and kept): mutation
// testing credits a schema's words only to the test that built it, so a test reading a refusal's
// words must build that schema itself to be seen checking them.
let api: typeof import('../../api/operations.js') & typeof import('../../api/validation.js') & typeof import('../../api/errors.js');
beforeEach(async () => {
  vi.resetModules();
  api = { ...(await import('../../api/operations.js')), ...(await import('../../api/validation.js')), ...(await import('../../api/errors.js')) };
});

const parsed = (operationId: OperationId, input: unknown) => api.validateInput(operationId, api.operations[operationId].input, input);

function refusal(operationId: OperationId, input: unknown): ComplianceValidationError {
  try {
    parsed(operationId, input);
  } catch (error) {
    expect(error).toBeInstanceOf(api.ComplianceValidationError);
    return error as ComplianceValidationError;
  }
  throw new Error(`${operationId} accepted ${JSON.stringify(input)}`);
}

describe('accepted inputs, as sent', () => {
  it('tags are a list or a comma-separated text, trimmed, blanks dropped', () => {
    expect(parsed('searchLibrary', { query: 'access', tags: ' security, ,hr ' })).toEqual({ query: 'access', tags: ['security', 'hr'] });
    expect(parsed('searchLibrary', { query: 'access', tags: [' security ', 'hr'] })).toEqual({ query: 'access', tags: ['security', 'hr'] });
    expect(parsed('ingestLibraryDocument', { title: 'Access', content: LIBRARY_TEXT, tags: 'security' })).toMatchObject({ tags: ['security'] });
  });

  it('discovery takes any one criterion; generation folds its aliases into framework and type', () => {
    expect(parsed('suggestFrameworks', { jurisdiction: 'EU' })).toEqual({ jurisdiction: 'EU' });
    expect(parsed('generateDocument', { standard: 'nist-csf-2', documentType: 'policy', organisation: { name: 'Acme' }, humanize: true })).toEqual({
      framework: 'nist-csf-2',
      type: 'policy',
      organisation: { name: 'Acme' },
      humanize: true,
    });
    expect(parsed('generateDocument', { name: 'SOC 2' })).toEqual({ framework: 'SOC 2' });
  });

  it('an operation without input takes none; a download, a refresh and a checkout take theirs', () => {
    const jobId = '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a';
    expect(parsed('ping', {})).toEqual({});
    expect(parsed('downloadDocument', { jobId, format: 'pdf' })).toEqual({ jobId, format: 'pdf' });
    expect(parsed('refreshLibraryDocument', { id: 'doc_1', content: LIBRARY_TEXT })).toEqual({ id: 'doc_1', content: LIBRARY_TEXT });
    expect(parsed('createCheckout', { pack: 'pack25' })).toEqual({ pack: 'pack25' });
  });

  it('mapping takes text or a file of bytes, an ArrayBuffer or a Blob', () => {
    expect(parsed('mapDocument', { framework: 'nist-csf-2', content: 'We encrypt data at rest.' })).toEqual({ framework: 'nist-csf-2', content: 'We encrypt data at rest.' });
    for (const data of [new TextEncoder().encode('# Policy'), new ArrayBuffer(8), new Blob(['# Policy'])]) {
      expect(parsed('mapDocument', { framework: 'nist-csf-2', file: { data, filename: 'policy.md' } })).toMatchObject({ file: { filename: 'policy.md' } });
    }
  });

  it('listing, reading with content, auto top-up off and a calendar on the last day of a month', () => {
    expect(parsed('listLibrary', { page: 2, limit: 10, tag: 'hr' })).toEqual({ page: 2, limit: 10, tag: 'hr' });
    expect(parsed('getLibraryDocument', { id: 'doc_1', include: 'content' })).toEqual({ id: 'doc_1', include: 'content' });
    expect(parsed('setAutoTopUp', { enabled: false })).toEqual({ enabled: false });
    expect(parsed('setCalendar', { cadence: 'monthly', firstReviewAt: '2026-12-31T09:00:00Z' })).toEqual({ cadence: 'monthly', firstReviewAt: '2026-12-31T09:00:00Z' });
    for (const firstReviewAt of ['2028-02-29T09:00:00Z', '2027-01-01T09:00:00Z']) expect(parsed('setCalendar', { cadence: 'monthly', firstReviewAt })).toMatchObject({ firstReviewAt });
  });
});

describe('refusals, word for word', () => {
  it.each<[string, OperationId, unknown, string, string, string]>([
    ['a job id that is no UUID', 'getJob', { jobId: 'job-1' }, 'invalid_job_id', 'jobId', 'jobId must be a UUID such as 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a'],
    ['a library id with a slash', 'deleteLibraryDocument', { id: 'doc/1' }, 'invalid_id', 'id', 'id must be a library document id as returned by ingest or the listing'],
    ['a framework slug with a space', 'getFramework', { slug: 'nist csf' }, 'invalid_id', 'slug', 'slug must be a framework slug such as nist-csf-2 (see suggestFrameworks)'],
    ['discovery whose only criterion is undefined', 'suggestFrameworks', { query: undefined }, 'missing_query', 'query', 'query is required'],
    ['mapping without a framework', 'mapDocument', { content: 'We encrypt.' }, 'missing_framework', 'framework', 'framework is required'],
    ['generation without a framework', 'generateDocument', { type: 'policy' }, 'missing_framework', 'framework', 'framework is required (aliases: standard, name)'],
    ['mapping with both text and a file', 'mapDocument', { framework: 'x', content: 'We encrypt.', file: { data: new Uint8Array(1), filename: 'a.md' } }, 'invalid_request', 'file', 'give content or file, not both'],
    ['a file whose data is text', 'mapDocument', { framework: 'x', file: { data: '# Policy', filename: 'a.md' } }, 'invalid_request', 'file', 'file must be { data: Uint8Array | ArrayBuffer | Blob, filename: string }'],
    ['a file without a name', 'mapDocument', { framework: 'x', file: { data: new Uint8Array(1) } }, 'invalid_request', 'file', 'file must be { data: Uint8Array | ArrayBuffer | Blob, filename: string }'],
    ['a file that is null', 'mapDocument', { framework: 'x', file: null }, 'invalid_request', 'file', 'file must be { data: Uint8Array | ArrayBuffer | Blob, filename: string }'],
    ['auto top-up on without a threshold', 'setAutoTopUp', { enabled: true, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens', 'thresholdTokens is required when enabled is true'],
    ['auto top-up on without a pack', 'setAutoTopUp', { enabled: true, thresholdTokens: LIMITS.autoTopUpMinThreshold }, 'invalid_pack', 'pack', 'pack is required when enabled is true'],
    ['an auto top-up threshold too low', 'setAutoTopUp', { enabled: true, thresholdTokens: 1, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens', `thresholdTokens must be at least ${LIMITS.autoTopUpMinThreshold.toLocaleString('en-US')} tokens`],
    ['a review time that is not ISO 8601', 'setCalendar', { cadence: 'monthly', firstReviewAt: 'December 1, 2026' }, 'invalid_timestamp', 'firstReviewAt', 'firstReviewAt must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z'],
  ])('%s → %s: %s', (_, operationId, input, code, field, message) => {
    expect(refusal(operationId, input)).toMatchObject({ code, field, message: `${operationId}: ${message}` });
  });

  it('a day the month does not have, month 0 or 13, or day 0 is no date', () => {
    for (const firstReviewAt of ['2026-02-30T09:00:00Z', '2026-04-31T09:00:00Z', '2027-02-29T09:00:00Z', '2026-00-10T09:00:00Z', '2026-13-01T09:00:00Z', '2026-01-00T09:00:00Z']) {
      expect(refusal('setCalendar', { cadence: 'monthly', firstReviewAt }), firstReviewAt).toMatchObject({
        code: 'invalid_timestamp',
        message: 'setCalendar: firstReviewAt is not a real date (check the day of the month)',
      });
    }
  });
});

describe('what the OpenAPI states of library text', () => {
  it("the service's own rule: length limits and a letter or digit", () => {
    const schema = z.toJSONSchema(api.operations.ingestLibraryDocument.input, { io: 'input', unrepresentable: 'any' }) as { properties: { content: Record<string, unknown> } };
    expect(schema.properties.content).toMatchObject({ type: 'string', minLength: LIMITS.libraryMinChars, maxLength: LIMITS.libraryMaxChars, pattern: expect.any(String) });
  });
});
