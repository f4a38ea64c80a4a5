/**
 * Sync planning: which repo files are new, changed, unchanged or renamed, which library documents
 * were removed from the repo, and what syncing would cost (priced by the money rule, priceOf). Pure:
 * nothing here calls the service.
 */
import type { z } from 'zod/v4/mini';
import { characterCount, LIMITS, libraryContentProblem } from '../api/schemas/common.js';
import type { libraryDocument } from '../api/schemas/responses.js';
import { priceOf, type PlannedCalls } from './budget.js';
import type { DocumentGroup } from './config.js';
import { selectDocumentPaths, type RepoFile } from './documents.js';
import { contentHash, normaliseContent, sameHash } from '../api/contentHash.js';
import { removeFrontMatter } from './frontMatter.js';
import { normaliseRepoPath } from './glob.js';

export type LibraryDocument = z.output<typeof libraryDocument>;

interface FileItem {
  path: string;
  /** Live-mode price of the action; sandbox keys are never charged. */
  tokens: number;
}

export type SyncItem =
  | (FileItem & { kind: 'new'; title: string; category: string | undefined; tags: string[]; contentHash: string })
  | (FileItem & { kind: 'changed'; documentId: string; version: number; contentHash: string })
  | (FileItem & { kind: 'unchanged'; documentId: string })
  /** The library holds this text under another path of this repo: nothing to charge. */
  | (FileItem & { kind: 'renamed'; documentId: string; libraryPath: string })
  /** The same text as another file or document: the service would refuse it (duplicate_document), so it is not sent. */
  | (FileItem & { kind: 'duplicate'; sameAs: string; documentId: string | undefined })
  /** Outside the library's size limits: not sent. */
  | (FileItem & { kind: 'invalid'; reason: string })
  /** The listing has no content hash for the matching document: fetch its text (free) to decide. */
  | (FileItem & { kind: 'needs-content'; documentId: string })
  | (FileItem & { kind: 'removed'; documentId: string; title: string; delete: boolean });

export type SyncItemKind = SyncItem['kind'];

export interface SyncPlan {
  repoTag: string;
  items: SyncItem[];
  counts: Record<SyncItemKind, number>;
  /** Live-mode tokens the plan spends (ingests and refreshes). */
  totalTokens: number;
  /** Library documents whose text must be fetched before the plan is final (see resolveSyncPlan). */
  needsContent: string[];
  /**
   * Changed documents whose stored text was not read: it may be text synced with its front matter
   * (before front matter was removed from uploads) whose body is the same. resolveSyncPlan reads them
   * (free) before any refresh is paid.
   */
  unverifiedChanges: string[];
  /** Normalised text to upload, by path, for the new and changed files. A Map: not serialised with the plan. */
  contents: Map<string, string>;
}

/** The tag that marks library documents created by syncing this repository. */
export function repositoryTag(repository: string): string {
  return `repo:${repository.trim().toLowerCase()}`;
}

export interface PlanSyncInput {
  files: readonly RepoFile[];
  /** Every library document (all pages of the listing). */
  library: readonly LibraryDocument[];
  /** `repo:<owner>/<name>`, see repositoryTag. */
  repoTag: string;
  groups: readonly DocumentGroup[];
  deleteRemoved: boolean;
  /** Hashes of stored text fetched for documents the listing reports without one, by document id. */
  knownHashes?: Readonly<Record<string, string>>;
  /** Hashes of stored bodies: stored text read back, its front matter removed (textHashes(text).sent), by document id. */
  bodyHashes?: Readonly<Record<string, string>>;
  /** GET /billing's price list; without it (or where it lists none) the operation table's price. */
  prices?: Readonly<Record<string, number>>;
}

/** The charged calls a sync plan makes. */
export function syncCalls(plan: Pick<SyncPlan, 'counts'>): PlannedCalls[] {
  return [
    { operationId: 'ingestLibraryDocument', count: plan.counts.new },
    { operationId: 'refreshLibraryDocument', count: plan.counts.changed },
  ];
}

const REPO_TAG_PREFIX = 'repo:';

