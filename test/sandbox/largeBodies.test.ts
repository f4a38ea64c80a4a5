/**
 * JSON bodies over 256 KB are parsed in a worker (sandbox/server/jsonBodyPool.ts), in their key's
 * turn: answers are the ones a small body gets, and a key with enough large bodies being parsed is
 * refused at once while another key is still served.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../sandbox/index.js';
import { HttpError } from '../../sandbox/server/httpError.js';
import { LARGE_JSON_BODY_BYTES, parseLargeJson } from '../../sandbox/server/jsonBodyPool.js';
import { client, envelope, sandbox } from './helpers.js';

let box: RunningSandbox;
let call: ReturnType<typeof client>;

beforeAll(async () => {
  box = await sandbox();
  call = client(box);
});
afterAll(() => box.close());

const content = 'Backups are encrypted and restored in a test every quarter. '.repeat(Math.ceil((LARGE_JSON_BODY_BYTES * 1.5) / 60));

describe('large JSON bodies', () => {
  it('answers a large body as it answers a small one (parsed in a worker)', async () => {
    const answer = await call('POST', '/documents/map', { body: { framework: 'no-such-framework', content } });
    expect(JSON.stringify({ framework: 'no-such-framework', content }).length).toBeGreaterThan(LARGE_JSON_BODY_BYTES);
    expect(envelope(answer, 404, 'framework_not_found').message).toContain('no-such-framework');
  });

  it('refuses a large body that is not JSON, or not UTF-8, with 400 invalid_json and the fix', async () => {
    const notJson = await call('POST', '/documents/map', { rawBody: `{"framework": "hipaa-security", "content": "${content}`, headers: { 'content-type': 'application/json' } });
    const error = envelope(notJson, 400, 'invalid_json');
    expect(error.message).toMatch(/^The request body is not valid JSON: /);
    expect(error.hint).toBe('Send a JSON object with Content-Type: application/json.');
    const bytes = new TextEncoder().encode(`{"framework": "hipaa-security", "content": "${content}"}`);
    bytes[100] = 0xff;
    expect(envelope(await call('POST', '/documents/map', { rawBody: bytes, headers: { 'content-type': 'application/json' } }), 400, 'invalid_json').message).toBe('The request body is not valid UTF-8.');
  });

  it('reads a large body nested deeper than a structured clone goes, as a small one is read', async () => {
    const nested = `{"query":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect(nested.length).toBeGreaterThan(LARGE_JSON_BODY_BYTES);
    const answer = await call('POST', '/frameworks/suggest', { rawBody: nested, headers: { 'content-type': 'application/json' } });
    expect(envelope(answer, 400, 'missing_query').message).toContain('query');
  });

  it("refuses a key's ninth large body at once (one parsing, seven waiting) while another key's is parsed", async () => {
    const body = () => Buffer.from(JSON.stringify({ content }));
    const flooding = Array.from({ length: 9 }, () => parseLargeJson(body(), 'flooding').then(() => 'parsed', (error: unknown) => error));
    const other = parseLargeJson(body(), 'other');
    const outcomes = await Promise.all(flooding);
    expect(outcomes.slice(0, 8)).toEqual(Array.from({ length: 8 }, () => 'parsed'));
    const refused = outcomes[8] as HttpError;
    expect(refused).toBeInstanceOf(HttpError);
    expect([refused.status, refused.code]).toEqual([429, 'rate_limited']);
    expect(refused.message).toContain('already has a large request body being parsed and 7 more waiting');
    expect(await other).toEqual({ content });
  });
});
