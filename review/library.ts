/** Reading the library for sync: every page of the listing, and stored text where no hash is listed. All free. */
export { listAllLibraryDocuments } from '../api/library.js';
import type { ComplianceApi } from '../api/clientTypes.js';
import { forEachConcurrent } from './concurrency.js';
import { ReviewError } from './errors.js';
import { contentHash } from '../api/contentHash.js';
import { planSync, textHashes, type PlanSyncInput, type SyncPlan } from './syncPlan.js';

/** Hashes of the stored text of the given documents, and of its body without front matter where the text came back (getLibraryDocument include=content, free). */
async function fetchStoredHashes(
  client: ComplianceApi,
  documentIds: readonly string[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<{ hashes: Record<string, string>; bodyHashes: Record<string, string> }> {
  const hashes: Record<string, string> = {};
  const bodyHashes: Record<string, string> = {};
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
      if (doc.content !== undefined) bodyHashes[id] = textHashes(doc.content).sent;
    },
    options.signal,
  );
  return { hashes, bodyHashes };
}

/**
 * planSync, then read (free) the stored text the listing did not hash and that of every document the
 * plan would refresh, and plan again: the final plan, nothing spent. A refresh is paid only when the
 * stored body differs, so a document synced with its front matter (as uploads once were) whose front
 * matter alone changed costs nothing.
 */
export async function resolveSyncPlan(
  client: ComplianceApi,
  input: PlanSyncInput,
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<SyncPlan> {
  const first = planSync(input);
  const toRead = [...first.needsContent, ...first.unverifiedChanges];
  if (toRead.length === 0) return first;
  const { hashes, bodyHashes } = await fetchStoredHashes(client, toRead, options);
  return planSync({ ...input, knownHashes: { ...input.knownHashes, ...hashes }, bodyHashes: { ...input.bodyHashes, ...bodyHashes } });
}
