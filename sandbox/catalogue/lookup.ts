/** Finding a framework by any of its names, and "did you mean" suggestions. */
import { frameworks } from './catalogue.js';
import { compactKey, trigramSimilarity } from './text.js';
import type { FrameworkEntry } from './types.js';

function namesOf(entry: FrameworkEntry): string[] {
  return [entry.slug, entry.name, entry.shortName, ...entry.aliases];
}

let keyIndex: Map<string, FrameworkEntry> | undefined;

/** Every compact name key to its framework; the first framework listing a key keeps it. */
function index(): Map<string, FrameworkEntry> {
  if (!keyIndex) {
    keyIndex = new Map();
    for (const entry of frameworks) {
      for (const name of namesOf(entry)) {
        const key = compactKey(name);
        if (key && !keyIndex.has(key)) keyIndex.set(key, entry);
      }
    }
  }
  return keyIndex;
}

/** A trailing version such as " v4.0.1", ":2022", " Rev. 5", " 2.0". */
const TRAILING_VERSION = /[\s:_-]*(?:v|version|rev\.?|revision|r)?\s*\d+(?:\.\d+)*\s*$/i;

/**
 * The framework a name refers to: slug, name, short name or alias, ignoring case, spaces and
 * punctuation ("NIST CSF 2.0", "nist-csf-2", "HIPAA", "GDPR", "ISO 27001", "pci dss v4.0.1").
 */
export function findFramework(nameOrSlug: string): FrameworkEntry | undefined {
  const idx = index();
  const exact = idx.get(compactKey(nameOrSlug));
  if (exact) return exact;
  // A version the catalogue does not list as an alias: try without it ("PCI DSS v4" → "PCI DSS").
  const withoutVersion = compactKey(nameOrSlug.replace(TRAILING_VERSION, ''));
  if (withoutVersion.length >= 4) return idx.get(withoutVersion);
  return undefined;
}

/** Frameworks whose names are closest to `text`, best first, for "did you mean" messages. */
export function closestFrameworks(
  text: string,
  options: { verifiedOnly?: boolean; limit?: number } = {},
): FrameworkEntry[] {
  const wanted = compactKey(text);
  const limit = options.limit ?? 3;
  return frameworks
    .filter((entry) => !options.verifiedOnly || entry.verified)
    .map((entry, order) => {
      let best = 0;
      for (const name of namesOf(entry)) {
        const key = compactKey(name);
        let sim = trigramSimilarity(wanted, key);
        // One name containing the other ("UK GDPR" and "GDPR", "HIPAA Privacy Rule" and "HIPAA").
        if (key.length >= 3 && wanted.length >= 3 && (wanted.includes(key) || key.includes(wanted))) sim = Math.max(sim, 0.6);
        best = Math.max(best, sim);
      }
      return { entry, score: best, order };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, limit)
    .map((s) => s.entry);
}
