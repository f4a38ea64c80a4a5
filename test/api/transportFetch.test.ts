/**
 * api/node/transport.ts's transportFetch, the fetch Octokit calls GitHub through, over a recording
 * transport: what request each way of giving headers, method and body becomes, and how the answer
 * reads as a fetch Response.
 */
import { describe, expect, it, vi } from 'vitest';
import { transportFetch } from '../../api/node/transport.js';
import type { TransportRequest } from '../../api/transport.js';

const URL = 'https://api.github.example/repos/acme/policies/issues';

/** A fetch over a transport that records each request and answers `status` with `body`. */
function recordingFetch(status = 200, headers: Record<string, string> = { 'content-type': 'application/json' }, body = '{"ok":1}') {
  const requests: TransportRequest[] = [];
  const fetch = transportFetch(async (request) => {
    requests.push(request);
    return { status, headers, body: new TextEncoder().encode(body) };
  }, 1234);
  return { fetch, requests };
}

describe('transportFetch: the request', () => {
  it('lower-cases header names however they are given, joining a repeated one', async () => {
    const { fetch, requests } = recordingFetch();
    await fetch(URL, { headers: { Accept: 'application/json', 'X-GitHub-Api-Version': '2022-11-28' } });
    await fetch(URL, { headers: [['Accept', 'a'], ['accept', 'b']] });
    await fetch(URL, { headers: new Headers({ Authorization: 'token x' }) });
    await fetch(URL);
    await fetch(URL, { headers: Object.assign(Object.create(null) as Record<string, string>, { 'User-Agent': 'ua' }) });
    expect(requests.map((request) => request.headers)).toEqual([
      { accept: 'application/json', 'x-github-api-version': '2022-11-28' },
      { accept: 'a, b' },
      { authorization: 'token x' },
      {},
      { 'user-agent': 'ua' },
    ]);
  });

  it('reads plain-object headers (Octokit\'s) directly, without a Headers, whose first use loads Node\'s fetch; other iterables through one', async () => {
    const { fetch, requests } = recordingFetch();
    let constructed = 0;
    vi.stubGlobal('Headers', class extends Headers {
      constructor(init?: ConstructorParameters<typeof Headers>[0]) {
        super(init);
        constructed++;
      }
    });
    try {
      await fetch(URL, { headers: { Accept: 'a' } });
      await fetch(URL, { headers: Object.assign(Object.create(null) as Record<string, string>, { Accept: 'b' }) });
      expect(constructed).toBe(0);
      await fetch(URL, { headers: new Map([['Accept', 'c']]) as unknown as Record<string, string> });
      expect(constructed).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(requests.map((request) => request.headers)).toEqual([{ accept: 'a' }, { accept: 'b' }, { accept: 'c' }]);
  });

  it('sends the method upper-cased (GET when none), a text body as it is, bytes as bytes, no body as none, with its timeout and the signal', async () => {
    const { fetch, requests } = recordingFetch();
    const { signal } = new AbortController();
    await fetch(URL, { method: 'post', body: '{"title":"t"}', signal });
    await fetch(URL, { body: new Uint8Array([1, 2, 3]) });
    await fetch(URL, { body: null });
    expect(requests.map(({ method, url, body, timeoutMs, signal: given }) => ({ method, url, body, timeoutMs, given }))).toEqual([
      { method: 'POST', url: URL, body: '{"title":"t"}', timeoutMs: 1234, given: signal },
      { method: 'GET', url: URL, body: new Uint8Array([1, 2, 3]), timeoutMs: 1234, given: undefined },
      { method: 'GET', url: URL, body: undefined, timeoutMs: 1234, given: undefined },
    ]);
  });
});

describe('transportFetch: the answer', () => {
  it('is ok for a 2xx status only', async () => {
    const ok = async (status: number) => (await recordingFetch(status).fetch(URL)).ok;
    expect(await Promise.all([199, 200, 204, 299, 300, 404].map(ok))).toEqual([false, true, true, true, false, false]);
  });

  it('reads its url, status, headers by any case, and its body as text, JSON or a copy of its bytes', async () => {
    const response = await recordingFetch(201, { 'content-type': 'application/json', link: '<x>; rel="next"' }, '{"number":7}').fetch(URL);
    expect([response.url, response.status, response.statusText]).toEqual([URL, 201, '']);
    expect([response.headers.get('Content-Type'), response.headers.get('etag'), response.headers.has('LINK'), response.headers.has('etag')]).toEqual(['application/json', null, true, false]);
    expect([...response.headers]).toEqual([['content-type', 'application/json'], ['link', '<x>; rel="next"']]);
    expect([...response.headers.entries()]).toEqual([...response.headers]);
    expect(await response.json()).toEqual({ number: 7 });
    expect(await response.text()).toBe('{"number":7}');
    const bytes = new Uint8Array(await response.arrayBuffer());
    bytes[0] = 0;
    expect(await response.text()).toBe('{"number":7}');
  });
});
