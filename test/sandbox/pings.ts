/**
 * Another key's pings beside heavy work, for the tests (which assert the order of answers) and the
 * benches (which print latencies beside their targets).
 */

export interface Ping {
  /** performance.now() when the ping was sent, and when its answer was read. */
  sentAt: number;
  answeredAt: number;
}

export const latencies = (pings: Ping[]) => pings.map((ping) => ping.answeredAt - ping.sentAt);

/**
 * Pings with `key` every 10 ms, each without waiting for the one before, until `stop()`: a stalled
 * event loop holds every ping sent meanwhile, as it holds every key's requests (one ping at a time
 * would see a one-second stall once).
 */
export function steadyPings(baseUrl: string, key: string): { stop(): Promise<Ping[]> } {
  const pings: Ping[] = [];
  const sent: Array<Promise<void>> = [];
  const ping = async () => {
    const sentAt = performance.now();
    const response = await fetch(`${baseUrl}/ping`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`ping answered ${response.status}`);
    pings.push({ sentAt, answeredAt: performance.now() });
  };
  const timer = setInterval(() => sent.push(ping()), 10);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(sent);
      return pings;
    },
  };
}

/**
 * Of the pings sent while work was in progress (each window from its request to its answer), the
 * share answered before that work was. Work done on the server's event loop holds every request
 * that arrives meanwhile until it ends (and answers itself first), so only the pings read before it
 * began get through; work off the loop lets all but the last round trip's worth through, however
 * loaded the machine is (the work takes longer then too).
 */
export function shareAnsweredDuring(pings: Ping[], windows: Array<{ from: number; to: number }>): { sent: number; share: number } {
  let sent = 0;
  let answered = 0;
  for (const { from, to } of windows) {
    for (const ping of pings) {
      if (ping.sentAt < from || ping.sentAt >= to) continue;
      sent++;
      if (ping.answeredAt < to) answered++;
    }
  }
  return { sent, share: sent === 0 ? 0 : answered / sent };
}

/** Pings with `key`, one after another 5 ms apart, until `stop()`, which resolves with every latency (ms). */
export function pingLoop(baseUrl: string, key: string): { stop(): Promise<number[]> } {
  const measured: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${baseUrl}/ping`, { headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status !== 200) throw new Error(`ping answered ${response.status}`);
      measured.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  })();
  // A failed ping surfaces at stop(), not as an unhandled rejection that ends the process mid-measure.
  loop.catch(() => undefined);
  return {
    async stop() {
      running = false;
      await loop;
      return measured;
    },
  };
}
