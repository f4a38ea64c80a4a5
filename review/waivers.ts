/**
 * Waivers: accepted gaps from compliance.yml. A waiver holds through its expiry day; after that
 * its gap counts again and the expiry is reported loudly.
 */
import type { Waiver } from './config.js';

export interface WaiverState extends Waiver {
  expired: boolean;
  /** Days left including today; negative once expired. */
  daysLeft: number;
}

const DAY_MS = 86_400_000;

function dayNumber(date: string): number {
  return Math.floor(Date.parse(`${date.slice(0, 10)}T00:00:00Z`) / DAY_MS);
}

export function waiverState(waiver: Waiver, today: string): WaiverState {
  const daysLeft = dayNumber(waiver.expires) - dayNumber(today) + 1;
  return { ...waiver, expired: daysLeft <= 0, daysLeft };
}

/** Waivers naming this framework by the configured value, the slug or the name (case-insensitive). */
export function waiversFor(waivers: readonly Waiver[], frameworkNames: ReadonlyArray<string | undefined>): Waiver[] {
  const names = new Set(frameworkNames.filter((name): name is string => Boolean(name)).map((name) => name.trim().toLowerCase()));
  return waivers.filter((waiver) => names.has(waiver.framework.trim().toLowerCase()));
}

export function findWaiver(waivers: readonly Waiver[], controlId: string): Waiver | undefined {
  const id = controlId.trim().toLowerCase();
  return waivers.find((waiver) => waiver.control.trim().toLowerCase() === id);
}
