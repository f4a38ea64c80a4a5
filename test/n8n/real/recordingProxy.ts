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
  /** Each request's body (text), in the same order as `seen`. */
  bodies: string[];
  /** `METHOD /path?query` once its answer has been handed back in full, in that order. */
  answered: string[];
  close(): Promise<void>;
}

export async function recordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const seen: string[] = [];
  const bodies: string[] = [];
  const answered: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.on('finish', () => answered.push(`${req.method} ${req.url}`));
    const index = bodies.push('') - 1;
    req.on('data', (chunk: Buffer) => (bodies[index] += chunk.toString()));
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
    bodies,
    answered,
    close: () => new Promise<void>((resolveClose) => { server.closeAllConnections(); server.close(() => resolveClose()); }),
  };
}
