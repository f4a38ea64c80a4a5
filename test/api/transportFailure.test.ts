/** The one transport-failure classifier, as the n8n request helper (axios) and Node's clients fail. */
import { describe, expect, it } from 'vitest';
import { classifyTransportFailure } from '../../api/transportFailure.js';

const idle = { callerAborted: false, timedOut: false };

function axiosError(message: string, code: string | undefined, cause?: unknown) {
  return Object.assign(new Error(message), { code, cause, config: { headers: { Authorization: 'Bearer csk_live_secret' } } });
}

describe('classifyTransportFailure', () => {
  it.each([
    ['axios timeout', axiosError('timeout of 30000ms exceeded', 'ECONNABORTED'), 'timeout', true],
    ['refused under n8n', axiosError('request failed', undefined, Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' })), 'connect', false],
    ['reset', Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'reset', true],
    ['axios cancel', axiosError('canceled', 'ERR_CANCELED'), 'aborted', true],
    ['undici connect timeout', Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), 'connect', false],
    ['TLS', Object.assign(new Error('bad cert'), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }), 'connect', false],
    ['unknown', new Error('something else'), 'other', true],
  ])('%s', (_name, error, kind, sent) => {
    const classified = classifyTransportFailure(error, idle);
    expect([classified.kind, classified.sent]).toEqual([kind, sent]);
  });

  it('messagesOnly keeps the innermost message and no cause (the helper error holds the key)', () => {
    const error = axiosError('request failed', undefined, Object.assign(new Error('getaddrinfo ENOTFOUND api.example.test'), { code: 'ENOTFOUND' }));
    const classified = classifyTransportFailure(error, idle, { messagesOnly: true });
    expect(classified.message).toBe('getaddrinfo ENOTFOUND api.example.test');
    expect(classified.cause).toBeUndefined();
    expect(JSON.stringify(classified)).not.toContain('csk_live_secret');
    expect(classifyTransportFailure(error, idle).cause).toBe(error);
  });

  it('the caller aborting wins over any code', () => {
    expect(classifyTransportFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), { callerAborted: true, timedOut: false }).kind).toBe('aborted');
  });
});
