/**
 * A loopback HTTP proxy in front of the sandbox that records each request's method and path: the
 * tests read from it which calls n8n (main, worker or an agent's tool) really made.
 */
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordingProxy {
  /** `http://127.0.0.1:port` (forwards to the target origin unchanged). */
  origin: string;
  /** `METHOD /path?query`, in arrival order. */
  seen: string[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const forward = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => res.writeHead(502).end(String(error)));
    req.pipe(forward);
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolveClose) => { server.closeAllConnections(); server.close(() => resolveClose()); }),
  };
}
