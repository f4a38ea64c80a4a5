/**
 * Bad-input catalogue, part 1: the API module. Every row is refused locally with a
 * ComplianceValidationError that names the field (`field`, and the message) and says what to do
 * (`hint`), and nothing reaches the network (the transport records every request).
 */
import { describe, expect, it } from 'vitest';
import { ComplianceClient } from '../../api/client.js';
import { ComplianceValidationError } from '../../api/errors.js';
import type { Transport } from '../../api/transport.js';

const KEY = 'csk_live_hardening_badinput_api_0001';
const BASE = 'https://api.example.com/api/public/v1';
const sent: unknown[] = [];
const transport: Transport = async (request) => {
  sent.push(request);
  throw new Error('the bad-input catalogue must never reach the network');
};
const sleep = async () => {};
type Options = ConstructorParameters<typeof ComplianceClient>[0];
const make = (options: Partial<Options>) => new ComplianceClient({ apiKey: KEY, baseUrl: BASE, transport, sleep, ...options } as Options);
const client = make({ pacing: false });
const text = (n: number) => 'Access is reviewed quarterly. '.repeat(Math.ceil(n / 30)).slice(0, n);
const UUID = '3f1e2d4c-5b6a-4789-8abc-def012345678';
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- wrong types on purpose
const any = (value: unknown) => value as any;

interface Row {
  name: string;
  run: () => unknown;
  code: string;
  /** The field the error names. */
  field: string | RegExp;
  /** What the message must name, when not the field's last segment. */
  names?: string;
}

function nested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

