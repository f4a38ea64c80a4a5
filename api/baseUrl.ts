import { ComplianceValidationError } from './errors.js';

import { API_PREFIX } from './schemas/common.js';


const LOOPBACK_HOSTS = new Set(['localhost', '[::1]', '::1']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname) || /^127(\.\d{1,3}){3}$/.test(hostname);
}

function invalid(message: string, hint: string): ComplianceValidationError {
  return new ComplianceValidationError({ code: 'invalid_base_url', field: 'baseUrl', message, hint });
}

/**
 * Normalises a base URL to `<origin>/api/public/v1` (no trailing slash). Accepts a host root or a
 * URL ending in the prefix; `https:` only, except loopback hosts for the local sandbox.
 */
export function normalizeBaseUrl(input: string): string {
  const expected = `expected https://<host> or https://<host>${API_PREFIX}`;
  if (typeof input !== 'string' || input.trim() === '') {
    throw invalid('baseUrl is required', expected);
  }
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalid(`baseUrl is not a URL: ${JSON.stringify(input.slice(0, 200))}`, expected);
  }
  if (url.username || url.password) {
    throw invalid('baseUrl must not contain credentials', 'Pass the API key separately, never in the URL.');
  }
  if (url.search || url.hash) {
    throw invalid('baseUrl must not have a query or fragment', expected);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw invalid(
      `baseUrl must use https (got ${url.protocol}//${url.host})`,
      'Plain http is allowed only for loopback hosts (localhost, 127.0.0.0/8, [::1]), such as the local sandbox.',
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (path !== '' && path !== API_PREFIX) {
    throw invalid(`baseUrl path must be empty or ${API_PREFIX} (got ${path})`, expected);
  }
  return `${url.origin}${API_PREFIX}`;
}
