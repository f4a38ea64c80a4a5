/**
 * The credential's `test` in a real n8n (2.40.7), the way the editor runs it: `n8n start` with the
 * built package installed as a community package, an owner set up and logged in over n8n's REST
 * API, a credential saved with `POST /rest/credentials`, and the "Test" button's
 * `POST /rest/credentials/test`, against the sandbox on loopback. Set COMPLIANCE_SKIP_REAL_N8N=1
 * to skip (it says so); CI never sets it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLeaks } from '../../hardening/leaks.js';
import { startSandbox, type RunningSandbox } from '../../../sandbox/index.js';
import { buildPackage, installN8n, N8nHarness } from './harness.js';

const skip = process.env.COMPLIANCE_SKIP_REAL_N8N === '1';
if (skip) console.warn('COMPLIANCE_SKIP_REAL_N8N=1: the real-n8n credential-test suite is skipped');

const GOOD_KEY = 'csk_sandbox_n8n_credtest_good_01';
const WRONG_KEY = 'csk_sandbox_n8n_credtest_wrong_1';
const SECRETS = [GOOD_KEY, WRONG_KEY];
const OWNER = { email: 'owner@example.test', firstName: 'Owner', lastName: 'Test', password: 'CredTest1234' };

interface TestResult {
  status: 'OK' | 'Error';
  message: string;
}

describe.skipIf(skip)("the credential's test in a real n8n (POST /rest/credentials/test)", () => {
  let sandbox: RunningSandbox;
  let n8n: N8nHarness;
  let server: Awaited<ReturnType<N8nHarness['start']>>;
  let editor: string;
  let cookie = '';
  const browserId = randomUUID();
  /** Every answer n8n gave, checked for the keys at the end. */
  const answers: Array<{ place: string; text: string }> = [];

  async function call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: { data?: unknown; message?: string } }> {
    const response = await fetch(`${editor}${path}`, {
      method,
      headers: { 'content-type': 'application/json', 'browser-id': browserId, ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    answers.push({ place: `${method} ${path} → ${response.status}`, text });
    const auth = response.headers.getSetCookie().find((line) => line.startsWith('n8n-auth='));
    if (auth) cookie = auth.split(';')[0]!;
    return { status: response.status, json: text ? (JSON.parse(text) as { data?: unknown; message?: string }) : {} };
  }

  /** Saves the credential as the editor does, then presses its "Test" button. */
  async function testCredential(name: string, data: { apiKey: string; baseUrl: string; authHeader: 'bearer' | 'xApiKey' }): Promise<TestResult> {
    const created = await call('POST', '/rest/credentials', { name, type: 'complianceApi', data });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    const { id } = created.json.data as { id: string };
    expect(id).toEqual(expect.any(String));
    const tested = await call('POST', '/rest/credentials/test', { credentials: { id, name, type: 'complianceApi', data } });
    expect(tested.status, JSON.stringify(tested.json)).toBe(200);
    return tested.json.data as TestResult;
  }

  beforeAll(async () => {
    const bin = installN8n();
    buildPackage();
    sandbox = await startSandbox({ port: 0, jobSeconds: 1, keys: [GOOD_KEY] });
    n8n = await N8nHarness.create(bin);
    server = await n8n.start();
    editor = `http://127.0.0.1:${n8n.env.N8N_PORT}`;
    const setup = await call('POST', '/rest/owner/setup', OWNER);
    expect(setup.status, JSON.stringify(setup.json)).toBe(200);
    // A fresh login, as the editor would after setup: its cookie is the one the calls below use.
    cookie = '';
    const login = await call('POST', '/rest/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
    expect(login.status, JSON.stringify(login.json)).toBe(200);
    expect(cookie).toMatch(/^n8n-auth=./);
    // The credential type came from the installed community package.
    const types = await call('GET', '/types/credentials.json');
    expect(types.status).toBe(200);
    expect(JSON.stringify(types.json)).toContain('"name":"complianceApi"');
  }, 30 * 60_000);

  afterAll(async () => {
    await server?.stop();
    n8n?.close();
    await sandbox?.close();
  });

  it('passes for a valid sandbox key with a host-root base URL (Bearer)', async () => {
    // The host root itself has no /ping: an OK below means the test request added /api/public/v1.
    const bare = await fetch(`${sandbox.origin}/ping`, { headers: { authorization: `Bearer ${GOOD_KEY}` } });
    await bare.body?.cancel();
    expect(bare.status).not.toBe(200);
    const result = await testCredential('Compliance (host root)', { apiKey: GOOD_KEY, baseUrl: sandbox.origin, authHeader: 'bearer' });
    expect(result).toMatchObject({ status: 'OK', message: expect.any(String) });
  }, 60_000);

  it('passes for a base URL ending in /api/public/v1 (with a trailing slash) and the X-API-Key header', async () => {
    expect(sandbox.baseUrl).toMatch(/\/api\/public\/v1$/);
    const exact = await testCredential('Compliance (API base, X-API-Key)', { apiKey: GOOD_KEY, baseUrl: sandbox.baseUrl, authHeader: 'xApiKey' });
    expect(exact).toMatchObject({ status: 'OK' });
    const slash = await testCredential('Compliance (API base/, X-API-Key)', { apiKey: GOOD_KEY, baseUrl: `${sandbox.baseUrl}/`, authHeader: 'xApiKey' });
    expect(slash).toMatchObject({ status: 'OK' });
  }, 60_000);

  it("fails for a wrong key with n8n's Error status and the HTTP reason (Unauthorized), in either header", async () => {
    for (const authHeader of ['bearer', 'xApiKey'] as const) {
      const result = await testCredential(`Compliance (wrong key, ${authHeader})`, { apiKey: WRONG_KEY, baseUrl: sandbox.baseUrl, authHeader });
      expect(result.status, JSON.stringify(result)).toBe('Error');
      expect(result.message).toMatch(/401|unauthori[sz]ed/i);
    }
  }, 60_000);

  it('fails when the base URL does not lead to the service', async () => {
    const result = await testCredential('Compliance (wrong path)', { apiKey: GOOD_KEY, baseUrl: `${sandbox.origin}/not-the-api`, authHeader: 'bearer' });
    expect(result.status, JSON.stringify(result)).toBe('Error');
  }, 60_000);

  it("leaves neither key in n8n's answers or its output", () => {
    expect(answers.some(({ place }) => place.startsWith('POST /rest/credentials/test'))).toBe(true);
    // The answers to the tests only: the create call answers with the (redacted) credential.
    const testAnswers = answers.filter(({ place }) => place.startsWith('POST /rest/credentials/test'));
    expect(findLeaks(testAnswers, SECRETS)).toEqual([]);
    expect(server.output()).toMatch(/Editor is now accessible/);
    expect(findLeaks([...answers, { place: 'n8n start output', text: server.output() }], SECRETS)).toEqual([]);
  });
});
