/**
 * The Node transport: undici 8 `request` over a keep-alive Agent, or an EnvHttpProxyAgent when
 * HTTPS_PROXY / HTTP_PROXY are set (NO_PROXY honoured). Failures without a response are classified
 * into TransportError kinds, with `sent` telling the retry policy whether the service may have
 * received the request.
 */
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import type { Transport } from '../transport.js';
import { classifyNodeError, flattenHeaders } from './errors.js';
import { proxySettings } from './proxy.js';

export { classifyNodeError } from './errors.js';

export interface NodeTransportOptions {
  /** A dispatcher to use instead of the default (tests pass undici's MockAgent). */
  dispatcher?: Dispatcher;
  /** Where proxy variables are read; defaults to process.env. */
  env?: Record<string, string | undefined>;
  /** Idle keep-alive sockets are closed after this long; default 10 s. */
  keepAliveTimeoutMs?: number;
  /** Time allowed to establish a connection (DNS, TCP, TLS); default 10 s. */
  connectTimeoutMs?: number;
}

export function createDefaultDispatcher(options: NodeTransportOptions = {}): Dispatcher {
  const env = options.env ?? process.env;
  const agentOptions = {
    keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
    connect: { timeout: options.connectTimeoutMs ?? 10_000 },
  };
  const proxy = proxySettings(env);
  if (proxy) return new EnvHttpProxyAgent({ ...agentOptions, ...proxy });
  return new Agent(agentOptions);
}

export function createNodeTransport(options: NodeTransportOptions = {}): Transport {
  let dispatcher = options.dispatcher;
  return async (transportRequest) => {
    // Created on first use so that merely constructing a client opens nothing.
    dispatcher ??= createDefaultDispatcher(options);
    const timeout = AbortSignal.timeout(transportRequest.timeoutMs);
    const signal = transportRequest.signal ? AbortSignal.any([transportRequest.signal, timeout]) : timeout;
    try {
      const response = await request(transportRequest.url, {
        method: transportRequest.method,
        headers: transportRequest.headers,
        body: transportRequest.body,
        signal,
        dispatcher,
        headersTimeout: transportRequest.timeoutMs,
        bodyTimeout: transportRequest.timeoutMs,
      });
      const body = new Uint8Array(await response.body.arrayBuffer());
      return { status: response.statusCode, headers: flattenHeaders(response.headers), body };
    } catch (error) {
      throw classifyNodeError(error, {
        callerAborted: transportRequest.signal?.aborted === true,
        timedOut: timeout.aborted && !transportRequest.signal?.aborted,
      });
    }
  };
}
