/**
 * The sessions of `compliance mcp --http`, bounded whatever clients do, and fair between them:
 *
 * - a session in use is never closed to make room for a new one. In use: its client is connected
 *   (a request running, or the GET stream of server messages held open, as the SDK's client
 *   does), or it sent a request within the last minute. To make room, the least recently active
 *   session not in use goes, one nobody has used (no request beyond its initialize) first;
 * - one client (its address and the name it gave in initialize) holds at most a quarter of the
 *   slots: its next session closes its own least recently active session not connected, so no
 *   client holds every slot (a local process could still pose as many clients: names are its word);
 * - when there is no room, the answer says when there may be (Retry-After), never a bare refusal;
 * - a session its client is not connected to closes after a quiet spell: a minute for one never
 *   used (the trace of a client that walked away, or of a flood of initializes), 30 minutes otherwise.
 */

export interface SessionLimits {
  /** Open sessions at most. */
  maxSessions: number;
  /** Sessions one client may hold at most. */
  maxSessionsPerClient: number;
  /** A used session with no request for this long is closed (its client must initialize again). */
  idleMs: number;
  /** A session that has sent nothing but its initialize (and the initialized notification) for this long is closed. */
  unusedIdleMs: number;
  /** A session that sent a request this recently is in use, connected or not. */
  activeMs: number;
  /** The clock idleness is judged by (tests move it by hand). */
  now: () => number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  maxSessions: 64,
  maxSessionsPerClient: 16,
  idleMs: 30 * 60_000,
  unusedIdleMs: 60_000,
  activeMs: 60_000,
  now: () => Date.now(),
};

export interface TrackedSession {
  /** Who opened it: the remote address and the client name of its initialize. */
  client: string;
  /** The last request (a POST or DELETE) began or ended. */
  lastActive: number;
  /** Requests (POST) being answered and GET streams held open: its client is connected, so it is never closed. */
  connections: number;
  /** Whether it has sent a request beyond initialize and the initialized notification. */
  used: boolean;
  close(): void;
}

/** Why a new session was refused, and when to try again. */
interface NoRoom {
  status: 429 | 503;
  message: string;
  retryAfterSeconds: number;
}

export class SessionTable<S extends TrackedSession> {
  readonly #sessions = new Map<string, S>();
  readonly #limits: SessionLimits;

  constructor(limits: SessionLimits) {
    this.#limits = limits;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get(id: string): S | undefined {
    return this.#sessions.get(id);
  }

  add(id: string, session: S): void {
    this.#sessions.set(id, session);
  }

  /** Forgets a session its transport closed. */
  forget(id: string): void {
    this.#sessions.delete(id);
  }

  close(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    session.close();
  }

  closeAll(): void {
    for (const id of [...this.#sessions.keys()]) this.close(id);
  }

  #quietLimit(session: S): number {
    return session.used ? this.#limits.idleMs : this.#limits.unusedIdleMs;
  }

  #inUse(session: S, now: number): boolean {
    return session.connections > 0 || (session.used && now - session.lastActive < this.#limits.activeMs);
  }

  /** Closes every session its client is not connected to that has been quiet longer than its limit. */
  closeIdle(): void {
    const now = this.#limits.now();
    for (const [id, session] of this.#sessions) if (session.connections === 0 && now - session.lastActive >= this.#quietLimit(session)) this.close(id);
  }

  /** The session matching `pick` to close first: one never used, then the least recently active. */
  #first(pick: (session: S) => boolean): string | undefined {
    let first: [string, S] | undefined;
    const before = (a: S, b: S) => (a.used !== b.used ? !a.used : a.lastActive < b.lastActive);
    for (const entry of this.#sessions) if (pick(entry[1]) && (!first || before(entry[1], first[1]))) first = entry;
    return first?.[0];
  }

  /** Makes room for a session of `client`, closing one not in use if need be; or says why not and when to retry. */
  admit(client: string): NoRoom | undefined {
    this.closeIdle();
    const now = this.#limits.now();
    const own = [...this.#sessions.values()].filter((session) => session.client === client);
    if (own.length >= this.#limits.maxSessionsPerClient) {
      const id = this.#first((session) => session.client === client && session.connections === 0);
      if (id === undefined) {
        return { status: 429, retryAfterSeconds: Math.ceil(this.#limits.activeMs / 1000), message: `this client holds ${own.length} sessions, each still connected: the most one client may hold. Close one you no longer need (DELETE), then retry` };
      }
      this.close(id);
      return undefined;
    }
    if (this.#sessions.size < this.#limits.maxSessions) return undefined;
    const id = this.#first((session) => !this.#inUse(session, now));
    if (id !== undefined) {
      this.close(id);
      return undefined;
    }
    // The first session not connected stops counting as in use a minute after its last request.
    let soonest = this.#limits.activeMs;
    for (const session of this.#sessions.values()) if (session.connections === 0 && session.used) soonest = Math.min(soonest, session.lastActive + this.#limits.activeMs - now);
    const retryAfterSeconds = Math.max(1, Math.ceil(soonest / 1000));
    return { status: 503, retryAfterSeconds, message: `all ${this.#limits.maxSessions} sessions are in use (their clients connected, or active within the last minute): retry in ${retryAfterSeconds} s` };
  }
}
