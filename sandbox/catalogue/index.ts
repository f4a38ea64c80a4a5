/**
 * The sandbox's framework catalogue: real frameworks with regulator, jurisdiction, sector and official
 * source, dated updates, and full control sets for the verified ones; plus lookup and discovery.
 */
import type { FrameworkEntry } from './types.js';

export type { Control, FrameworkEntry } from './types.js';
export { frameworks } from './catalogue.js';
export { closestFrameworks, findFramework } from './lookup.js';
export { suggestFrameworks } from './discovery.js';
export { regionName } from './jurisdictions.js';

/** The `GET /frameworks/{slug}` body: the entry with its control set (when verified) and dated updates. */
export function frameworkDetails(entry: FrameworkEntry): Record<string, unknown> {
  const groups: Array<{ name: string; controls: number }> = [];
  for (const control of entry.controls ?? []) {
    const last = groups[groups.length - 1];
    if (last && last.name === control.group) last.controls++;
    else groups.push({ name: control.group, controls: 1 });
  }
  const latest = entry.updates[entry.updates.length - 1];
  return {
    slug: entry.slug,
    name: entry.name,
    shortName: entry.shortName,
    aliases: [...entry.aliases],
    regulator: entry.regulator,
    jurisdiction: entry.jurisdiction,
    regions: [...entry.regions],
    sector: entry.sector,
    appliesTo: entry.appliesTo,
    sourceUrl: entry.sourceUrl,
    verified: entry.verified,
    version: entry.version,
    description: entry.description,
    topics: [...entry.topics],
    ...(entry.controls
      ? {
          controlCount: entry.controls.length,
          controlGroups: groups,
          controls: entry.controls.map((c) => ({
            id: c.id,
            title: c.title,
            group: c.group,
            description: c.description,
            keywords: [...c.keywords],
          })),
        }
      : {}),
    updates: entry.updates.map((u) => ({ ...u })),
    ...(latest ? { lastUpdated: latest.date } : {}),
  };
}
