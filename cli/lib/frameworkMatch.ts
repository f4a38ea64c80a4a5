/** Which verified framework a name typed on the command line means: exact, else unique, else the candidates listed. */
import { UsageError } from './errors.js';

export interface FrameworkRef {
  slug: string;
  name: string;
}

/** The verified frameworks `typed` could mean: an exact slug or name alone, else every slug or name containing it. */
export function frameworkCandidates(typed: string, verified: readonly FrameworkRef[]): FrameworkRef[] {
  const wanted = typed.trim().toLowerCase();
  const exact = verified.filter((f) => f.slug.toLowerCase() === wanted || f.name.toLowerCase() === wanted);
  if (exact.length > 0) return exact;
  return verified.filter((f) => f.slug.toLowerCase().includes(wanted) || f.name.toLowerCase().includes(wanted));
}

/** The slug to ask for: the one candidate, or `typed` as given when none matches (the service decides); several: a usage error listing them. */
export function resolveFrameworkArgument(typed: string, verified: readonly FrameworkRef[]): string {
  const candidates = frameworkCandidates(typed, verified);
  if (candidates.length === 1) return candidates[0]!.slug;
  if (candidates.length === 0) return typed.trim();
  throw new UsageError(
    `"${typed}" matches ${candidates.length} frameworks: ${candidates.map((f) => `${f.slug} (${f.name})`).join(', ')}`,
    `Name one by its slug, for example ${candidates[0]!.slug}.`,
  );
}
