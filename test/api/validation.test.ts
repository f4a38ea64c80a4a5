/** Every local validation: refused before anything is sent, with the service's code and the field. */
import { afterEach, describe, expect, it } from 'vitest';
import { ComplianceValidationError } from '../../api/errors.js';
import { operations, type OperationId } from '../../api/operations.js';
import { refusalHints, validateInput } from '../../api/validation.js';
import { UPLOAD_EXTENSIONS } from '../../api/upload.js';
import { FakeTime, JOB_ID, LIBRARY_TEXT, MockService, makeClient } from './helpers.js';
import { ComplianceClient } from '../../api/client.js';

let service: MockService;
afterEach(async () => {
  expect(service.attempts).toHaveLength(0); // nothing was sent, nothing was spent
  await service.close();
});

async function refusal(operationId: OperationId, input: unknown): Promise<ComplianceValidationError> {
  service = new MockService();
  const error = await makeClient(service, new FakeTime())
    .call(operationId, input as never)
    .then(() => undefined, (caught: unknown) => caught);
  expect(error).toBeInstanceOf(ComplianceValidationError);
  return error as ComplianceValidationError;
}

const tooLong = 'x'.repeat(300_001);

describe('request validation', () => {
  it.each<[string, OperationId, unknown, string, string]>([
    ['discovery without any criterion', 'suggestFrameworks', {}, 'missing_query', 'query'],
    ['search without a query', 'searchLibrary', { limit: 5 }, 'missing_query', 'query'],
    ['generation without a framework', 'generateDocument', { type: 'policy' }, 'missing_framework', 'framework'],
    ['mapping without a framework', 'mapDocument', { content: 'We encrypt.' }, 'missing_framework', 'framework'],
    ['mapping with neither content nor file', 'mapDocument', { framework: 'nist-csf-2' }, 'missing_content', 'content'],
    ['download in html', 'downloadDocument', { jobId: JOB_ID, format: 'html' }, 'unsupported_format', 'format'],
    ['ingest under 200 characters', 'ingestLibraryDocument', { title: 'Short', content: 'x'.repeat(199) }, 'content_too_short', 'content'],
    ['ingest over 300,000 characters', 'ingestLibraryDocument', { title: 'Long', content: tooLong }, 'content_too_long', 'content'],
    ['refresh under 200 characters', 'refreshLibraryDocument', { id: 'doc_1', content: 'short' }, 'content_too_short', 'content'],
    ['ingest of 300 spaces', 'ingestLibraryDocument', { title: 'Blank', content: ' '.repeat(300) }, 'empty_document', 'content'],
    ['ingest of 300 zero-width spaces', 'ingestLibraryDocument', { title: 'Blank', content: '\u200B'.repeat(300) }, 'empty_document', 'content'],
    ['refresh of invisible characters only', 'refreshLibraryDocument', { id: 'doc_1', content: '\uFEFF\u2060\u200D\n'.repeat(100) }, 'empty_document', 'content'],
    ['mapping of zero-width spaces', 'mapDocument', { framework: 'nist-csf-2', content: '\u200B'.repeat(300) }, 'missing_content', 'content'],
    ['ingest of Braille blanks (issue 37)', 'ingestLibraryDocument', { title: 'Blank', content: '\u2800'.repeat(300) }, 'empty_document', 'content'],
    ['ingest of combining marks alone', 'ingestLibraryDocument', { title: 'Blank', content: '\u0301'.repeat(300) }, 'empty_document', 'content'],
    ['mapping of a musical symbol', 'mapDocument', { framework: 'nist-csf-2', content: '\u{1D159}' }, 'missing_content', 'content'],
    ['an unknown pack', 'createCheckout', { pack: 'pack1000' }, 'invalid_pack', 'pack'],
    ['auto-top-up with an unknown pack', 'setAutoTopUp', { enabled: true, thresholdTokens: 200_000, pack: 'pack7' }, 'invalid_pack', 'pack'],
    ['a threshold under 100,000', 'setAutoTopUp', { enabled: true, thresholdTokens: 99_999, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens'],
    ['a fractional threshold', 'setAutoTopUp', { enabled: true, thresholdTokens: 150_000.5, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens'],
    ['enabling without a threshold', 'setAutoTopUp', { enabled: true, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens'],
    ['a weekly cadence', 'setCalendar', { cadence: 'weekly' }, 'invalid_cadence', 'cadence'],
    ['a date without time', 'setCalendar', { cadence: 'monthly', firstReviewAt: '2026-12-01' }, 'invalid_timestamp', 'firstReviewAt'],
    ['an impossible date', 'setCalendar', { cadence: 'monthly', firstReviewAt: '2026-13-45T09:00:00Z' }, 'invalid_timestamp', 'firstReviewAt'],
    ['an unknown field', 'getJob', { jobId: JOB_ID, verbose: true }, 'unknown_field', ''],
    ['a misspelt field', 'ingestLibraryDocument', { title: 'T', contents: LIBRARY_TEXT }, 'invalid_request', 'content'],
    ['a job id that is not a UUID', 'getJob', { jobId: '42' }, 'invalid_job_id', 'jobId'],
    ['a library id with a slash', 'getLibraryDocument', { id: '../billing' }, 'invalid_id', 'id'],
  ])('%s → %s', async (_, operationId, input, code, field) => {
    const error = await refusal(operationId, input);
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
    expect(error.operationId).toBe(operationId);
    expect(error.message.startsWith(`${operationId}: `)).toBe(true);
    expect(error.hint).toBeTruthy();
  });

  it('names the length of content that is too long', async () => {
    const error = await refusal('ingestLibraryDocument', { title: 'Long', content: tooLong });
    expect(error.message).toContain('300,001 characters counted as Unicode code points');
  });

  it('says which way it counted, and refuses only what no service could accept', async () => {
    // 199 UTF-16 code units: fewer code points still, so under the minimum counted either way.
    expect((await refusal('ingestLibraryDocument', { title: 'Short', content: '🔒'.repeat(99) + 'x' })).message).toContain('199 characters even counted as UTF-16 code units');
    await service.close();
    // 300,001 letters outside the BMP are 300,001 code points (600,002 code units): over the maximum counted either way.
    expect((await refusal('ingestLibraryDocument', { title: 'Long', content: '𝐀'.repeat(300_001) })).message).toContain('300,001 characters counted as Unicode code points');
  });

  it('a non-object input', async () => {
    expect((await refusal('ping', 'hello')).code).toBe('invalid_request');
  });
});

describe('upload checks', () => {
  it('over 10 MB → upload_too_large', async () => {
    const error = await refusal('mapDocument', {
      framework: 'nist-csf-2',
      file: { data: new Uint8Array(10 * 1024 * 1024 + 1), filename: 'big.pdf' },
    });
    expect(error).toMatchObject({ code: 'upload_too_large', field: 'file' });
    expect(error.message).toContain('10,485,761 bytes');
  });

  // Checked by validation alone: sending 10 MB scans it for the multipart boundary, which under
  // mutation testing's instrumented code outlasts the test's timeout.
  it('exactly 10 MB is allowed through the check', () => {
    service = new MockService();
    const file = { data: new Blob([new Uint8Array(10 * 1024 * 1024)]), filename: 'ok.pdf' };
    expect(validateInput('mapDocument', operations.mapDocument.input, { framework: 'nist-csf-2', file })).toMatchObject({ file });
  });

  it('a kind the service does not accept → unsupported_file_type naming the accepted kinds', async () => {
    const error = await refusal('mapDocument', { framework: 'nist-csf-2', file: { data: new Uint8Array(4), filename: 'tool.exe' } });
    expect(error).toMatchObject({ code: 'unsupported_file_type', field: 'file' });
    expect(error.message).toContain('.docx .pdf .xlsx .pptx .txt .md .markdown .csv');
  });

  it.each([
    ['old.doc', '.docx'],
    ['sheet.XLS', '.xlsx'],
    ['deck.ppt', '.pptx'],
  ])('legacy %s gets a hint to re-save as %s', async (filename, resave) => {
    const error = await refusal('mapDocument', { framework: 'nist-csf-2', file: { data: new Uint8Array(4), filename } });
    expect(error.code).toBe('unsupported_file_type');
    expect(error.hint).toContain(`Re-save the file as ${resave}`);
  });

  it('the accepted list is the agreed one', () => {
    service = new MockService();
    expect(UPLOAD_EXTENSIONS).toEqual(['.docx', '.pdf', '.xlsx', '.pptx', '.txt', '.md', '.markdown', '.csv']);
  });

  it('file and content together', async () => {
    const error = await refusal('mapDocument', { framework: 'x', content: 'text', file: { data: new Uint8Array(1), filename: 'a.txt' } });
    expect(error.field).toBe('file');
  });
});

describe('what is left to the service', () => {
  it('discovery with a jurisdiction and no query is sent', async () => {
    service = new MockService().reply(200, { mode: 'sandbox', candidates: [] });
    await makeClient(service, new FakeTime()).suggestFrameworks({ jurisdiction: 'EU' });
    expect(service.attempts).toHaveLength(1);
    service.attempts.length = 0;
  });
});

describe('client options', () => {
  const transport = async () => ({ status: 200, headers: {}, body: new Uint8Array() });
  const sleep = async () => {};
  const construct = (options: Record<string, unknown>) => () =>
    new ComplianceClient({ apiKey: 'k', baseUrl: 'https://api.example.test', transport, sleep, ...options } as never);

  it('quotes at most 200 characters of a base URL that is not a URL', () => {
    service = new MockService();
    const long = `${'a'.repeat(200)}TAIL`;
    expect(construct({ baseUrl: long })).toThrow(`baseUrl is not a URL: "${'a'.repeat(200)}"`);
  });

  it.each([
    ['http://api.example.com', /https/],
    ['http://10.0.0.8:8080', /https/],
    ['https://api.example.com/v2', /path must be empty or \/api\/public\/v1/],
    ['https://api.example.com/api/public/v1/extra', /path must be empty/],
    ['ftp://api.example.com', /https/],
    ['https://user:secret@api.example.com', /credentials/],
    ['https://api.example.com/?x=1', /query/],
    ['api.example.com', /not a URL/],
    ['', /required/],
  ])('refuses base URL %s', (baseUrl, message) => {
    service = new MockService();
    expect(construct({ baseUrl })).toThrow(ComplianceValidationError);
    expect(construct({ baseUrl })).toThrow(message);
  });

  it.each([
    ['https://api.example.com', 'https://api.example.com/api/public/v1'],
    ['https://api.example.com/', 'https://api.example.com/api/public/v1'],
    ['https://api.example.com/api/public/v1/', 'https://api.example.com/api/public/v1'],
    ['http://localhost:4010', 'http://localhost:4010/api/public/v1'],
    ['http://127.0.0.2:8080/api/public/v1', 'http://127.0.0.2:8080/api/public/v1'],
    ['http://[::1]:3000', 'http://[::1]:3000/api/public/v1'],
  ])('accepts base URL %s', (baseUrl, normalised) => {
    service = new MockService();
    expect(construct({ baseUrl })().baseUrl).toBe(normalised);
  });

  it.each([
    [{ timeoutMs: -1 }, 'timeoutMs'],
    [{ maxRetries: 1.5 }, 'maxRetries'],
    [{ maxElapsedMs: Number.NaN }, 'maxElapsedMs'],
    [{ authHeader: 'basic' }, 'authHeader'],
    [{ transport: undefined }, 'transport'],
    [{ sleep: undefined }, 'sleep'],
    [{ apiKey: '' }, 'apiKey'],
    [{ apiKey: 'key\nX-Injected: 1' }, 'apiKey'],
  ])('refuses option %o', (options, field) => {
    service = new MockService();
    expect(construct(options)).toThrow(expect.objectContaining({ field }));
  });
});

describe('what a refusal says, word for word', () => {
  const JOB = '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a';
  const CHECK = 'Check the value against the operation description.';
  const UNKNOWN = 'Remove the field or check its spelling against the operation description.';
  const QUERY = 'Describe what you need in plain language, for example "health data privacy in the US".';
  const FRAMEWORK = 'Name the framework or standard, for example "NIST CSF 2.0" or a slug from suggestFrameworks.';

  const REFUSALS: Array<[OperationId, unknown, string, string, string, string]> = [
    ['ping', 'hello', 'invalid_request', '', 'ping: input must be a JSON object', 'Pass an object such as {} or {"jobId": "…"}.'],
    ['ping', null, 'invalid_request', '', 'ping: input must be a JSON object', 'Pass an object such as {} or {"jobId": "…"}.'],
    ['ping', [], 'invalid_request', '', 'ping: input must be a JSON object', 'Pass an object such as {} or {"jobId": "…"}.'],
    ['getJob', { jobId: JOB, verbose: true }, 'unknown_field', '', 'getJob: unknown field: verbose', UNKNOWN],
    ['getJob', { jobId: JOB, verbose: true, extra: 1 }, 'unknown_field', '', 'getJob: unknown fields: verbose, extra', UNKNOWN],
    ['generateDocument', { framework: 'x', type: 'policy', organisation: { name: 'A', extra: 1 } }, 'unknown_field', 'organisation', 'generateDocument: unknown field in organisation: extra', UNKNOWN],
    ['generateDocument', { framework: 'x', type: 'policy', organisation: { name: 5 } }, 'invalid_request', 'organisation.name', 'generateDocument: organisation.name expected string, received number', CHECK],
    ['getJob', {}, 'invalid_job_id', 'jobId', 'getJob: jobId is required', 'Use the jobId (a UUID) returned when the job was created.'],
    ['getJob', { jobId: '42' }, 'invalid_job_id', 'jobId', `getJob: jobId must be a UUID such as ${JOB}`, 'Use the jobId (a UUID) returned when the job was created.'],
    ['downloadDocument', { jobId: JOB, format: 'html' }, 'unsupported_format', 'format', 'downloadDocument: format must be one of: json, md, pdf, docx', 'Use one of: json, md, pdf, docx.'],
    ['generateDocument', { framework: 5, type: 'policy' }, 'missing_framework', 'framework', 'generateDocument: framework expected string, received number', FRAMEWORK],
    ['generateDocument', { type: 'policy' }, 'missing_framework', 'framework', 'generateDocument: framework is required (aliases: standard, name)', FRAMEWORK],
    ['searchLibrary', { query: 5 }, 'missing_query', 'query', 'searchLibrary: query expected string, received number', QUERY],
    ['suggestFrameworks', { query: 5 }, 'missing_query', 'query', 'suggestFrameworks: query expected string, received number', QUERY],
    ['suggestFrameworks', {}, 'missing_query', 'query', 'suggestFrameworks: query is required', QUERY],
    ['listLibrary', { limit: 0 }, 'invalid_request', 'limit', 'listLibrary: limit expected number to be >=1', CHECK],
    ['listLibrary', { category: '' }, 'invalid_request', 'category', 'listLibrary: category expected string to have >=1 characters', CHECK],
    ['searchLibrary', { query: 'x', limit: 1.5 }, 'invalid_request', 'limit', 'searchLibrary: limit expected int, received number', CHECK],
    ['mapDocument', { framework: 'x', content: 5 }, 'invalid_request', 'content', 'mapDocument: content expected string, received number', CHECK],
    ['mapDocument', { framework: 'x' }, 'missing_content', 'content', 'mapDocument: give either content (text) or file (an upload)', 'Pass the document text as content, or a file to upload.'],
    ['getLibraryDocument', { id: '../b' }, 'invalid_id', 'id', 'getLibraryDocument: id must be a library document id as returned by ingest or the listing', 'Use the id returned by ingest or the library listing.'],
    ['getFramework', { slug: '../x' }, 'invalid_id', 'slug', 'getFramework: slug must be a framework slug such as nist-csf-2 (see suggestFrameworks)', 'Use the id returned by ingest or the library listing.'],
    ['createCheckout', { pack: 'pack1000' }, 'invalid_pack', 'pack', 'createCheckout: pack must be one of: pack10, pack25, pack50, pack100, pack200, pack500', 'Use one of: pack10, pack25, pack50, pack100, pack200, pack500.'],
    ['setAutoTopUp', { enabled: true, thresholdTokens: 99_999, pack: 'pack10' }, 'invalid_threshold', 'thresholdTokens', 'setAutoTopUp: thresholdTokens must be at least 100,000 tokens', 'Use a whole number of tokens of at least 100,000.'],
    ['setCalendar', { cadence: 'weekly' }, 'invalid_cadence', 'cadence', 'setCalendar: cadence must be one of: none, monthly, quarterly', 'Use one of: none, monthly, quarterly.'],
    ['setCalendar', { cadence: 'monthly', firstReviewAt: '2026-12-01' }, 'invalid_timestamp', 'firstReviewAt', 'setCalendar: firstReviewAt must be an ISO 8601 timestamp such as 2026-12-01T09:00:00Z', 'Use an ISO 8601 timestamp with a zone, for example 2026-12-01T09:00:00Z.'],
    ['ingestLibraryDocument', { title: 'Short', content: 'x' }, 'content_too_short', 'content', 'ingestLibraryDocument: content has 1 characters even counted as UTF-16 code units (the higher count); the library needs at least 200 characters', 'Library documents need at least 200 characters; merge very short files or add content.'],
    ['ingestLibraryDocument', { title: 'Long', content: tooLong }, 'content_too_long', 'content', 'ingestLibraryDocument: content has 300,001 characters counted as Unicode code points (the lower count); the library holds at most 300,000 characters', 'Library documents hold at most 300,000 characters; split the document.'],
    ['ingestLibraryDocument', { title: 'Blank', content: ' '.repeat(300) }, 'empty_document', 'content', 'ingestLibraryDocument: content has no letter or digit in any script (only white space, invisible characters, punctuation, symbols or marks)', "Send the document's text: without a letter or digit (white space, invisible characters, punctuation or symbols alone) it is not a document."],
  ];
  it.each(REFUSALS)('%s %j → %s on %j', (operationId, input, code, field, message, hint) => {
    service = new MockService();
    expect(() => validateInput(operationId, operations[operationId].input, input)).toThrow(expect.objectContaining({ code, field, operationId, message, hint }));
  });

  // The refusals above read the hints built once per process; built fresh here, so a change to one is seen.
  it('builds every refusal code its hint', () => {
    const fromHints = REFUSALS.filter(([, input]) => typeof input === 'object' && input !== null && !Array.isArray(input)).map(([, , code, , , hint]) => [code, hint]);
    expect(Object.fromEntries(fromHints)).toEqual(refusalHints());
  });
});
