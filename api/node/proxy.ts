/**
 * The proxy variables, read once for both Node transports (undici's in api/node/transport.ts, the
 * actions' node:http one): HTTPS_PROXY / HTTP_PROXY in either case, NO_PROXY honoured.
 */
interface ProxySettings {
  httpProxy: string | undefined;
  httpsProxy: string | undefined;
  noProxy: string | undefined;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

/** The proxies `env` sets, or undefined when it sets none (connect directly). */
export function proxySettings(env: Record<string, string | undefined>): ProxySettings | undefined {
  if (!PROXY_VARIABLES.some((name) => env[name])) return undefined;
  return {
    httpProxy: env.HTTP_PROXY ?? env.http_proxy,
    httpsProxy: env.HTTPS_PROXY ?? env.https_proxy ?? env.HTTP_PROXY ?? env.http_proxy,
    noProxy: env.NO_PROXY ?? env.no_proxy,
  };
}
