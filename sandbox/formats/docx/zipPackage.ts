/** Deterministic ZIP container for OOXML packages: fixed entry order and timestamps. */
import { zipSync, type Zippable } from 'fflate';

/**
 * 1980-01-01 00:00 local time: the DOS timestamp fields fflate writes come from local-time getters,
 * so a local-time constructor gives the same bytes in every time zone.
 */
const FIXED_MTIME = new Date(1980, 0, 1, 0, 0, 0);

export function zipPackage(parts: Array<[path: string, content: string]>): Uint8Array {
  const encoder = new TextEncoder();
  const entries: Zippable = {};
  for (const [path, content] of parts) entries[path] = [encoder.encode(content), { level: 6, mtime: FIXED_MTIME }];
  return zipSync(entries);
}
