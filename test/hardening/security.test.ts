/**
 * Security proofs: the leak scanner itself, key hashes only at rest (the raw bytes of the sandbox's
 * SQLite files), the bad-key block, per-key isolation over the whole operation table, request size
 * limits, no stack traces in any error answer, and the actions' action.yml files (no `run:` steps,
 * no interpolated inputs, node24 bundles, pinned references).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, type OperationId } from '../../api/operations.js';
import { startSandbox, type RunningSandbox } from '../../sandbox/index.js';
import { client, policyText, type Answer } from '../sandbox/helpers.js';
import { startSandboxProcess } from './harness.js';
import { collect, encodings, findLeaks, guardLeaks, registerSecret } from './leaks.js';

guardLeaks();

const OWNER = 'csk_live_hardening_owner_key_0001';
const INTRUDER = 'csk_live_hardening_intruder_0002';
const ROOT = join(import.meta.dirname, '../..');

function noStackTrace(answer: Answer): void {
  expect(answer.text).not.toMatch(/\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node:internal|\.ts:\d+|\.js:\d+|Error: /);
  collect('sandbox answer', answer.text);
}

describe('the leak scanner', () => {
  const secret = 'csk_live_scanner_selftest_0001';
  it.each([
    ['verbatim', `key=${secret}`],
    ['base64, offset 0', Buffer.from(secret).toString('base64')],
    ['base64 inside a Basic header (offset 1)', Buffer.from(`x${secret}:`).toString('base64')],
    ['base64 at offset 2', Buffer.from(`ab${secret}`).toString('base64')],
    ['base64url', Buffer.from(`a${secret}`).toString('base64url')],
    ['URL-encoded', encodeURIComponent(`${secret}/é`)],
    ['hex', Buffer.from(secret).toString('hex')],
  ])('finds a secret %s', (_label, text) => {
    expect(findLeaks([{ place: 'test', text }], [secret]).length).toBeGreaterThan(0);
  });
  it('does not flag a masked key or unrelated text', () => {
    expect(findLeaks([{ place: 'test', text: 'csk_live_…0001 and csk_live_scanner' }], [secret])).toEqual([]);
    expect(encodings(secret).every((form) => form.length >= 8)).toBe(true);
  });
});

describe('sandbox: keys at rest', () => {
  it('the --data files hold only SHA-256 hashes of the keys, in no encoding the raw bytes would show', { timeout: 60_000 }, async () => {
    const box = await startSandboxProcess({ keys: [`${OWNER}:live:9000000`, `${INTRUDER}:live:9000000`], faults: false, label: 'sandbox (keys at rest)' });
    try {
      const owner = client({ baseUrl: box.baseUrl } as RunningSandbox, OWNER);
      expect((await owner('GET', '/ping')).status).toBe(200);
      expect((await owner('POST', '/library/documents', { body: { title: 'At rest', content: policyText('rest') } })).status).toBe(202);
      expect((await owner('GET', '/ping', { key: `${OWNER}x` })).status).toBe(401);
    } finally {
      await box.stop();
    }
    const files = readdirSync(box.dataDir).filter((file) => file.startsWith('sandbox.sqlite'));
    expect(files).toContain('sandbox.sqlite');
    const bytes = files.map((file) => ({ place: file, text: readFileSync(join(box.dataDir, file)).toString('latin1') }));
    expect(findLeaks(bytes, [OWNER, INTRUDER])).toEqual([]);
    const { createHash } = await import('node:crypto');
    expect(bytes.some(({ text }) => text.includes(createHash('sha256').update(OWNER).digest('hex')))).toBe(true);
  });
});

describe('sandbox over HTTP', () => {
  let box: RunningSandbox;
  beforeAll(async () => {
    registerSecret(OWNER, INTRUDER);
    box = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [`${OWNER}:live:90000000`, `${INTRUDER}:live:90000000`] });
  });
  afterAll(async () => {
    await box?.close();
  });

  it('refuses an address\'s further bad keys after repeated ones (429 auth_blocked with Retry-After) while its valid keys are served; public paths stay open', async () => {
    const call = client(box, OWNER);
    const answers: number[] = [];
    for (let i = 0; i < 12; i++) answers.push((await call('GET', '/ping', { key: `csk_live_guess_${i}_xxxxxxxx` })).status);
    expect(answers.slice(0, 10).every((status) => status === 401)).toBe(true);
    const blocked = await call('GET', '/ping', { key: 'csk_live_guess_final_xxxxxxxx' });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('auth_blocked');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    noStackTrace(blocked);
    expect((await call('GET', '/ping')).status).toBe(200);
    expect((await call('GET', '/ping', { key: INTRUDER })).status).toBe(200);
    expect((await call('GET', '/', { key: null })).status).toBe(200);
  });

  it('isolates keys: the second key gets 404 (as for an unknown id) on every read and write of the first key\'s resources, and nothing changes', { timeout: 60_000 }, async () => {
    const fresh = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [`${OWNER}:live:90000000`, `${INTRUDER}:live:90000000`] });
    try {
      const owner = client(fresh, OWNER);
      const intruder = client(fresh, INTRUDER);
      const ingest = await owner('POST', '/library/documents', { body: { title: 'Owner only', content: policyText('owner') } });
      const generate = await owner('POST', '/documents/generate', { body: { framework: 'gdpr' } });
      const map = await owner('POST', '/documents/map', { body: { framework: 'hipaa-security', content: policyText('map') } });
      const ids = { id: ingest.body.documentId as string, jobId: generate.body.jobId as string, mapJob: map.body.jobId as string, ingestJob: ingest.body.jobId as string };
      const snapshot = async () => JSON.stringify([(await owner('GET', '/library')).body.documents, (await owner('GET', '/billing')).body.balanceTokens, (await owner('GET', `/jobs/${ids.jobId}`)).body.status]);
      const before = await snapshot();
      const unknownDoc = 'doc_00000000deadbeef';
      const unknownJob = '00000000-0000-4000-8000-000000000000';
      // Every operation of the table that takes one of the owner's ids.
      const attempts: Array<{ op: OperationId; method: string; path: (id: string, job: string) => string; body?: unknown }> = [
        { op: 'getJob', method: 'GET', path: (_id, job) => `/jobs/${job}` },
        { op: 'downloadDocument', method: 'GET', path: (_id, job) => `/documents/${job}` },
        { op: 'getLibraryDocument', method: 'GET', path: (id) => `/library/documents/${id}?include=content` },
        { op: 'refreshLibraryDocument', method: 'POST', path: (id) => `/library/documents/${id}/refresh`, body: { content: policyText('hijack') } },
        { op: 'deleteLibraryDocument', method: 'DELETE', path: (id) => `/library/documents/${id}` },
      ];
      const withIds = Object.values(operations).filter((operation) => /\{(id|jobId)\}/.test(operation.path)).map((operation) => operation.id).sort();
      expect(attempts.map((attempt) => attempt.op).sort()).toEqual(withIds);
      for (const attempt of attempts) {
        for (const job of [ids.jobId, ids.mapJob, ids.ingestJob]) {
          const theirs = await intruder(attempt.method, attempt.path(ids.id, job), attempt.body === undefined ? {} : { body: attempt.body });
          const unknown = await intruder(attempt.method, attempt.path(unknownDoc, unknownJob), attempt.body === undefined ? {} : { body: attempt.body });
          noStackTrace(theirs);
          expect(theirs.status, `${attempt.op} on the owner's resource`).toBe(404);
          // Indistinguishable from an unknown id: same status, code and texts (the echoed id aside).
          const shape = (answer: Answer, id: string, jobId: string) =>
            [answer.status, answer.body.error.code, answer.body.error.message, answer.body.error.hint].map((part) => String(part).replaceAll(id, 'ID').replaceAll(jobId, 'JOB'));
          expect(shape(theirs, ids.id, job)).toEqual(shape(unknown, unknownDoc, unknownJob));
        }
      }
      // Reads without ids only ever show the intruder's own data.
      expect((await intruder('GET', '/library')).body.documents).toEqual([]);
      expect((await intruder('POST', '/library/search', { body: { query: 'owner policy' } })).body.results).toEqual([]);
      expect(JSON.stringify((await intruder('GET', '/billing')).body.ledger)).not.toMatch(new RegExp(`${ids.jobId}|${ids.ingestJob}|${ids.mapJob}`));
      expect(await snapshot()).toBe(before);
    } finally {
      await fresh.close();
    }
  });

  it('limits request sizes (413 payload_too_large before reading it all) and answers every malformed input with the envelope only', { timeout: 60_000 }, async () => {
    const fresh = await startSandbox({ port: 0, jobSeconds: 0, rateLimitPerMinute: 1_000_000, keys: [`${OWNER}:live:90000000`] });
    try {
      const call = client(fresh, OWNER);
      const big = await call('POST', '/library/documents', { rawBody: `{"title":"x","content":"${'a'.repeat(2 * 1024 * 1024 + 10)}"}`, headers: { 'content-type': 'application/json' } });
      expect(big.status).toBe(413);
      expect(big.body.error.code).toBe('payload_too_large');
      const form = new FormData();
      form.set('framework', 'gdpr');
      form.set('file', new Blob([new Uint8Array(11 * 1024 * 1024)]), 'x.txt');
      const bigUpload = await call('POST', '/documents/map', { rawBody: form });
      expect(bigUpload.status).toBe(413);
      const malformed: Array<[string, string, { rawBody?: string; headers?: Record<string, string> }]> = [
        ['POST', '/frameworks/suggest', { rawBody: '{', headers: { 'content-type': 'application/json' } }],
        ['POST', '/frameworks/suggest', { rawBody: 'null', headers: { 'content-type': 'application/json' } }],
        ['POST', '/frameworks/suggest', { rawBody: '{"query": {"$gt": ""}}', headers: { 'content-type': 'application/json' } }],
        ['POST', '/documents/map', { rawBody: '--x\r\nbroken', headers: { 'content-type': 'multipart/form-data; boundary=x' } }],
        ['POST', '/documents/map', { rawBody: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } }],
        ['GET', '/jobs/%E0%A4%A', {}],
        ['GET', '/library?limit=-1', {}],
        ['GET', '/library?cursor=%00%00', {}],
        ['GET', `/frameworks/${'a'.repeat(5000)}`, {}],
        ['PUT', '/calendar', { rawBody: '{"cadence": ["monthly"]}', headers: { 'content-type': 'application/json' } }],
        ['DELETE', '/library/documents/%2e%2e%2fbilling', {}],
        ['POST', '/library/search', { rawBody: `{"query": "${'x '.repeat(600)}"}`, headers: { 'content-type': 'application/json' } }],
        ['GET', '/_sandbox/checkout/../../etc/passwd', {}],
        ['POST', '/_sandbox/clock', { rawBody: '{"advanceSeconds": "soon"}' }],
      ];
      for (const [method, path, options] of malformed) {
        const answer = await call(method, path, options);
        noStackTrace(answer);
        expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
        expect(answer.status, `${method} ${path}`).toBeLessThan(500);
        expect(Object.keys(answer.body ?? {}), `${method} ${path}: ${answer.text.slice(0, 200)}`).toEqual(['error']);
        expect(answer.body.error.requestId).toMatch(/^req_/);
      }
    } finally {
      await fresh.close();
    }
  });
});

describe('actions: action.yml', () => {
  const actions = readdirSync(join(ROOT, 'actions'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'shared')
    .map((entry) => entry.name);

  it.each(actions)('%s runs its committed node24 bundle, has no run: step, interpolates nothing and pins any uses:', (name) => {
    const text = readFileSync(join(ROOT, 'actions', name, 'action.yml'), 'utf8');
    expect(text).toMatch(/using:\s*'?node24'?/);
    expect(text).toMatch(/main:\s*'?dist\/index\.js'?/);
    expect(text).not.toMatch(/^\s*(-\s*)?run:/m);
    expect(text).not.toMatch(/using:\s*'?composite/);
    // Expressions appear only as documented defaults of tokens (github.token), never built from inputs or events.
    const code = text.split('\n').filter((line) => !/^\s*description:/.test(line)).join('\n');
    const expressions = [...code.matchAll(/\$\{\{([^}]*)\}\}/g)].map((match) => match[1]!.trim());
    expect(expressions.filter((expression) => expression !== 'github.token')).toEqual([]);
    for (const use of text.matchAll(/uses:\s*([^\s#]+)/g)) expect(use[1]).toMatch(/@[0-9a-f]{40}$/);
    // No file of the bundle spawns a shell with an input.
    const dist = join(ROOT, 'actions', name, 'dist');
    for (const file of readdirSync(dist).filter((entry) => entry.endsWith('.js'))) expect(readFileSync(join(dist, file), 'utf8'), file).not.toMatch(/child_process["']\)\.exec(Sync)?\(/);
  });
});
