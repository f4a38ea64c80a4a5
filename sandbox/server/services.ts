/**
 * Everything a request handler reaches: the stores over the one database, the engines, the clock.
 * Built once per server by createServices; closing it stops timers and closes the database.
 */
import type { DatabaseSync } from 'node:sqlite';
import { ExtractionPool } from '../formats/upload/extractionPool.js';
import { Library } from '../library/index.js';
import { createMappingPool } from '../mapping/mappingPool.js';
import type { MappingResult, MapTextInput } from '../mapping/index.js';
import type { WorkerPool } from '../threads/workerPool.js';
import { AccountStore } from './accounts.js';
import { Authenticator } from './auth.js';
import { Billing } from './billing.js';
import { ReviewCalendar } from './calendar.js';
import { checkoutSignature } from './controlToken.js';
import { openDatabase, transaction } from './database.js';
import { IndexMaintenance } from './indexMaintenance.js';
import { Jobs } from './jobs.js';
import type { ResolvedOptions } from './options.js';
import { Outbox } from './outbox.js';
import { RateLimiter } from './rateLimiter.js';
import { createJobWorkers } from './workers.js';

/** How far POST /_sandbox/clock may move the clock ahead of its source: every date it leads to stays an ordinary one. */
export const MAX_CLOCK_LEAD_YEARS = 100;
const MAX_CLOCK_LEAD_MS = MAX_CLOCK_LEAD_YEARS * 365.25 * 86_400_000;

/** The sandbox's clock: the configured source plus an offset tests can advance (POST /_sandbox/clock), at most MAX_CLOCK_LEAD_MS. */
class SandboxClock {
  private offsetMs = 0;
  constructor(private readonly source: () => number) {}
  now = (): number => this.source() + this.offsetMs;
  /** How much further the clock may move. */
  get roomMs(): number {
    return MAX_CLOCK_LEAD_MS - this.offsetMs;
  }
  /** Moves the clock `ms` forward; false (and unmoved) past MAX_CLOCK_LEAD_MS. */
  advance(ms: number): boolean {
    if (!(ms >= 0 && ms <= this.roomMs)) return false;
    this.offsetMs += ms;
    return true;
  }
}

export interface Services {
  options: ResolvedOptions;
  db: DatabaseSync;
  clock: SandboxClock;
  accounts: AccountStore;
  outbox: Outbox;
  billing: Billing;
  calendar: ReviewCalendar;
  jobs: Jobs;
  library: Library;
  /** Merges a key's search index when its library goes quiet after writes. */
  indexMaintenance: IndexMaintenance;
  rateLimiter: RateLimiter;
  auth: Authenticator;
  /** Reads uploads in worker threads, under their limits. */
  uploads: ExtractionPool;
  /** Maps documents in worker threads (mapping jobs, prepared at admission). */
  mapping: WorkerPool<MapTextInput, MappingResult>;
  /** Origin of the running server (http://host:port), for links such as checkout pages. */
  origin: () => string;
  /** Token the control endpoints require (non-loopback bind), or undefined (loopback: open). */
  controlToken: () => string | undefined;
  /** Runs `work` in one transaction (commit happens before the response is written). */
  tx<T>(work: () => T): T;
}

export function createServices(options: ResolvedOptions, origin: () => string, controlToken: () => string | undefined = () => undefined): Services {
  const db = openDatabase(options.dataDir);
  const clock = new SandboxClock(options.clock);
  const accounts = new AccountStore(db);
  const outbox = new Outbox(db);
  const library = new Library(db);
  const billing = new Billing(
    db,
    accounts,
    outbox,
    (keyHash) => library.storage(keyHash).bytes,
    (sessionId) => {
      const token = controlToken();
      return `${origin()}/_sandbox/checkout/${sessionId}${token ? `?sig=${checkoutSignature(token, sessionId)}` : ''}`;
    },
  );
  const indexMaintenance = new IndexMaintenance(library);
  const mapping = createMappingPool();
  const jobs = new Jobs(
    db,
    createJobWorkers({ library, indexMaintenance, mapping }),
    // Any job that fails after admission is refunded in full: the caller got nothing for it.
    (job, reason, now) => billing.refund(job.keyHash, job.chargedTokens, job.id, `Refund: ${reason}`, now),
    clock.now,
    options.jobSeconds * 1000,
  );
  const services: Services = {
    options,
    db,
    clock,
    accounts,
    outbox,
    billing,
    jobs,
    library,
    indexMaintenance,
    calendar: new ReviewCalendar(accounts, outbox),
    rateLimiter: new RateLimiter(),
    auth: new Authenticator(accounts, { threshold: options.badKeyThreshold, windowMs: options.badKeyWindowMs, blockMs: options.badKeyBlockMs }),
    uploads: new ExtractionPool(options.uploads),
    mapping,
    origin,
    controlToken,
    tx: <T>(work: () => T) => transaction(db, work),
  };
  return services;
}
