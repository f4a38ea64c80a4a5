/** The folders holding a committed npm lock: the contributor install, the real suites' tools and n8n, StrykerJS. */
export const LOCK_DIRS: string[];
/** Every problem of one lock against the package.json files it answers for (folder → manifest); empty when sound. Reads nothing. */
export function lockProblems(lock: { lockfileVersion?: number; packages?: Record<string, unknown> }, manifests: Record<string, unknown>, outerPackages?: Record<string, unknown>): string[];
/** The root lock's entries when the lock in `dir` is installed inside the checkout without its peers, which then resolve from the root install; else undefined. */
export function peerSource(root: string, dir: string): Record<string, unknown> | undefined;
/** The package.json files a lock answers for: its folder's and its workspaces', keyed by folder ('' for the root). */
export function lockManifests(dir: string): Record<string, unknown>;
