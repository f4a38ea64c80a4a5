/** Reading the library for sync: every page of the listing, and stored text where no hash is listed. All free. */
export { listAllLibraryDocuments } from '../api/library.js';
import type { ComplianceApi } from '../api/clientTypes.js';
import { forEachConcurrent } from './concurrency.js';
import { ReviewError } from './errors.js';
import { contentHash } from '../api/contentHash.js';
import { planSync, type PlanSyncInput, type SyncPlan } from './syncPlan.js';

/** Hashes of the stored text of the given documents (getLibraryDocument include=content, free). */
async function fetchContentHashes(
  client: ComplianceApi,
  documentIds: readonly string[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  await forEachConcurrent(
    [...new Set(documentIds)],
    options.concurrency ?? 4,
    async (id) => {
      const doc = await client.getLibraryDocument({ id, include: 'content' }, { signal: options.signal });
      if (doc.contentHash === undefined && doc.content === undefined) {
        // Guessing would mean refreshing (and paying for) a document that may be unchanged.
        throw new ReviewError(
          'library_content_unavailable',
          `library document ${id} came back without its text or a content hash: cannot tell whether it changed`,
        );
      }
      hashes[id] = doc.contentHash ?? contentHash(doc.content ?? '');
    },
    options.signal,
  );
  return hashes;
}

/** planSync, then fetch the text the listing did not hash and plan again: the final plan, nothing spent. */
export async function resolveSyncPlan(
  client: ComplianceApi,
  input: PlanSyncInput,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<SyncPlan> {
  const first = planSync(input);
  if (first.needsContent.length === 0) return first;
  const fetched = await fetchContentHashes(client, first.needsContent, options);
  return planSync({ ...input, knownHashes: { ...input.knownHashes, ...fetched } });
}
