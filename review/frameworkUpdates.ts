/** Framework updates since the last review, from GET /frameworks/{slug} (free). */
import type { ComplianceApi } from '../api/clientTypes.js';
import type { z } from 'zod/v4/mini';
import { PATH_ID_PATTERN } from '../api/schemas/common.js';
import type { frameworkSummary, frameworkUpdate } from '../api/schemas/responses.js';
import { ComplianceError } from '../api/errors.js';
import { settle } from '../api/settle.js';
import { ReviewError } from './errors.js';
import { slugify } from './keys.js';

type FrameworkUpdate = z.output<typeof frameworkUpdate>;

export interface FrameworkUpdates {
  slug: string;
  name: string | undefined;
  /** Updates dated after `since`, newest first. */
  updates: FrameworkUpdate[];
  /** Date of the newest update the service lists at all (what a generated document was based on). */
  latestUpdate: string | undefined;
  error?: { code: string; message: string };
}

const day = (date: string) => date.slice(0, 10);

/**
 * The slug for a framework named in compliance.yml: a verified framework's slug or name as
 * GET /capabilities lists them, else the value itself when it is slug-shaped, else its slugified form.
 */
export function resolveFrameworkSlug(nameOrSlug: string, verified: ReadonlyArray<z.output<typeof frameworkSummary>>): string {
  const wanted = nameOrSlug.trim().toLowerCase();
  const found = verified.find((framework) => framework.slug.toLowerCase() === wanted || framework.name.trim().toLowerCase() === wanted);
  if (found) return found.slug;
  return PATH_ID_PATTERN.test(nameOrSlug.trim()) ? nameOrSlug.trim() : slugify(nameOrSlug);
}

/**
 * Refuses, before anything is spent, a framework listed twice: by slug, once names and slugs are
 * resolved (`HIPAA Security Rule` and `hipaa-security` are one). Each entry would be mapped and
 * charged, for identical results.
 */
export function assertDistinctFrameworks(frameworks: ReadonlyArray<{ framework: string }>, verified: ReadonlyArray<z.output<typeof frameworkSummary>>): void {
  const first = new Map<string, number>();
  frameworks.forEach(({ framework }, index) => {
    const slug = resolveFrameworkSlug(framework, verified);
    const earlier = first.get(slug);
    if (earlier !== undefined) {
      throw new ReviewError(
        'invalid_config',
        `frameworks[${index}] "${framework}" is the same framework as frameworks[${earlier}] "${frameworks[earlier]?.framework}" (${slug}): it would be mapped and charged twice`,
        'List each framework once in compliance.yml (or in the framework input).',
      );
    }
    first.set(slug, index);
  });
}

/** Per framework, the updates newer than `since` (YYYY-MM-DD); a framework that cannot be read carries its error. */
export async function checkFrameworkUpdates(
  client: ComplianceApi,
  slugs: readonly string[],
  since: string | undefined,
  options: { signal?: AbortSignal } = {},
): Promise<FrameworkUpdates[]> {
  const results: FrameworkUpdates[] = [];
  for (const slug of [...new Set(slugs)]) {
    // Settled, not caught: n8n's strict lint reads this file (the node imports the loop that imports it) and wants no rethrow inside a catch.
    const read = await settle(() => client.getFramework({ slug }, { signal: options.signal }));
    if (!read.ok) {
      // A cancellation ends the check; it is not a framework that could not be read.
      if (!(read.error instanceof ComplianceError) || read.error.code === 'aborted') throw read.error;
      results.push({ slug, name: undefined, updates: [], latestUpdate: undefined, error: { code: read.error.code, message: read.error.toDisplayString() } });
      continue;
    }
    const sorted = [...read.value.updates].sort((a, b) => day(b.date).localeCompare(day(a.date)));
    results.push({
      slug,
      name: read.value.name,
      updates: since ? sorted.filter((update) => day(update.date) > since) : sorted,
      latestUpdate: sorted[0] ? day(sorted[0].date) : undefined,
    });
  }
  return results;
}
