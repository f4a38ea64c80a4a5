/**
 * Fault injection for tests (only with `--faults`): the request header `X-Sandbox-Fault` makes that
 * request fail in a chosen way. Failures before processing (`503`, `500`, `429`, `html502`, `reset`)
 * admit and charge nothing; `reset-after` processes the request, then drops the connection (an
 * outcome the client cannot know); `slow` or `slow:MS` delays the answer (default 2,000 ms);
 * `job-fail` admits a job that fails when it runs (library work is then refunded).
 */
import { HttpError } from './httpError.js';

export type Fault =
  | { kind: 'status'; status: 503 | 500 | 429 }
  | { kind: 'html502' }
  | { kind: 'reset' }
  | { kind: 'reset-after' }
  | { kind: 'slow'; ms: number }
  | { kind: 'job-fail' };

export const FAULT_HEADER = 'x-sandbox-fault';
export const FAULT_NAMES = ['503', '500', '429', 'html502', 'reset', 'reset-after', 'slow', 'slow:<ms>', 'job-fail'] as const;

export function parseFault(value: string | string[] | undefined): Fault | undefined {
  const raw = (Array.isArray(value) ? value[0] : value)?.trim().toLowerCase();
  if (!raw) return undefined;
  if (raw === '503' || raw === '500' || raw === '429') return { kind: 'status', status: Number(raw) as 503 | 500 | 429 };
  if (raw === 'html502' || raw === 'reset' || raw === 'reset-after' || raw === 'job-fail') return { kind: raw };
  const slow = /^slow(?::(\d{1,6}))?$/.exec(raw);
  if (slow) return { kind: 'slow', ms: slow[1] ? Number(slow[1]) : 2_000 };
  throw new HttpError(400, 'unknown_fault', `Unknown X-Sandbox-Fault value.`, `Use one of: ${FAULT_NAMES.join(', ')}.`);
}

export function faultError(status: 503 | 500 | 429): HttpError {
  switch (status) {
    case 503:
      return new HttpError(503, 'service_unavailable', 'The service is temporarily unavailable (injected fault).', 'retry in 1 s with backoff', {
        headers: { 'retry-after': '1' },
      });
    case 500:
      return new HttpError(500, 'internal_error', 'The service failed (injected fault).', 'Retry with backoff.');
    case 429:
      return new HttpError(429, 'rate_limited', 'Rate limit reached (injected fault).', 'retry in 1 s', { headers: { 'retry-after': '1' } });
  }
}

export const HTML_502 =
  '<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n';
