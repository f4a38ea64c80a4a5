/**
 * Options of the sandbox server and the limits each key mode gets. Live numbers are the sandbox's
 * stand-in for the service's (the spec does not publish them); sandbox keys get generous multiples.
 */
import type { KeyMode } from '../../api/schemas/common.js';
import type { ExtractionPoolOptions } from '../formats/upload/extractionPool.js';

export interface SandboxOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Directory for `sandbox.sqlite`; state is in memory when absent. */
  dataDir?: string;
  /** `KEY[:live[:BALANCE[:PLAN]]]` specs; none → one generated sandbox key. */
  keys?: readonly string[];
  /** Requests per minute per key, for every key (default: 600 sandbox, 60 live). */
  rateLimitPerMinute?: number;
  /** Generation quotas per key, for every key (default: 200/day and 2,000/30 days sandbox; 20 and 200 live). */
  generationsPerDay?: number;
  generationsPer30Days?: number;
  /** How long a job takes from queued to completed; 0 completes jobs at once. Default 1. */
  jobSeconds?: number;
  /** Honour the `X-Sandbox-Fault` request header. */
  faults?: boolean;
  /** Failed-auth attempts per address within the window before the address is blocked. */
  badKeyThreshold?: number;
  badKeyWindowSeconds?: number;
  badKeyBlockSeconds?: number;
  /** Milliseconds since the epoch; tests drive time with it. Default Date.now. */
  clock?: () => number;
  /** Upload reading: worker count, queue and limits (bytes inflated, characters, seconds, worker memory). */
  uploads?: ExtractionPoolOptions;
  /** When a connection is closed: its request's headers not in, its body stalled (no byte for that long), idle between requests. */
  connectionLimits?: Partial<ConnectionLimits>;
  /**
   * Token the `/_sandbox/*` control endpoints require when the server listens on a non-loopback
   * address (a random one is made when absent). On loopback they stay open.
   */
  controlToken?: string;
}

interface ConnectionLimits {
  /** From the connection's start (or the end of its previous request) until the headers are in. Default 60. */
  headersSeconds: number;
  /** Longest pause between two bytes of a request's body (time since the last byte, not since the start). Default 60. */
  bodyStallSeconds: number;
  /** A kept-alive connection idle between requests. Default 5. */
  idleSeconds: number;
}

const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { headersSeconds: 60, bodyStallSeconds: 60, idleSeconds: 5 };

interface ModeLimits {
  requestsPerMinute: number;
  generationsPerDay: number;
  generationsPer30Days: number;
  concurrentGenerations: number;
  libraryDocuments: number;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  dataDir: string | undefined;
  keys: readonly string[];
  jobSeconds: number;
  faults: boolean;
  badKeyThreshold: number;
  badKeyWindowMs: number;
  badKeyBlockMs: number;
  limits: Record<KeyMode, ModeLimits>;
  clock: () => number;
  uploads: ExtractionPoolOptions;
  connectionLimits: ConnectionLimits;
  controlToken: string | undefined;
}

export const DEFAULT_PORT = 4010;
export const DEFAULT_JOB_SECONDS = 1;
/** Bad-key block: 10 failed attempts from one address within 60 s block it for 5 minutes. */
export const BAD_KEY_DEFAULTS = { threshold: 10, windowSeconds: 60, blockSeconds: 300 } as const;

const LIVE_LIMITS: ModeLimits = {
  requestsPerMinute: 60,
  generationsPerDay: 20,
  generationsPer30Days: 200,
  concurrentGenerations: 1,
  libraryDocuments: 500,
};
const SANDBOX_MULTIPLE = 10;

function positiveOr(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0) throw new RangeError(`${name} must be a non-negative number (got ${value})`);
  return value;
}

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const limitsFor = (mode: KeyMode): ModeLimits => {
    const multiple = mode === 'sandbox' ? SANDBOX_MULTIPLE : 1;
    return {
      requestsPerMinute: positiveOr(options.rateLimitPerMinute, LIVE_LIMITS.requestsPerMinute * multiple, 'rateLimitPerMinute'),
      generationsPerDay: positiveOr(options.generationsPerDay, LIVE_LIMITS.generationsPerDay * multiple, 'generationsPerDay'),
      generationsPer30Days: positiveOr(options.generationsPer30Days, LIVE_LIMITS.generationsPer30Days * multiple, 'generationsPer30Days'),
      concurrentGenerations: 1,
      libraryDocuments: mode === 'sandbox' ? 25 : 500,
    };
  };
  return {
    host: options.host ?? '127.0.0.1',
    port: positiveOr(options.port, DEFAULT_PORT, 'port'),
    dataDir: options.dataDir,
    keys: options.keys ?? [],
    jobSeconds: positiveOr(options.jobSeconds, DEFAULT_JOB_SECONDS, 'jobSeconds'),
    faults: options.faults ?? false,
    badKeyThreshold: positiveOr(options.badKeyThreshold, BAD_KEY_DEFAULTS.threshold, 'badKeyThreshold'),
    badKeyWindowMs: positiveOr(options.badKeyWindowSeconds, BAD_KEY_DEFAULTS.windowSeconds, 'badKeyWindowSeconds') * 1000,
    badKeyBlockMs: positiveOr(options.badKeyBlockSeconds, BAD_KEY_DEFAULTS.blockSeconds, 'badKeyBlockSeconds') * 1000,
    limits: { sandbox: limitsFor('sandbox'), live: limitsFor('live') },
    clock: options.clock ?? Date.now,
    uploads: options.uploads ?? {},
    connectionLimits: { ...DEFAULT_CONNECTION_LIMITS, ...options.connectionLimits },
    controlToken: options.controlToken,
  };
}
