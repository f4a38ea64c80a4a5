/**
 * The client's request validation (zod, api/validation.ts) and the sandbox's (Ajv over the OpenAPI
 * document it serves, sandbox/server/requestValidation.ts) are two readings of the operation table.
 * Both run over valid and invalid examples of every operation and must agree on accept or refuse and
 * on the service code; a rule changed on one side only is a disagreement naming operation and input.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/v4/mini';
import { ComplianceValidationError } from '../../api/errors.js';
import { operationIds, operations, type OperationId } from '../../api/operations.js';
import { searchLibraryInput } from '../../api/schemas/requests.js';
import { validateInput } from '../../api/validation.js';
import type { RunningSandbox } from '../../sandbox/index.js';
import { HttpError } from '../../sandbox/server/httpError.js';
import { normalizeInput } from '../../sandbox/server/normalizeInput.js';
import { compileRequestValidators, type RequestValidator } from '../../sandbox/server/requestValidation.js';
import { client, sandbox } from './helpers.js';

type Input = Record<string, unknown>;
type OpenApi = Parameters<typeof compileRequestValidators>[0];

const UUID = '3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a';
const TEXT = 'Access to production systems is reviewed every quarter by the security team. '.repeat(3);
const file = (filename = 'policy.txt') => ({ data: new TextEncoder().encode(TEXT), filename });
const EMPTY = { valid: [{}], invalid: [{ verbose: '1' }] };

/** Inputs in the `call` convention, as the sandbox assembles them (query values already typed). */
const EXAMPLES: Record<OperationId, { valid: Input[]; invalid: Input[] }> = {
  getServiceCard: EMPTY,
  getOpenApi: EMPTY,
  ping: EMPTY,
  getCapabilities: EMPTY,
  getUsage: EMPTY,
  getBilling: EMPTY,
  getAutoTopUp: EMPTY,
  getCalendar: EMPTY,
  suggestFrameworks: {
    valid: [{ query: 'health data privacy in the US' }, { jurisdiction: 'US' }, { domain: 'privacy', regulator: 'HHS' }, { query: 'x', unlisted: 'ignored' }, { query: '  padded  ', jurisdiction: ' US\t' }],
    invalid: [{}, { query: 42 }, { query: '' }, { query: '   ' }, { domain: '' }, { query: '  ', jurisdiction: 'US' }, { query: ['a'] }],
  },
  getFramework: { valid: [{ slug: 'nist-csf-2' }, { slug: 'ISO_27001.v2' }], invalid: [{ slug: '-bad' }, { slug: 'a b' }, {}, { slug: 'gdpr', extra: 'x' }] },
  generateDocument: {
    valid: [
      { framework: 'gdpr' },
      { standard: 'gdpr', documentType: 'policy' },
      { name: 'ISO 27001', organisation: { name: 'Acme' }, humanize: true, context: '' },
      { standard: ' gdpr ', type: ' policy', organisation: { name: ' Acme ', country: 'DE ' }, context: '  kept as written  ' },
    ],
    invalid: [
      { type: 'policy' },
      { framework: '  ' },
      { framework: 'gdpr', organisation: { a: 1 } },
      { framework: 'gdpr', humanize: 'yes' },
      { framework: 'gdpr', context: 5 },
      { framework: 'gdpr', organisation: { country: '' } },
    ],
  },
  mapDocument: {
    valid: [{ framework: 'gdpr', content: 'text' }, { framework: 'gdpr', file: file() }, { framework: 'gdpr', title: 'Policies', file: file('p.md') }],
    invalid: [
      { content: 'text' },
      { framework: 'gdpr' },
      { framework: 'gdpr', content: '   ' },
      { framework: 'gdpr', content: '\u200B\uFEFF\u2060 \n' },
      { framework: 'gdpr', content: 5 },
      { framework: '', content: 'text' },
      { framework: 'gdpr', file: file(), content: 'text' },
      { file: file() },
      { framework: 'gdpr', file: 'not a file part' },
      { framework: 'gdpr', title: ' ', file: file() },
    ],
  },
  getJob: { valid: [{ jobId: UUID }, { jobId: UUID.toUpperCase() }], invalid: [{ jobId: 'abc' }, {}, { jobId: UUID, extra: '1' }, { jobId: `${UUID}0` }] },
  downloadDocument: { valid: [{ jobId: UUID }, { jobId: UUID, format: 'pdf' }], invalid: [{ jobId: UUID, format: 'exe' }, { jobId: 'x', format: 'md' }] },
  ingestLibraryDocument: {
    valid: [
      { title: 'T', content: TEXT },
      { title: 'T', content: TEXT, tags: ['a', 'b'], category: 'policy', filename: 'docs/a.md' },
      { title: 'T', content: TEXT, tags: 'a, b' },
      { title: '  Padded title ', content: TEXT, tags: ' a ,, b ,', category: ' policy ' },
      { title: 'T', content: TEXT, tags: [' a', 'b '] },
      { title: 'x'.repeat(500), content: 'y'.repeat(300_000) },
      // Characters are code points: 200 letters outside the BMP are 200 (400 UTF-16 code units), and 300,000 fit.
      { title: 'T', content: '𝐀'.repeat(200) },
      { title: 'T', content: '𝐀'.repeat(300_000) },
    ],
    invalid: [
      { title: 'T', content: 'too short' },
      { title: 'T', content: ' '.repeat(300) },
      { title: 'T', content: '\u200B'.repeat(300) },
      { title: 'T', content: '\u2800'.repeat(300) },
      { title: 'T', content: '\u0301'.repeat(300) },
      { title: 'T', content: '🔒'.repeat(300) },
      { title: 'T', content: '𝐀'.repeat(300_001) },
      { title: 'T', content: 'a'.repeat(300_001) },
      { title: 'T', content: 12345 },
      { title: 'T', content: TEXT, owner: 'x' },
      { title: '', content: TEXT },
      { title: ' ', content: TEXT },
      { title: 'x'.repeat(501), content: TEXT },
      { title: 'T', content: TEXT, tags: 42 },
      { title: 'T', content: TEXT, tags: [' '] },
      { title: 'T' },
      { content: TEXT },
    ],
  },
  refreshLibraryDocument: {
    valid: [{ id: 'doc_1', content: TEXT }],
    invalid: [{ id: 'doc_1', content: 'short' }, { id: 'doc_1', content: '\u200B'.repeat(300) }, { id: 'doc_1', content: 'a'.repeat(300_001) }, { id: '-x', content: TEXT }, { id: 'doc_1', content: TEXT, title: 'T' }],
  },
  listLibrary: {
    valid: [{}, { page: 2, limit: 10, category: 'policy', tag: 'access', cursor: 'abc' }],
    invalid: [{ page: 0 }, { limit: 1.5 }, { page: 'abc' }, { sort: 'title' }, { category: '' }, { tag: '  ' }],
  },
  getLibraryDocument: { valid: [{ id: 'doc_1' }, { id: 'doc_1', include: 'content' }], invalid: [{ id: 'doc_1', include: 'all' }, { id: 'a/b' }, { id: '..' }] },
  deleteLibraryDocument: { valid: [{ id: 'doc_1' }], invalid: [{ id: '' }, { id: 'doc_1', force: 'true' }] },
  searchLibrary: {
    valid: [{ query: 'backups' }, { query: 'x', limit: 5, tags: 'a,b', category: 'c' }, { query: 'x', limit: 1000 }],
    invalid: [{}, { query: '  ' }, { query: 'x', colour: 'red' }, { query: 'x', limit: 0 }, { query: 'x', limit: '5' }, { query: 7 }],
  },
  createCheckout: { valid: [{ pack: 'pack10' }, { pack: 'pack500' }], invalid: [{ pack: 'pack7' }, {}, { pack: 'pack10', coupon: 'x' }] },
  setAutoTopUp: {
    valid: [{ enabled: false }, { enabled: true, thresholdTokens: 100_000, pack: 'pack10' }, { enabled: false, thresholdTokens: 200_000 }, { enabled: false, unlisted: 1 }],
    invalid: [
      { enabled: true },
      { enabled: true, thresholdTokens: 200_000 },
      { enabled: true, pack: 'pack10' },
      { enabled: 'yes' },
      {},
      { enabled: true, thresholdTokens: 5, pack: 'pack10' },
      { enabled: true, thresholdTokens: '200000', pack: 'pack10' },
      { enabled: true, thresholdTokens: 150_000.5, pack: 'pack10' },
      { enabled: true, thresholdTokens: 200_000, pack: 'pack1' },
    ],
  },
  setCalendar: {
    valid: [
      { cadence: 'monthly' },
      { cadence: 'none' },
      { cadence: 'quarterly', firstReviewAt: '2026-12-01T09:00:00Z' },
      { cadence: 'monthly', firstReviewAt: '2028-02-29T00:00Z' },
      { cadence: 'monthly', firstReviewAt: '2000-02-29T00:00Z' },
      { cadence: 'monthly', firstReviewAt: '2026-12-01T09:00+05:30' },
      { cadence: 'monthly', firstReviewAt: '2026-12-01T24:00Z' },
      { cadence: 'monthly', firstReviewAt: '2026-12-01T19:59:59.123456789-0800' },
    ],
    invalid: [
      { cadence: 'weekly' },
      {},
      { cadence: 'monthly', extra: 1 },
      ...[
        '2026-02-30T09:00:00Z',
        '2026-02-29T09:00:00Z',
        '2100-02-29T00:00Z',
        '2026-04-31T00:00Z',
        '2026-13-01T00:00Z',
        '2026-00-10T00:00Z',
        '01/12/2026',
        'tomorrow',
        '2026-12-01T09:00:00',
        '2026-12-01T25:00Z',
        '2026-12-01T09:60Z',
        '2026-12-01T09:00:60Z',
        '2026-12-01T09:00+24:00',
        '2026-12-01T24:00:00.5Z',
        '2026-12-01T24:01Z',
      ].map((firstReviewAt) => ({ cadence: 'monthly', firstReviewAt })),
    ],
  },
};

