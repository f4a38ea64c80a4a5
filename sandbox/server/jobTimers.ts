/**
 * The jobs' timers: one per open job, firing when it is due, all cleared at close; none holds the
 * process open (a sandbox embedded in a CLI command ends with it).
 */
export class DueTimers {
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly clock: () => number) {}

  get isClosed(): boolean {
    return this.closed;
  }

  /** Calls `due(now)` once the clock reaches `dueAt` (never after close). */
  at(dueAt: number, due: (now: number) => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) due(Math.max(this.clock(), dueAt));
    }, Math.max(0, dueAt - this.clock()));
    timer.unref();
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

/** Resolves when `done` settles or after `ms`, whichever comes first. */
export async function raceTimeout(done: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}