function repoTagsOf(doc: LibraryDocument): string[] {
  return doc.tags.map((tag) => tag.toLowerCase()).filter((tag) => tag.startsWith(REPO_TAG_PREFIX));
}

/** The title a new library document gets: the first markdown heading, else the file name. */
export function documentTitle(path: string, content: string): string {
  const heading = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(content)?.[1]?.trim();
  const base = path.split('/').pop() ?? path;
  return (heading || base.replace(/\.[^.]+$/, '') || base).slice(0, 500);
}

/**
 * The text a library upload of `text` sends: without front matter (metadata, never policy text),
 * normalised (see normaliseContent), and why it cannot be sent when it is too short or too long.
 * normaliseContent ends the text with one newline; a file of exactly the limit must not be refused
 * for it, so that newline is dropped from the upload then (the content hash ignores it either way).
 */
export function libraryContent(text: string): { content: string; problem: string | undefined } {
  const normalised = normaliseContent(removeFrontMatter(text));
  const content = characterCount(normalised) > LIMITS.libraryMaxChars && normalised.endsWith('\n') ? normalised.slice(0, -1) : normalised;
  return { content, problem: sizeProblem(content) };
}

/**
 * Whether the library already holds `text` unchanged, given the stored text's hash and, when it was
 * read back, the hash of its body (`textHashes(stored text).sent`). Uploads were once sent with their front matter:
 * a document synced then is unchanged when its stored hash is the raw text's (same front matter) or
 * its stored body is the body sent now (front matter edited). Front matter alone never costs a refresh.
 */
export function holdsSameText(text: TextHashes, stored: string, storedBody?: string): boolean {
  return sameHash(stored, text.sent) || sameHash(stored, text.raw) || (storedBody !== undefined && sameHash(storedBody, text.sent));
}

/**
 * A text's hash as the library is sent it now (`sent`: front matter removed; of stored text synced
 * before uploads dropped it, its body) and as it was sent before (`raw`).
 */
interface TextHashes {
  sent: string;
  raw: string;
}

export function textHashes(text: string): TextHashes {
  return { sent: contentHash(libraryContent(text).content), raw: contentHash(text) };
}

/** The client's one rule for library text (api's libraryContentProblem: lenient at both bounds, naming its count). */
function sizeProblem(content: string): string | undefined {
  const problem = libraryContentProblem(content);
  return problem && `the document ${problem.message}`;
}