type Verdict = 'accepted' | string;

const kindOf = (id: OperationId, input: Input) =>
  operations[id].method === 'GET' || operations[id].method === 'DELETE' ? 'params' : 'file' in input ? 'multipart' : 'json';

function clientVerdict(id: OperationId, schema: z.ZodMiniType, input: Input): Verdict {
  try {
    validateInput(id, schema, input);
    return 'accepted';
  } catch (error) {
    if (error instanceof ComplianceValidationError) return error.code;
    throw error;
  }
}

function sandboxVerdict(validate: RequestValidator, id: OperationId, input: Input): Verdict {
  try {
    validate(id, kindOf(id, input), input);
    return 'accepted';
  } catch (error) {
    if (error instanceof HttpError) return error.code;
    throw error;
  }
}

const show = (input: Input) => JSON.stringify(input, (_key, value: unknown) => (value instanceof Uint8Array ? `<${value.length} bytes>` : typeof value === 'string' && value.length > 40 ? `<${value.length} chars>` : value));

/** Every example on which the two validations differ, as "operation input: client … / sandbox …". */
function disagreements(validate: RequestValidator, schemas: Partial<Record<OperationId, z.ZodMiniType>> = {}): string[] {
  const found: string[] = [];
  for (const id of operationIds) {
    for (const input of [...EXAMPLES[id].valid, ...EXAMPLES[id].invalid]) {
      const ours = clientVerdict(id, schemas[id] ?? operations[id].input, input);
      const theirs = sandboxVerdict(validate, id, input);
      if (ours !== theirs) found.push(`${id} ${show(input)}: client ${ours} / sandbox ${theirs}`);
    }
  }
  return found;
}

