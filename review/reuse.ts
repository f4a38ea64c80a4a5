/**
 * A re-run never pays twice: the mappings of a pull request's run are kept (the PR template keeps them
 * with actions/cache), and a later run of the same pull request reuses a framework's mapping when its
 * framework, mapping mode and documents (by content hash) are the same, instead of mapping again.
 * The store holds only where each report is (its job id): a cache a branch's own runs can write is
 * no source of figures, so the reports are fetched again from the service and checked against the
 * text (verifiedReuse) before they count.
 */
import * as z from 'zod/v4/mini';
import { lazy } from '../api/schemas/lazy.js';
import type { MappingMode } from './config.js';
import type { RepoFile } from './documents.js';
import { bytesHash, contentHash } from '../api/contentHash.js';
import { removeFrontMatter } from './frontMatter.js';
import type { SourcedReport } from './mapping.js';

/** One framework's mapping as a later run can reuse it: where its reports are on the service. */
export interface StoredMapping {
  /** mappingKey of what was mapped. */
  key: string;
  framework: string;
  reports: Array<Pick<SourcedReport, 'source' | 'jobId'>>;
}

/** The mappings of one pull request's latest run. */
export interface MappingStore {
  version: 2;
  pullRequest: number;
  mappings: StoredMapping[];
}

const storeSchema = lazy(() =>
  z.object({
    version: z.literal(2),
    pullRequest: z.number().check(z.int(), z.positive()),
    mappings: z.array(z.object({ key: z.string().check(z.minLength(1)), framework: z.string(), reports: z.array(z.object({ source: z.string(), jobId: z.string().check(z.minLength(1)) })).check(z.minLength(1)) })),
  }),
);

/** The store a run leaves for the next run of the same pull request: its mappings' job ids, nothing the next run would have to trust. */
export function serializeMappingStore(pullRequest: number, mappings: readonly StoredMapping[]): string {
  const store: MappingStore = { version: 2, pullRequest, mappings: mappings.map(({ key, framework, reports }) => ({ key, framework, reports: reports.map(({ source, jobId }) => ({ source, jobId })) })) };
  return `${JSON.stringify(store)}\n`;
}

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
  return store.data as MappingStore;
}

/** Where the reports of an unchanged mapping are, or undefined when it must be mapped (and paid for) again. */
export function reusableReports(store: MappingStore | undefined, key: string): StoredMapping['reports'] | undefined {
  return store?.mappings.find((mapping) => mapping.key === key)?.reports;
}
