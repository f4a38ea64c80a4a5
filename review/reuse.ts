/**
 * A re-run never pays twice: the mappings of a pull request's run are kept (the PR template keeps them
 * with actions/cache), and a later run of the same pull request reuses a framework's mapping when its
 * framework, mapping mode and documents (by content hash) are the same, instead of mapping again.
 */
import * as z from 'zod/v4';
import type { MappingMode } from './config.js';
import type { RepoFile } from './documents.js';
import { bytesHash, contentHash } from '../api/contentHash.js';
import { removeFrontMatter } from './frontMatter.js';
import type { SourcedReport } from './mapping.js';

/** One framework's mapping as a later run can reuse it. */
export interface StoredMapping {
  /** mappingKey of what was mapped. */
  key: string;
  framework: string;
  reports: SourcedReport[];
}

/** The mappings of one pull request's latest run. */
export interface MappingStore {
  version: 1;
  pullRequest: number;
  mappings: StoredMapping[];
}

const storeSchema = z.object({
  version: z.literal(1),
  pullRequest: z.number().int().positive(),
  mappings: z.array(z.object({ key: z.string().min(1), framework: z.string(), reports: z.array(z.object({ source: z.string(), jobId: z.string(), report: z.object({ coverage: z.number() }).loose() })).min(1) })),
});

/**
 * What identifies a mapping: the framework, the mode and each document's path and content hash.
 * Without its front matter: the mapping reads only the text (front matter is blanked), so an edit of
 * the front matter alone never makes a re-run pay for a mapping again.
 */
export function mappingKey(framework: string, mode: MappingMode, files: readonly RepoFile[]): string {
  const documents = files.map((file) => [file.path, contentHash(removeFrontMatter(file.content))]).sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''));
  return bytesHash(new TextEncoder().encode(JSON.stringify([framework, mode, documents])));
}

/**
 * The store of a previous run, when it belongs to `pullRequest` and reads as one; anything else
 * (another pull request, an older format, a broken file) is ignored, so the run maps afresh.
 */
export function readMappingStore(text: string | undefined, pullRequest: number): MappingStore | undefined {
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const store = storeSchema.safeParse(parsed);
  if (!store.success || store.data.pullRequest !== pullRequest) return undefined;
  // The reports are this package's own normalised models, written by the run that mapped them.
  return store.data as unknown as MappingStore;
}

/** The reports of an unchanged mapping, or undefined when it must be mapped (and paid for) again. */
export function reusableReports(store: MappingStore | undefined, key: string): SourcedReport[] | undefined {
  return store?.mappings.find((mapping) => mapping.key === key)?.reports;
}