let box: RunningSandbox;
let served: OpenApi;
let validate: RequestValidator;

beforeAll(async () => {
  box = await sandbox({ rateLimitPerMinute: 1_000_000 });
  served = (await client(box, null)('GET', '/openapi.json')).body as OpenApi;
  validate = compileRequestValidators(structuredClone(served), { eager: true });
});
afterAll(async () => {
  await box?.close();
});

describe('client and sandbox request validation agree', () => {
  it('has valid and invalid examples for every operation of the table', () => {
    for (const id of operationIds) {
      expect(EXAMPLES[id].valid.length, id).toBeGreaterThan(0);
      expect(EXAMPLES[id].invalid.length, id).toBeGreaterThan(0);
    }
  });

  it('compiles every request schema of the served document against the meta-schema, in strict mode', () => {
    expect(() => compileRequestValidators(structuredClone(served), { eager: true })).not.toThrow();
    const typo = structuredClone(served) as unknown as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, Record<string, unknown>> } }> } }>> };
    typo.paths['/library/search']!.post!.requestBody.content['application/json']!.schema.properties.limit!.minimun = 1;
    expect(() => compileRequestValidators(typo as unknown as OpenApi, { eager: true })).toThrow(/unknown keyword: "minimun"/);
  });

  it('the valid examples pass both and the invalid ones fail both, with the same code', () => {
    for (const id of operationIds) {
      for (const input of EXAMPLES[id].valid) expect(clientVerdict(id, operations[id].input, input), `${id} ${show(input)}`).toBe('accepted');
      for (const input of EXAMPLES[id].invalid) expect(clientVerdict(id, operations[id].input, input), `${id} ${show(input)}`).not.toBe('accepted');
    }
    expect(disagreements(validate)).toEqual([]);
  });

  it('the sandbox shapes what its validation accepted exactly as the table\'s schema would parse it', () => {
    for (const id of operationIds) {
      for (const input of EXAMPLES[id].valid) {
        expect(normalizeInput(operations[id].input, input), `${id} ${show(input)}`).toStrictEqual(operations[id].input.parse(input));
      }
    }
    // Spot checks that the walk does reshape: trims, tag lists, aliases folded, unnamed keys dropped.
    expect(normalizeInput(operations.ingestLibraryDocument.input, { title: '  Padded title ', content: TEXT, tags: ' a ,, b ,' })).toStrictEqual({ title: 'Padded title', content: TEXT, tags: ['a', 'b'] });
    expect(normalizeInput(operations.generateDocument.input, { standard: ' gdpr ', documentType: 'policy' })).toStrictEqual({ framework: 'gdpr', type: 'policy' });
    expect(normalizeInput(operations.suggestFrameworks.input, { query: 'x', unlisted: 'ignored' })).toStrictEqual({ query: 'x' });
  });

  it('catches a client schema that drifts from the document (a limit of 0 allowed by the client only)', () => {
    const drifted = { searchLibrary: z.strictObject({ ...searchLibraryInput.shape, limit: z.optional(z.int().check(z.gte(0))) }) };
    expect(disagreements(validate, drifted)).toEqual(['searchLibrary {"query":"x","limit":0}: client accepted / sandbox invalid_request']);
  });

  it('catches a document that drifts from the client schema (discovery with no criterion allowed by the document only)', () => {
    const document = structuredClone(served) as unknown as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } }>> };
    delete document.paths['/frameworks/suggest']!.post!.requestBody.content['application/json']!.schema.anyOf;
    expect(disagreements(compileRequestValidators(document as unknown as OpenApi, { eager: true }))).toEqual(['suggestFrameworks {}: client missing_query / sandbox accepted']);
  });
});

