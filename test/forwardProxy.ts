/**
 * A forward HTTP proxy on loopback for proxy tests: absolute-form requests are passed on to their
 * target, and each request line is recorded in `seen`.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ForwardProxy {
  /** http://127.0.0.1:<port>, for HTTP_PROXY. */
  url: string;
  /** `METHOD absolute-url` of every request that came through. */
  seen: string[];
  close(): Promise<void>;
}

export async function startForwardProxy(): Promise<ForwardProxy> {
  const seen: string[] = [];
  const proxy = createServer((incoming, answer) => {
    seen.push(`${incoming.method} ${incoming.url}`);
    const forwarded = httpRequest(new URL(incoming.url as string), { method: incoming.method, headers: incoming.headers }, (response) => {
      answer.writeHead(response.statusCode ?? 502, response.headers);
      response.pipe(answer);
    });
    forwarded.on('error', () => answer.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}
