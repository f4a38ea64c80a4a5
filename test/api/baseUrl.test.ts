/** normalizeBaseUrl: what a base URL may be, and the words of each refusal. */
import { describe, expect, it } from 'vitest';
import { normalizeBaseUrl } from '../../api/baseUrl.js';
import { ComplianceValidationError } from '../../api/errors.js';

const EXPECTED = 'expected https://<host> or https://<host>/api/public/v1';

function refusal(input: string): ComplianceValidationError {
  try {
    normalizeBaseUrl(input);
  } catch (error) {
    if (error instanceof ComplianceValidationError) return error;
    throw error;
  }
  throw new Error(`${input} was accepted`);
}

describe('normalizeBaseUrl', () => {
  it.each([
    ['https://api.example.test', 'https://api.example.test/api/public/v1'],
    ['  https://api.example.test/  ', 'https://api.example.test/api/public/v1'],
    ['https://api.example.test/api/public/v1///', 'https://api.example.test/api/public/v1'],
    ['HTTPS://API.example.test:8443/api/public/v1', 'https://api.example.test:8443/api/public/v1'],
    ['http://localhost:4010', 'http://localhost:4010/api/public/v1'],
    ['http://127.0.0.1:4010/api/public/v1', 'http://127.0.0.1:4010/api/public/v1'],
    ['http://127.255.0.9', 'http://127.255.0.9/api/public/v1'],
    ['http://[::1]:4010', 'http://[::1]:4010/api/public/v1'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeBaseUrl(input)).toBe(expected);
  });

  it('refuses a blank or missing URL, and text that is no URL, quoting at most 200 characters of it', () => {
    for (const input of ['', '   ', undefined as unknown as string]) {
      expect(refusal(input)).toMatchObject({ code: 'invalid_base_url', field: 'baseUrl', message: 'baseUrl is required', hint: EXPECTED });
    }
    expect(refusal('api.example.test')).toMatchObject({ message: 'baseUrl is not a URL: "api.example.test"', hint: EXPECTED });
    expect(refusal(`x${'y'.repeat(300)}`).message).toBe(`baseUrl is not a URL: "x${'y'.repeat(199)}"`);
  });

  it('refuses credentials, a query or a fragment', () => {
    for (const input of ['https://user@api.example.test', 'https://:pw@api.example.test']) {
      expect(refusal(input)).toMatchObject({ message: 'baseUrl must not contain credentials', hint: 'Pass the API key separately, never in the URL.' });
    }
    for (const input of ['https://api.example.test/?a=1', 'https://api.example.test/#top']) {
      expect(refusal(input)).toMatchObject({ message: 'baseUrl must not have a query or fragment', hint: EXPECTED });
    }
  });

  it('allows plain http only to loopback hosts', () => {
    for (const input of ['http://api.example.test', 'http://127.0.0.1.example.test', 'http://10.127.0.1', 'http://localhost.example.test']) {
      expect(refusal(input).message).toMatch(/^baseUrl must use https \(got http:\/\//);
    }
    expect(refusal('ftp://localhost').message).toBe('baseUrl must use https (got ftp://localhost)');
    expect(refusal('http://api.example.test:8080').hint).toMatch(/^Plain http is allowed only for loopback hosts/);
  });

  it('refuses any other path, naming it', () => {
    expect(refusal('https://api.example.test/api/public/v2')).toMatchObject({ message: 'baseUrl path must be empty or /api/public/v1 (got /api/public/v2)', hint: EXPECTED });
    expect(refusal('https://api.example.test/x/api/public/v1').message).toBe('baseUrl path must be empty or /api/public/v1 (got /x/api/public/v1)');
  });
});
