/** The public shapes of the sandbox's document library engine. */
import type { KeyMode } from '../../api/schemas/common.js';

/** What the caller sends to ingest a document (`POST /library/documents`). */
export interface IngestInput {
  title: string;
  content: string;
  /** Kept as given when present; otherwise the library classifies the document. */
  category?: string;
  /** Kept as given; a few derived topic tags are added. */
  tags?: readonly string[];
  filename?: string;
}

/** Admission limits the server passes (capacity depends on the key's mode). */
export interface IngestAdmission {
  /** Maximum number of documents (pending ones included) the key may hold: 25 sandbox, 500 live. */
  capacity: number;
  /** ISO 8601 time of the request; the library never reads the clock. */
  now: string;
}

/** The work a job finishes: created by beginIngest/beginRefresh, finished by completeWork or failWork. */
export interface PendingWork {
  documentId: string;
  /** The version the document will have once the work completes (1 for an ingest). */
  version: number;
  kind: 'ingest' | 'refresh';
}

/** Pending work of any key, for a server that restarts and must fail (and refund) interrupted jobs. */
export interface InterruptedWork extends PendingWork {
  keyId: string;
}

export interface CompleteOptions {
  /** Sandbox classification output is watermarked; indexing and search are never watermarked. */
  mode: KeyMode;
  now: string;
}

/** How the category was decided, and the sandbox watermark when there is one. */
export interface Classification {
  /** given: the caller's; existing: the most similar category the caller already uses; builtin: the built-in set; fallback: nothing matched. */
  method: 'given' | 'existing' | 'builtin' | 'fallback';
  /** 0..1 similarity behind the decision (1 for a given category). */
  confidence: number;
  /** Present in sandbox mode. */
  watermark?: string;
}

type DocumentStatus = 'pending' | 'ready';

/** A library document's metadata, in the `libraryDocument` response shape. */
export interface LibraryDocumentView {
  /** URL-safe: `doc_` + 16 hex digits. */
  id: string;
  title: string;
  filename: string | null;
  category: string | null;
  tags: string[];
  /** Current live version; 0 while the first ingest is still pending. */
  version: number;
  /** Characters of content. */
  size: number;
  /** UTF-8 bytes of content. */
  bytes: number;
  /** `sha256:<hex>` of the content with line endings normalised and trailing whitespace trimmed. */
  contentHash: string;
  summary: string | null;
  status: DocumentStatus;
  classification: Classification | null;
  /** Present while an ingest or refresh job is under way: the version it will produce. */
  pendingVersion?: number;
  createdAt: string;
  updatedAt: string;
  /** Only when asked for (`include=content`). */
  content?: string;
}

export interface ListOptions {
  /** Default LIST_DEFAULT_LIMIT, maximum LIST_MAX_LIMIT. */
  limit?: number;
  /** The `nextCursor` of the previous page. */
  cursor?: string;
  /** Case-insensitive exact category. */
  category?: string;
  /** Case-insensitive exact tag. */
  tag?: string;
}

export interface LibraryPage {
  /** Oldest first (order of ingest), stable across pages. */
  documents: LibraryDocumentView[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export interface StorageCounters {
  documents: number;
  /** UTF-8 bytes of the stored (live) content. */
  bytes: number;
}

export interface SearchInput {
  query: string;
  category?: string;
  /** A result must carry every tag given (case-insensitive). */
  tags?: readonly string[];
  /** Default SEARCH_DEFAULT_LIMIT (10), maximum SEARCH_MAX_LIMIT (50); above it is an error. */
  limit?: number;
}

/** One ranked document, in the `searchHit` response shape. */
export interface SearchHit {
  documentId: string;
  title: string;
  filename: string | null;
  category: string | null;
  tags: string[];
  /**
   * Relevance in (0, 1]: a document matching m of the query's n terms/phrases scores in
   * ((m-1)/n, m/n], so documents with every term always rank above those with some.
   */
  score: number;
  /** 1–3 passages, HTML-escaped, matched terms wrapped in <mark>…</mark>. */
  snippets: string[];
}

export interface SearchOutcome {
  query: string;
  results: SearchHit[];
  /** Matching documents before the limit. */
  total: number;
  limit: number;
}