export const API_ROWS: Row[] = [
  // Connection settings.
  { name: 'no base URL', run: () => make({ apiKey: KEY, baseUrl: '' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'base URL not a URL', run: () => make({ apiKey: KEY, baseUrl: 'not a url' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'plain http to a remote host', run: () => make({ apiKey: KEY, baseUrl: 'http://api.example.com/api/public/v1' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'ftp scheme', run: () => make({ apiKey: KEY, baseUrl: 'ftp://api.example.com' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'credentials in the URL', run: () => make({ apiKey: KEY, baseUrl: 'https://user:pw@api.example.com' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'query in the URL', run: () => make({ apiKey: KEY, baseUrl: 'https://api.example.com/api/public/v1?x=1' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'wrong path prefix', run: () => make({ apiKey: KEY, baseUrl: 'https://api.example.com/v2' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'path escaping with ..', run: () => make({ apiKey: KEY, baseUrl: 'https://api.example.com/api/public/v1/../../admin' }), code: 'invalid_base_url', field: 'baseUrl' },
  { name: 'missing key', run: () => make({ apiKey: '', baseUrl: BASE }), code: 'invalid_api_key', field: 'apiKey' },
  { name: 'key with a newline (header injection)', run: () => make({ apiKey: `${KEY}\r\nX-Evil: 1`, baseUrl: BASE }), code: 'invalid_api_key', field: 'apiKey' },
  { name: 'key with spaces', run: () => make({ apiKey: 'csk live key', baseUrl: BASE }), code: 'invalid_api_key', field: 'apiKey' },
  { name: 'key of the wrong type', run: () => make({ apiKey: any(12345), baseUrl: BASE }), code: 'invalid_api_key', field: 'apiKey' },
  { name: 'negative timeout', run: () => make({ apiKey: KEY, baseUrl: BASE, timeoutMs: -1 }), code: 'invalid_option', field: 'timeoutMs' },
  { name: 'unknown auth header style', run: () => make({ apiKey: KEY, baseUrl: BASE, authHeader: any('cookie') }), code: 'invalid_option', field: 'authHeader' },
  // Operations.
  { name: 'unknown operation id', run: () => client.call(any('deleteEverything'), {}), code: 'unknown_operation', field: /operation/, names: 'operation' },
  { name: 'discovery without a query', run: () => client.suggestFrameworks({}), code: 'missing_query', field: 'query' },
  { name: 'discovery query of the wrong type', run: () => client.suggestFrameworks({ query: any(42) }), code: /./.source, field: 'query' },
  { name: 'generation without framework', run: () => client.generateDocument(any({ type: 'policy' })), code: 'missing_framework', field: 'framework' },
  { name: 'generation with humanize as a string', run: () => client.generateDocument({ framework: 'gdpr', humanize: any('yes') }), code: /./.source, field: 'humanize' },
  { name: 'generation with organisation as a string', run: () => client.generateDocument({ framework: 'gdpr', organisation: any('Acme') }), code: /./.source, field: 'organisation' },
  { name: 'calendar with an unknown (misspelt) field', run: () => client.setCalendar(any({ cadence: 'monthly', firstReviewAtt: '2026-12-01T09:00:00Z' })), code: 'unknown_field', field: /^$|firstReviewAtt/, names: 'firstReviewAtt' },
  { name: 'generation with deeply nested JSON', run: () => client.generateDocument(any({ framework: 'gdpr', organisation: nested(200) })), code: /./.source, field: /organisation/ },
  { name: 'mapping without content or file', run: () => client.mapDocument(any({ framework: 'gdpr' })), code: 'missing_content', field: /content|file/ },
  { name: 'mapping upload over 10 MB', run: () => client.mapDocument({ framework: 'gdpr', file: { data: new Uint8Array(10 * 1024 * 1024 + 1), filename: 'big.pdf' } }), code: 'upload_too_large', field: /file/ },
  { name: 'mapping upload of an executable', run: () => client.mapDocument({ framework: 'gdpr', file: { data: new Uint8Array(10), filename: 'policy.exe' } }), code: 'unsupported_file_type', field: /file/ },
  { name: 'mapping upload of a legacy .doc', run: () => client.mapDocument({ framework: 'gdpr', file: { data: new Uint8Array(10), filename: 'policy.doc' } }), code: 'unsupported_file_type', field: /file/ },
  { name: 'job id not a UUID', run: () => client.getJob({ jobId: 'abc' }), code: 'invalid_job_id', field: 'jobId' },
  { name: 'job id with path traversal', run: () => client.getJob({ jobId: '../billing' }), code: 'invalid_job_id', field: 'jobId' },
  { name: 'download format unknown', run: () => client.downloadDocument({ jobId: UUID, format: any('exe') }), code: 'unsupported_format', field: 'format' },
  { name: 'ingest content too short', run: () => client.ingestLibraryDocument({ title: 'T', content: text(199) }), code: 'content_too_short', field: 'content' },
  { name: 'ingest content too long', run: () => client.ingestLibraryDocument({ title: 'T', content: text(300_001) }), code: 'content_too_long', field: 'content' },
  { name: 'ingest huge JSON (5 MB content)', run: () => client.ingestLibraryDocument({ title: 'T', content: text(5_000_000) }), code: 'content_too_long', field: 'content' },
  { name: 'ingest content of the wrong type', run: () => client.ingestLibraryDocument({ title: 'T', content: any({ text: 'x' }) }), code: /./.source, field: 'content' },
  { name: 'ingest tags as a number', run: () => client.ingestLibraryDocument({ title: 'T', content: text(300), tags: any(7) }), code: /./.source, field: 'tags' },
  { name: 'ingest without a title', run: () => client.ingestLibraryDocument(any({ content: text(300) })), code: /./.source, field: 'title' },
  { name: 'refresh with a path-escaping id', run: () => client.refreshLibraryDocument({ id: '../../billing', content: text(300) }), code: 'invalid_id', field: 'id' },
  { name: 'refresh content too short', run: () => client.refreshLibraryDocument({ id: 'doc_0123456789abcdef', content: 'short' }), code: 'content_too_short', field: 'content' },
  { name: 'delete with an id containing a slash', run: () => client.deleteLibraryDocument({ id: 'doc_1/../x' }), code: 'invalid_id', field: 'id' },
  { name: 'search without a query', run: () => client.searchLibrary(any({ limit: 5 })), code: 'missing_query', field: 'query' },
  { name: 'search limit not a number', run: () => client.searchLibrary({ query: 'x', limit: any('ten') }), code: /./.source, field: 'limit' },
  { name: 'checkout with an unknown pack', run: () => client.createCheckout({ pack: any('pack1000') }), code: 'invalid_pack', field: 'pack' },
  { name: 'checkout without a pack', run: () => client.createCheckout(any({})), code: 'invalid_pack', field: 'pack' },
  { name: 'auto-top-up threshold below 100,000', run: () => client.setAutoTopUp({ enabled: true, thresholdTokens: 99_999, pack: 'pack10' }), code: 'invalid_threshold', field: 'thresholdTokens' },
  { name: 'auto-top-up threshold not whole', run: () => client.setAutoTopUp({ enabled: true, thresholdTokens: 150_000.5, pack: 'pack10' }), code: 'invalid_threshold', field: 'thresholdTokens' },
  { name: 'auto-top-up with a bad pack', run: () => client.setAutoTopUp({ enabled: true, thresholdTokens: 200_000, pack: any('pack7') }), code: 'invalid_pack', field: 'pack' },
  { name: 'auto-top-up enabled as a string', run: () => client.setAutoTopUp({ enabled: any('true'), thresholdTokens: 200_000, pack: 'pack10' }), code: /./.source, field: 'enabled' },
  { name: 'calendar with a weekly cadence', run: () => client.setCalendar({ cadence: any('weekly') }), code: 'invalid_cadence', field: 'cadence' },
  { name: 'calendar date without a zone', run: () => client.setCalendar({ cadence: 'monthly', firstReviewAt: '2026-12-01T09:00:00' }), code: 'invalid_timestamp', field: 'firstReviewAt' },
  { name: 'calendar date that does not exist', run: () => client.setCalendar({ cadence: 'monthly', firstReviewAt: '2026-02-30T09:00:00Z' }), code: 'invalid_timestamp', field: 'firstReviewAt' },
  { name: 'calendar date in prose', run: () => client.setCalendar({ cadence: 'quarterly', firstReviewAt: 'next monday' }), code: 'invalid_timestamp', field: 'firstReviewAt' },
  { name: 'framework slug with a path', run: () => client.getFramework({ slug: '../../etc/passwd' }), code: /./.source, field: 'slug' },
];

describe('bad input: API module', () => {
  it.each(API_ROWS)('$name → $code naming $field, nothing sent', async (row) => {
    sent.length = 0;
    let error: unknown;
    try {
      await row.run();
    } catch (caught) {
      error = caught;
    }
    expect(error, 'must be refused').toBeInstanceOf(ComplianceValidationError);
    const refusal = error as ComplianceValidationError;
    if (row.code !== /./.source) expect(refusal.code).toBe(row.code);
    else expect(refusal.code).toMatch(/^[a-z_]+$/);
    if (typeof row.field === 'string') expect(refusal.field).toBe(row.field);
    else expect(refusal.field).toMatch(row.field);
    // The message names the field, the hint says what to do; neither carries the key.
    const fieldName = row.names ?? String(refusal.field).split('.').pop()!;
    expect(`${refusal.message} ${refusal.hint ?? ''}`.toLowerCase()).toContain(fieldName.toLowerCase());
    expect((refusal.hint ?? '').length, 'a hint with the fix').toBeGreaterThan(5);
    expect(`${refusal.message} ${refusal.hint}`).not.toContain(KEY);
    expect(sent).toEqual([]);
  });
});