describe('the sandbox refuses over raw HTTP what the client refuses, through its own validation', () => {
  const pathOf = (id: OperationId, input: Input) => operations[id].path.replace(/\{(\w+)\}/g, (_m, name: string) => String(input[name]));
  const urlSafe = (id: OperationId, input: Input) => operations[id].pathParams.every((name) => typeof input[name] === 'string' && /^[\w-]+$/.test(input[name]));

  it('answers every invalid example sent with fetch (no client) 400 with the client’s code, naming the field', async () => {
    const call = client(box);
    let sent = 0;
    for (const id of operationIds) {
      const { method, pathParams, public: isPublic } = operations[id];
      if (isPublic) continue; // served before validation (the card, the document)
      for (const input of EXAMPLES[id].invalid.filter((example) => urlSafe(id, example))) {
        const rest = Object.fromEntries(Object.entries(input).filter(([name]) => !pathParams.includes(name)));
        let answer;
        if (method === 'GET' || method === 'DELETE') {
          const query = new URLSearchParams(Object.entries(rest).map(([name, value]) => [name, String(value)] as [string, string]));
          answer = await call(method, `${pathOf(id, input)}${query.size ? `?${query}` : ''}`);
        } else if ('file' in input) {
          const form = new FormData();
          for (const [name, value] of Object.entries(rest)) {
            if (typeof value === 'object' && value !== null) form.set(name, new Blob([(value as { data: Uint8Array }).data]), (value as { filename: string }).filename);
            else form.set(name, String(value));
          }
          answer = await call(method, pathOf(id, input), { rawBody: form });
        } else {
          answer = await call(method, pathOf(id, input), { body: rest });
        }
        const expected = clientVerdict(id, operations[id].input, input);
        expect([answer.status, answer.body?.error?.code], `${id} ${show(input)}: ${answer.text.slice(0, 200)}`).toEqual([400, expected]);
        const field = answer.body.error.field as string | undefined;
        if (field) expect(answer.body.error.message, `${id} ${show(input)}`).toContain(field.split('.')[0]);
        sent++;
      }
    }
    expect(sent).toBeGreaterThan(80);
  });
});