export function planSync(input: PlanSyncInput): SyncPlan {
  // Both are fixed by the operation table, so always priced.
  const ingestPrice = priceOf('ingestLibraryDocument', input.prices ?? {}) ?? 0;
  const refreshPrice = priceOf('refreshLibraryDocument', input.prices ?? {}) ?? 0;
  const repoTag = input.repoTag.toLowerCase();
  const selected = selectDocumentPaths(input.groups, input.files.map((file) => file.path));
  const byPath = new Map(input.files.map((file) => [normaliseRepoPath(file.path), file]));
  const hashOf = (doc: LibraryDocument) => doc.contentHash ?? input.knownHashes?.[doc.id];
  const holds = (doc: LibraryDocument, text: TextHashes) => {
    const stored = hashOf(doc);
    return stored !== undefined && holdsSameText(text, stored, input.bodyHashes?.[doc.id]);
  };

  // Ours: tagged with this repo. Unclaimed: no repo tag at all (ingested by hand or by another tool).
  const ours = input.library.filter((doc) => repoTagsOf(doc).includes(repoTag));
  const unclaimed = input.library.filter((doc) => repoTagsOf(doc).length === 0);
  const newest = (docs: LibraryDocument[]) => docs.sort((a, b) => b.version - a.version)[0];
  const atPath = (path: string) =>
    newest(ours.filter((doc) => doc.filename === path)) ?? newest(unclaimed.filter((doc) => doc.filename === path));

  const items: SyncItem[] = [];
  const contents = new Map<string, string>();
  const matchedIds = new Set<string>();
  const repoPaths = new Set(selected.map((entry) => entry.path));
  const firstPathWithHash = new Map<string, string>();
  const pendingNew: Array<{ path: string; group: DocumentGroup; content: string; hashes: TextHashes }> = [];
  const unverifiedChanges: string[] = [];

  for (const { path, group } of selected) {
    const raw = byPath.get(path)?.content ?? '';
    const { content, problem } = libraryContent(raw);
    const hash = contentHash(content);
    const hashes: TextHashes = { sent: hash, raw: contentHash(raw) };
    const doc = atPath(path);
    if (doc) matchedIds.add(doc.id);
    const twin = firstPathWithHash.get(hash);
    if (!firstPathWithHash.has(hash)) firstPathWithHash.set(hash, path);

    if (problem) {
      items.push({ kind: 'invalid', path, reason: problem, tokens: 0 });
    } else if (doc) {
      const stored = hashOf(doc);
      if (stored === undefined) {
        items.push({ kind: 'needs-content', path, documentId: doc.id, tokens: 0 });
      } else if (holds(doc, hashes)) {
        items.push({ kind: 'unchanged', path, documentId: doc.id, tokens: 0 });
      } else if (twin !== undefined) {
        items.push({ kind: 'duplicate', path, sameAs: twin, documentId: doc.id, tokens: 0 });
      } else {
        items.push({ kind: 'changed', path, documentId: doc.id, version: doc.version, contentHash: hash, tokens: refreshPrice });
        contents.set(path, content);
        if (input.bodyHashes?.[doc.id] === undefined) unverifiedChanges.push(doc.id);
      }
    } else if (twin !== undefined) {
      items.push({ kind: 'duplicate', path, sameAs: twin, documentId: undefined, tokens: 0 });
    } else {
      pendingNew.push({ path, group, content, hashes });
    }
  }

  // A file without a document at its path whose text the library already holds is a rename (our
  // document, or an unclaimed one, whose path left the repo) or a duplicate (held elsewhere).
  for (const { path, group, content, hashes } of pendingNew) {
    const holder = input.library.find((doc) => holds(doc, hashes));
    if (holder) {
      const holderPath = holder.filename ?? '';
      const movable = repoTagsOf(holder).every((tag) => tag === repoTag) && !repoPaths.has(holderPath) && !matchedIds.has(holder.id);
      matchedIds.add(holder.id);
      items.push(
        movable
          ? { kind: 'renamed', path, documentId: holder.id, libraryPath: holderPath, tokens: 0 }
          : { kind: 'duplicate', path, sameAs: holderPath || holder.title, documentId: holder.id, tokens: 0 },
      );
      continue;
    }
    items.push({
      kind: 'new',
      path,
      title: documentTitle(path, content),
      category: group.category,
      tags: [repoTag, ...group.tags],
      contentHash: hashes.sent,
      tokens: ingestPrice,
    });
    contents.set(path, content);
  }

  // Report in the repo's order, whatever pass classified a file.
  const order = new Map(selected.map((entry, index) => [entry.path, index]));
  items.sort((a, b) => (order.get(a.path) ?? 0) - (order.get(b.path) ?? 0));

  const needsContent = items.flatMap((item) => (item.kind === 'needs-content' ? [item.documentId] : []));
  for (const doc of ours) {
    if (matchedIds.has(doc.id)) continue;
    // Until its text is known, an unhashed document of ours may be the source of a rename.
    if (hashOf(doc) === undefined && pendingNew.length > 0) needsContent.push(doc.id);
    items.push({ kind: 'removed', path: doc.filename ?? '', documentId: doc.id, title: doc.title, delete: input.deleteRemoved, tokens: 0 });
  }

  const counts = Object.fromEntries(
    (['new', 'changed', 'unchanged', 'renamed', 'duplicate', 'invalid', 'needs-content', 'removed'] as const).map((kind) => [
      kind,
      items.filter((item) => item.kind === kind).length,
    ]),
  ) as Record<SyncItemKind, number>;
  return {
    repoTag,
    items,
    counts,
    totalTokens: items.reduce((sum, item) => sum + item.tokens, 0),
    needsContent,
    unverifiedChanges,
    contents,
  };
}
