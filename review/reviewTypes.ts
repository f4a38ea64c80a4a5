/** What runReview takes and answers: the review loop's input and result. */
import type { MergePrice } from './mergePrice.js';
import type { KeyMode } from '../api/schemas/common.js';
import type { BudgetCheck, CostEstimate, SpendLedger } from './budget.js';
import type { Config } from './config.js';
import type { RepoFile } from './documents.js';
import type { Declaration } from './declaredCheck.js';
import type { DriftResult, GenerationManifest, ManifestEntry } from './drift.js';
import type { EventPolicy, ReviewEvent } from './events.js';
import type { FrameworkUpdates } from './frameworkUpdates.js';
import type { ExistingIssue, GapIssuePlan } from './gapIssues.js';
import type { FailOn } from './failOn.js';
import type { GateResult } from './gate.js';
import type { ReviewReport } from './reportDocument.js';
import type { MappingStore, StoredMapping } from './reuse.js';
import type { SyncPlan } from './syncPlan.js';
import type { SyncRunResult } from './syncRun.js';

export interface ReviewProgress {
  phase: 'plan' | 'sync' | 'map' | 'updates' | 'drift';
  message: string;
}

export interface ReviewInput {
  config: Config;
  /** The repo's document files (others are ignored); see selectDocumentPaths for which to read. */
  files: readonly RepoFile[];
  /**
   * How the documents' front matter declarations (`satisfies:`) are read: readDeclarations (which
   * parses YAML). A port rather than an import, so that the n8n node, which bundles no YAML parser
   * (its size target), can run the loop reading none; every other surface passes readDeclarations.
   */
  readDeclarations: (documents: readonly RepoFile[]) => Declaration[];
  /** YYYY-MM-DD from the caller's clock: waivers expire against it. */
  today: string;
  /** ISO timestamp for the report; defaults to the start of `today`. */
  now?: string;
  /** owner/name; overrides compliance.yml `repository` (the library tag of the synced documents). */
  repository?: string;
  /**
   * The repository the run is in (GITHUB_REPOSITORY, CI_PROJECT_PATH), where `commit` is: the report
   * and its evidence links point at it. Default `repository` (compliance.yml's name for the set,
   * which may be another repository's).
   */
  runRepository?: string;
  /** The commit the files were read at (git HEAD, GITHUB_SHA): the report's evidence links point at it. */
  commit?: string;
  /** Where the repository is browsed, for evidence links (default https://github.com). */
  serverUrl?: string;
  /** The server is a GitLab (its links read `/-/blob/<commit>/<file>#L3-5`). */
  forge?: 'github' | 'gitlab';
  /**
   * The library sync. `run` (default): sync what changed, then map. `price`: plan the sync against
   * the library (free) and report what it would cost as `mergePrice`, spend nothing on it (a pull
   * request: the library mirrors the default branch). `skip`: no library access at all. Mapping
   * always reads the given files directly.
   */
  sync?: 'run' | 'price' | 'skip';
  /**
   * Git lists no change since the base commit to a document in scope nor to compliance.yml
   * (changedPathsCheck): nothing is mapped and nothing spent (status `unchanged`).
   */
  unchangedSinceBase?: boolean;
  /** Read framework updates (free, one call per framework); default true. */
  checkUpdates?: boolean;
  deleteRemoved?: boolean;
  /** Plan and price everything, spend nothing: no sync, no mapping. */
  dryRun?: boolean;
  maxTokens?: number;
  /** The cap to count against when the caller spends more under it (a session, a later regeneration); else one of maxTokens. */
  ledger?: SpendLedger;
  /** Default: compliance.yml's `failOn` (gateConfiguration resolves what a flag or input may add), else `coverage`. */
  failOn?: FailOn;
  /** The mappings of an earlier run of the same pull request (readMappingStore): unchanged ones are reused, not paid again. */
  reuse?: MappingStore;
  /** Gap keys of a previous report (baselineGapKeys). */
  baseline?: ReadonlySet<string>;
  /**
   * The event that started the run (see events.ts): a pull request never writes the library (a
   * sync `run` is refused) and never plans gap issues. Default `other`: every write was asked for.
   */
  event?: ReviewEvent;
  /** Issues carrying the gap label; when given (and the event allows it), the result includes the gap-issue plan. */
  existingIssues?: readonly ExistingIssue[];
  /** Framework updates after this date (YYYY-MM-DD) are reported; default: all. */
  lastReviewDate?: string;
  /** Drift is checked when the manifest is given, against these current files. */
  manifest?: GenerationManifest;
  generatedFiles?: Readonly<Record<string, string | Uint8Array | undefined>>;
  concurrency?: number;
  onProgress?: (event: ReviewProgress) => void;
  signal?: AbortSignal;
}

export interface ReviewResult {
  /**
   * `refused`: over budget, nothing was spent. `dry-run`: planned and priced only. `unchanged`
   * (unchangedSinceBase): no document in scope nor compliance.yml changed since the base commit, nothing mapped.
   */
  status: 'completed' | 'dry-run' | 'refused' | 'unchanged';
  mode: KeyMode;
  estimate: CostEstimate;
  budget: BudgetCheck;
  /** The cap this review counted against (input.ledger, or one of maxTokens): later spending of the same run reserves from it. */
  ledger: SpendLedger;
  sync: { plan: SyncPlan; run: SyncRunResult | undefined } | undefined;
  /** With sync `price`: what syncing these files into the library (merging) will cost, at GET /billing prices. */
  mergePrice: MergePrice | undefined;
  frameworks: GateResult[];
  /** Frameworks whose mapping or report failed: the review cannot pass. */
  frameworkErrors: Array<{ framework: string; code: string; message: string }>;
  report: ReviewReport;
  gapPlan: GapIssuePlan | undefined;
  frameworkUpdates: FrameworkUpdates[];
  drift: { documents: DriftResult[]; orphaned: ManifestEntry[] } | undefined;
  tokensSpent: number;
  /** Frameworks whose mapping was reused from input.reuse (0 tokens). */
  reused: string[];
  /** Every framework's mapping of this run, mapped or reused: what a later run of the same pull request may reuse. */
  mappings: StoredMapping[];
  passed: boolean;
  /** What the event allowed this run to change. */
  policy: EventPolicy;
}
