/**
 * The local sandbox of the compliance engine API: `startSandbox(options)` serves the whole contract
 * under `<baseUrl>` (ending in /api/public/v1) until `close()`. This file is the package's public
 * face (`@compliance-automation/sandbox`): code outside sandbox/ imports only from here (the layer
 * rule of `npm run lint` enforces it; tests of the internals live in the `sandbox` test project).
 */
import type { AddressInfo } from 'node:net';
import { API_PREFIX } from '../api/schemas/common.js';
import type { KeyMode } from '../api/schemas/common.js';
import { isLoopbackAddress, newControlToken } from './server/controlToken.js';
import { issueKey, parseKeySpec, type KeySpec } from './server/keys.js';
import { resolveOptions, type SandboxOptions } from './server/options.js';
import { createSandboxServer } from './server/server.js';
import { createServices } from './server/services.js';

export type { SandboxOptions } from './server/options.js';
export { BAD_KEY_DEFAULTS, DEFAULT_PORT, DEFAULT_JOB_SECONDS } from './server/options.js';
export { PRICES, METER } from './server/billing.js';
export { FAULT_HEADER, FAULT_NAMES } from './server/faults.js';
// What `compliance sandbox --key` accepts, and a new key for a sandbox the caller keeps across runs.
export { issueKey, parseKeySpec } from './server/keys.js';

export interface SandboxKey {
  /** The key itself: shown here once, stored by the sandbox only as a hash. */
  key: string;
  mode: KeyMode;
  /** Public handle of the key (names it in the outbox). */
  keyId: string;
}

export interface RunningSandbox {
  /** `http://host:port/api/public/v1` */
  baseUrl: string;
  /** `http://host:port` (admin paths such as /_sandbox/outbox live here). */
  origin: string;
  keys: SandboxKey[];
  /** Jobs that were in flight when the previous process stopped, failed (and refunded) at start. */
  interruptedJobs: number;
  /** Token the `/_sandbox/*` control endpoints require: set only when the bind is not loopback-only. */
  controlToken?: string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options);
  const specs: KeySpec[] = resolved.keys.length
    ? resolved.keys.map(parseKeySpec)
    : [{ key: issueKey('sandbox'), mode: 'sandbox', balance: 0, plan: 'api' }];
  let origin = '';
  let controlToken: string | undefined;
  const services = createServices(resolved, () => origin, () => controlToken);
  const now = services.clock.now();
  const keys = services.tx(() => specs.map((spec) => ({ key: spec.key, mode: spec.mode, keyId: services.accounts.register(spec, now).keyId })));
  const interruptedJobs = services.jobs.failInterrupted(now);
  // Work the engine still holds without an open job (should not happen; kept consistent anyway).
  services.tx(() => {
    for (const work of services.library.interruptedWork()) services.library.failWork(work.keyId, work.documentId);
  });

  const server = createSandboxServer(services);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  // A wildcard bind is reached through loopback for the links the server hands out.
  const reachable = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
  const host = address.family === 'IPv6' ? `[${reachable}]` : reachable;
  origin = `http://${host}:${address.port}`;
  // Decided on the address actually bound: `localhost` is loopback, `0.0.0.0` and `::` are not.
  if (!isLoopbackAddress(address.address)) controlToken = resolved.controlToken ?? newControlToken();

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `${origin}${API_PREFIX}`,
    origin,
    keys,
    interruptedJobs,
    ...(controlToken ? { controlToken } : {}),
    close() {
      closing ??= new Promise<void>((resolve) => {
        services.jobs.close();
        services.indexMaintenance.close();
        const poolsClosed = Promise.all([services.uploads.close(), services.mapping.close()]);
        server.close(() => {
          void poolsClosed.then(() => {
            services.db.close();
            resolve();
          });
        });
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
