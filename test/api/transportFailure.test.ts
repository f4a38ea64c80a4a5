/** The one transport-failure classifier, as the n8n request helper (axios) and Node's clients fail. */
import { describe, expect, it } from 'vitest';
import { TransportError } from '../../api/transport.js';
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
    ['a proxy refusing the tunnel', Object.assign(new Error('Failed to establish tunnel to api.example.test:443 via http://proxy/: HTTP/1.1 403 Forbidden'), { code: 'ERR_PROXY_TUNNEL' }), 'connect', false],
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

/** A Node system error: what undici and node:http wrap. */
const coded = (code: string, message = `${code} test`) => Object.assign(new Error(message), { code });

describe('every code the classifier knows, read on its own', () => {
  it.each([
    'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'EADDRNOTAVAIL',
    'UND_ERR_PRX_TLS', 'UND_ERR_PRX_CONN',
    'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    'ERR_TLS_CERT_ALTNAME_INVALID', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_INVALID_PROTOCOL_VERSION', 'ERR_SSL_WRONG_VERSION_NUMBER',
  ])('%s: the connection never came up, nothing was sent', (code) => {
    expect(classifyTransportFailure(coded(code, 'failed'), idle)).toMatchObject({ kind: 'connect', sent: false });
  });

  it.each(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_SOCKET_CLOSED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_DESTROYED'])(
    '%s: the connection failed after sending',
    (code) => expect(classifyTransportFailure(coded(code, 'failed'), idle)).toMatchObject({ kind: 'reset', sent: true }),
  );

  it.each(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT'])('%s: a timeout after sending', (code) => {
    expect(classifyTransportFailure(coded(code, 'failed'), idle)).toMatchObject({ kind: 'timeout', sent: true });
  });

  it('a code the classifier does not know, or a code-less chain, is other and may have been sent', () => {
    expect(classifyTransportFailure(coded('ERR_TLX_SOMETHING', 'failed'), idle)).toMatchObject({ kind: 'other', sent: true });
    expect(classifyTransportFailure('a thrown string', idle)).toMatchObject({ kind: 'other', sent: true, message: 'a thrown string' });
  });
});

describe('timeouts and aborts without a code', () => {
  it.each([
    ['the transport timer fired', new Error('failed'), { callerAborted: false, timedOut: true }],
    ['a TimeoutError in the chain', Object.assign(new Error('failed'), { cause: new DOMException('signal', 'TimeoutError') }), idle],
    ['"timed out" in a message', new Error('request timed out'), idle],
    ['"timeout" in a message', new Error('Read Timeout'), idle],
    ['"timed out" in one message of the chain', new Error('request failed', { cause: new Error('read timed out') }), idle],
    ["axios' own message", new Error('timeout of 500ms exceeded'), idle],
  ])('%s is a timeout after sending', (_name, error, state) => {
    expect(classifyTransportFailure(error, state)).toMatchObject({ kind: 'timeout', sent: true });
  });

  it('a connect timeout stays connect, not sent, even when the timer fired too', () => {
    expect(classifyTransportFailure(coded('UND_ERR_CONNECT_TIMEOUT', 'failed'), { callerAborted: false, timedOut: true })).toMatchObject({ kind: 'connect', sent: false });
  });

  it('undici aborting, or an AbortError anywhere in the chain, is aborted', () => {
    expect(classifyTransportFailure(coded('UND_ERR_ABORTED', 'failed'), idle)).toMatchObject({ kind: 'aborted', sent: true });
    expect(classifyTransportFailure(new Error('failed', { cause: new DOMException('stop', 'AbortError') }), idle)).toMatchObject({ kind: 'aborted', sent: true });
  });

  it('reads the cause chain six links deep and no further', () => {
    const chain = (depth: number) => {
      let error: Error = coded('ECONNREFUSED', 'refused');
      for (let level = 1; level < depth; level++) error = new Error(`wrapper ${level}`, { cause: error });
      return error;
    };
    expect(classifyTransportFailure(chain(6), idle).kind).toBe('connect');
    expect(classifyTransportFailure(chain(7), idle).kind).toBe('other');
  });

  it('ignores links whose code, name or message is not a string', () => {
    const odd = Object.assign(new Error('failed'), { code: 111, name: 'x', message: 'failed' });
    expect(classifyTransportFailure(odd, idle)).toMatchObject({ kind: 'other', message: 'failed' });
    const timeoutName = { name: 'TimeoutError', message: 42 };
    expect(classifyTransportFailure(timeoutName, idle)).toMatchObject({ kind: 'timeout', message: '[object Object]' });
    expect(classifyTransportFailure({ code: 'ECONNRESET', message: 42 }, idle, { messagesOnly: true }).message).toBe('request failed (ECONNRESET)');
  });

  it('ends the chain at a null cause', () => {
    expect(classifyTransportFailure(Object.assign(new Error('read ECONNRESET', { cause: null }), { code: 'ECONNRESET' }), idle).kind).toBe('reset');
  });
});

describe('the message', () => {
  it('appends the first code unless the message already names it, and keeps the error as cause', () => {
    const wrapped = new Error('fetch failed', { cause: coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:9') });
    const classified = classifyTransportFailure(wrapped, idle);
    expect(classified.message).toBe('fetch failed (ECONNREFUSED)');
    expect(classified.cause).toBe(wrapped);
    expect(classifyTransportFailure(coded('ECONNRESET', 'read ECONNRESET'), idle).message).toBe('read ECONNRESET');
    expect(classifyTransportFailure(new Error('weird'), idle).message).toBe('weird');
  });

  it('messagesOnly: the innermost message, with the first code no message names, and a fallback', () => {
    const inner = coded('ECONNRESET', 'socket hang up');
    const outer = Object.assign(new Error('request failed', { cause: inner }), { code: 'ERR_BAD_RESPONSE' });
    const classified = classifyTransportFailure(outer, idle, { messagesOnly: true });
    expect(classified.message).toBe('socket hang up (ERR_BAD_RESPONSE)');
    expect(classified.cause).toBeUndefined();
    expect(classifyTransportFailure(coded('ECONNRESET', 'read ECONNRESET'), idle, { messagesOnly: true }).message).toBe('read ECONNRESET');
    expect(classifyTransportFailure({ code: 'ECONNRESET' }, idle, { messagesOnly: true }).message).toBe('request failed (ECONNRESET)');
    expect(classifyTransportFailure({}, idle, { messagesOnly: true }).message).toBe('request failed');
  });
});

describe('TransportError', () => {
  it('names itself, and holds a cause only when given one', () => {
    const bare = new TransportError('reset', true, 'socket hang up');
    expect([bare.name, bare.kind, bare.sent, bare.message]).toEqual(['TransportError', 'reset', true, 'socket hang up']);
    expect('cause' in bare).toBe(false);
    const cause = new Error('inner');
    expect(new TransportError('connect', false, 'refused', cause).cause).toBe(cause);
  });
});
