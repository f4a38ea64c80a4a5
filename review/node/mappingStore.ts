/**
 * The mapping store as a gated run may read it: from a cache restored into the checkout, never a
 * copy the checkout commits (the change itself could have written that one). Whatever is read
 * still counts only once the service confirms it (review/verifyMapping.ts).
 */
import { decodeUtf8, readRepoBytes } from './files.js';
import { isTracked } from './git.js';

export async function readMappingStoreText(root: string, path: string): Promise<{ text: string | undefined; ignored: string | undefined }> {
  const bytes = await readRepoBytes(root, path);
  if (bytes === undefined) return { text: undefined, ignored: undefined };
  if (await isTracked(root, path)) return { text: undefined, ignored: `${path} is committed in the checkout, so the change could have written it: ignored, the mappings are made afresh` };
  return { text: decodeUtf8(bytes, path), ignored: undefined };
}
