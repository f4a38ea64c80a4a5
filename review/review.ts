/**
 * The whole review loop as one call: sync what changed, map each framework, gate, plan the gap
 * issues, pull framework updates, detect drift. No I/O beyond the client it is given; the caller
 * supplies files, clock and existing issues, and applies what comes back.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import { ComplianceError } from '../api/errors.js';
import type { KeyMode } from '../api/schemas/common.js';
import { chargedTokens, mayHaveCharged, priceCalls, priceOf, SpendLedger, type BudgetCheck, type CostEstimate, type CostLine, type PlannedCalls } from './budget.js';
import { chargedStep } from './chargedStep.js';
import { repositoryTag, type Config } from './config.js';
import { frameworkDocuments, selectDocumentPaths, type RepoFile } from './documents.js';
import { detectDrift, type DriftResult, type GenerationManifest, type ManifestEntry } from './drift.js';
import { ReviewError } from './errors.js';
import { assertMayWriteLibrary, eventPolicy, type EventPolicy, type ReviewEvent } from './events.js';
import { assertDistinctFrameworks, checkFrameworkUpdates, resolveFrameworkSlug, type FrameworkUpdates } from './frameworkUpdates.js';
import { planGapIssues, type ExistingIssue, type GapIssuePlan } from './gapIssues.js';
import type { FailOn } from './failOn.js';
import { evaluateGate, type GateResult } from './gate.js';
import { listAllLibraryDocuments } from '../api/library.js';
import { resolveSyncPlan } from './library.js';
import { readDeclarations } from './declarations.js';
import { traceReports } from './evidenceTrace.js';
import { mappingCalls, runMapping, type SourcedReport } from './mapping.js';
import { buildReviewReport, type ReviewReport } from './reportDocument.js';
import { mappingKey, reusableReports, type MappingStore, type StoredMapping } from './reuse.js';
import { verifiedReuse } from './verifyMapping.js';
import { syncCalls, type SyncPlan } from './syncPlan.js';
import { runSync, type SyncRunResult } from './syncRun.js';

interface ReviewProgress {
  phase: 'plan' | 'sync' | 'map' | 'updates' | 'drift';
  message: string;
}

export interface ReviewInput {
  config: Config;
  /** The repo's document files (others are ignored); see selectDocumentPaths for which to read. */
  files: readonly RepoFile[];
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

export interface MergePrice {
  /** Documents the sync would ingest (new) or refresh (changed), and remove from the library. */
  counts: { new: number; changed: number; removed: number };
  /** Live-mode tokens, from the service's price list; undefined when an operation's price is not listed. */
  tokens: number | undefined;
  lines: CostLine[];
}

/** What the sync of `plan` costs, priced by the money rule (priceOf) as the sync itself is. */
export function priceSyncPlan(plan: SyncPlan, prices: Readonly<Record<string, number>>): MergePrice {
  const lines = syncCalls(plan).map((call) => ({ ...call, tokensEach: priceOf(call.operationId, prices) }));
  const estimate = priceCalls(lines, prices);
  return {
    counts: { new: plan.counts.new, changed: plan.counts.changed, removed: plan.counts.removed },
    tokens: estimate.unpriced.length > 0 ? undefined : estimate.totalTokens,
    lines,
  };
}

type Progress = (phase: ReviewProgress['phase'], message: string) => void;

/** What the run decides before it spends anything: the plan the money rule prices, reserves and runs. */
interface ReviewPlan {
  mode: KeyMode;
  billing: Awaited<ReturnType<ComplianceApi['getBilling']>>;
  /** The catalogue's verified frameworks (empty when nothing is mapped or generated). */
  verified: Awaited<ReturnType<ComplianceApi['getCapabilities']>>['verifiedFrameworks'];
  policy: EventPolicy;
  syncMode: NonNullable<ReviewInput['sync']>;
  /** The library sync's plan (undefined when skipped); `toSync` only when it runs. */
  plan: SyncPlan | undefined;
  toSync: SyncPlan | undefined;
  mergePrice: MergePrice | undefined;
  declarations: ReturnType<typeof readDeclarations>;
  /** Each framework's documents and mapping key, and its stored mapping when the service confirmed it. */
  mappings: Array<{ framework: Config['frameworks'][number]; files: RepoFile[]; key: string; reused: SourcedReport[] | undefined }>;
  /** The calls the charged step prices and reserves: the sync's, then every mapping not reused. */
  calls: PlannedCalls[];
  unchanged: boolean;
  ledger: SpendLedger;
}

/** The charged step's answer: what the sync and the mappings did and spent. */
interface SyncedAndMapped {
  sync: SyncRunResult | undefined;
  frameworks: GateResult[];
  frameworkErrors: ReviewResult['frameworkErrors'];
  reused: string[];
  stored: StoredMapping[];
  tokensSpent: number;
  /** Live-price tokens charged or possibly charged: what the reservation settles to. */
  pricedTokens: number;
}

/**
 * Reads the service's mode, prices and catalogue, selects the documents, plans the sync, reads the
 * front matter declarations and verifies stored mappings: everything that can fail before spending.
 */
async function planReview(client: ComplianceApi, input: ReviewInput, progress: Progress): Promise<ReviewPlan> {
  const { config, signal } = input;
  const callOptions = { signal };
  const syncMode = input.sync ?? 'run';
  const policy = eventPolicy(input.event ?? { kind: 'other' });
  if (syncMode === 'run' && !input.dryRun) {
    assertMayWriteLibrary(policy, 'a review with the library sync', 'Skip the sync in a pull request (map prices the merge without writing); the library syncs on pushes to the default branch.');
  }

  const { mode } = await client.ping(undefined, callOptions);
  const billing = await client.getBilling(undefined, callOptions);
  const needsCatalogue = config.frameworks.length > 0 || config.generate.length > 0;
  const verified = needsCatalogue ? (await client.getCapabilities(undefined, callOptions)).verifiedFrameworks : [];
  assertDistinctFrameworks(config.frameworks, verified);

  const selected = selectDocumentPaths(config.documents, input.files.map((file) => file.path));
  const contentOf = new Map(input.files.map((file) => [file.path.replace(/^\.\//, ''), file.content]));
  const documents: RepoFile[] = selected.map(({ path }) => ({ path, content: contentOf.get(path) ?? '' }));

  let plan: SyncPlan | undefined;
  if (syncMode !== 'skip') {
    const repository = input.repository ?? config.repository;
    if (!repository) {
      throw new ReviewError('invalid_config', 'sync needs the repository (owner/name) to tag its documents', 'Set repository in compliance.yml or pass it.');
    }
    progress('plan', 'reading the library');
    const library = await listAllLibraryDocuments(client, {}, { signal });
    plan = await resolveSyncPlan(
      client,
      { files: documents, library, repoTag: repositoryTag(repository), groups: config.documents, deleteRemoved: input.deleteRemoved ?? false, prices: billing.prices },
      { concurrency: input.concurrency, signal },
    );
  }

  // Front matter declarations are read before anything is spent: a malformed one stops the run.
  const declarations = readDeclarations(documents);
  // A framework whose group or glob selects nothing is a configuration error: thrown before spending.
  const mappings = await Promise.all(
    config.frameworks.map(async (framework) => {
      const files = frameworkDocuments(framework, config.documents, documents);
      const key = mappingKey(framework.framework, framework.mode, files);
      // A stored mapping came from a cache a branch's own runs can write: reused only as the service confirms it.
      const stored = reusableReports(input.reuse, key);
      const reuse = stored ? await verifiedReuse(client, stored, files, signal) : undefined;
      if (reuse?.rejected) progress('map', `the stored mapping of ${framework.framework} is not reused: ${reuse.rejected}`);
      return { framework, files, key, reused: reuse?.value };
    }),
  );
  const mergePrice = plan && syncMode === 'price' ? priceSyncPlan(plan, billing.prices) : undefined;
  const toSync = syncMode === 'run' ? plan : undefined;
  const unchanged = input.unchangedSinceBase === true;
  const calls: PlannedCalls[] = toSync ? syncCalls(toSync) : [];
  // A reused mapping makes no call: it is neither priced nor charged.
  if (!unchanged) for (const { framework, files, reused } of mappings) if (!reused) calls.push(mappingCalls(framework.mode, files.length));
  // The cap this review counts against; later spending of the same run (a regeneration) reserves from it too.
  const ledger = input.ledger ?? new SpendLedger({ mode, ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}) });
  return { mode, billing, verified, policy, syncMode, plan, toSync, mergePrice, declarations, mappings, calls, unchanged, ledger };
}

/** The charged part: the sync, then each framework's mapping (or its reuse) and its gate. */
async function syncAndMap(client: ComplianceApi, input: ReviewInput, planned: ReviewPlan, progress: Progress): Promise<SyncedAndMapped> {
  const { config, signal } = input;
  const { mode, plan, toSync, verified, declarations } = planned;
  const mapPrice = priceOf('mapDocument', planned.billing.prices) ?? 0;
  let tokensSpent = 0;
  let pricedTokens = 0;
  let run: SyncRunResult | undefined;
  if (toSync && plan) {
    progress('sync', `syncing: ${plan.counts.new} new, ${plan.counts.changed} changed, ${plan.counts.unchanged} unchanged`);
    run = await runSync(client, plan, {
      mode,
      concurrency: input.concurrency,
      signal,
      onProgress: ({ done, total, result }) => progress('sync', `${done}/${total} ${result.path}: ${result.outcome}`),
    });
    tokensSpent += run.tokensSpent;
    pricedTokens += run.pricedTokens;
  }

  const frameworks: GateResult[] = [];
  const frameworkErrors: ReviewResult['frameworkErrors'] = [];
  const reused: string[] = [];
  const stored: StoredMapping[] = [];
  for (const { framework, files, key, reused: earlier } of planned.mappings) {
    progress('map', earlier
      ? `reusing the mapping of ${framework.framework} from an earlier run: same framework and documents, 0 tokens`
      : `mapping ${files.length} document${files.length === 1 ? '' : 's'} against ${framework.framework} (${framework.mode})`);
    try {
      let reports = earlier;
      if (reports) reused.push(framework.framework);
      else {
        const slug = resolveFrameworkSlug(framework.framework, verified);
        reports = (await runMapping(client, { framework: slug, files, mode: framework.mode, concurrency: input.concurrency, signal })).reports;
        tokensSpent += chargedTokens(mode, reports.length * mapPrice);
        pricedTokens += reports.length * mapPrice;
      }
      stored.push({ key, framework: framework.framework, reports });
      frameworks.push(
        evaluateGate(traceReports(reports, files), {
          framework: framework.framework,
          threshold: framework.threshold,
          waivers: config.waivers,
          today: input.today,
          baseline: input.baseline,
          failOn: input.failOn ?? input.config.failOn ?? 'coverage',
          declarations,
        }),
      );
    } catch (error) {
      if (!(error instanceof ComplianceError) && !(error instanceof ReviewError)) throw error;
      // Which of its uploads were admitted is unknown: a cap counts all of them unless none can have been.
      if (mayHaveCharged(error)) pricedTokens += mappingCalls(framework.mode, files.length).count * mapPrice;
      const message = error instanceof ComplianceError ? error.toDisplayString() : error.message;
      frameworkErrors.push({ framework: framework.framework, code: error.code, message });
    }
  }
  return { sync: run, frameworks, frameworkErrors, reused, stored, tokensSpent, pricedTokens };
}

/** After the charged step: the gap-issue plan, the framework updates and the generated documents' drift. */
async function gapsUpdatesAndDrift(
  client: ComplianceApi,
  input: ReviewInput,
  planned: ReviewPlan,
  frameworks: GateResult[],
  progress: Progress,
): Promise<Pick<ReviewResult, 'gapPlan' | 'frameworkUpdates' | 'drift'>> {
  const { config, signal } = input;
  // Only frameworks evaluated now take part: an issue of a framework whose mapping failed stays open.
  const gapPlan = input.existingIssues && planned.policy.mayWriteIssues ? planGapIssues(frameworks, input.existingIssues, config.gapIssues) : undefined;

  const frameworkValues = [...new Set([...config.frameworks.map((f) => f.framework), ...config.generate.map((g) => g.framework)])];
  // Without updates the slugs are not needed (a framework the catalogue lacks is already a mapping error).
  const slugOf = new Map(input.checkUpdates === false ? [] : frameworkValues.map((value) => [value, resolveFrameworkSlug(value, planned.verified)]));
  let frameworkUpdates: FrameworkUpdates[] = [];
  if (input.checkUpdates !== false) {
    progress('updates', 'reading framework updates');
    frameworkUpdates = await checkFrameworkUpdates(client, [...new Set(slugOf.values())], input.lastReviewDate, { signal });
  }

  let drift: ReviewResult['drift'];
  if (input.manifest && config.generate.length > 0) {
    progress('drift', 'checking generated documents');
    const latestBySlug = new Map(frameworkUpdates.map((entry) => [entry.slug, entry.latestUpdate]));
    drift = detectDrift({
      manifest: input.manifest,
      targets: config.generate,
      files: input.generatedFiles ?? {},
      frameworkUpdatedAt: Object.fromEntries(frameworkValues.map((value) => [value, latestBySlug.get(slugOf.get(value) ?? value)])),
    });
  }
  return { gapPlan, frameworkUpdates, drift };
}

/** The result of a run that ended with `status`: its report, and whether it passed. */
function finishReview(
  input: ReviewInput,
  planned: ReviewPlan,
  priced: { estimate: CostEstimate; budget: BudgetCheck },
  status: ReviewResult['status'],
  parts: Partial<ReviewResult>,
): ReviewResult {
  const { config } = input;
  const { mode, plan } = planned;
  const frameworks = parts.frameworks ?? [];
  const frameworkErrors = parts.frameworkErrors ?? [];
  const repository = input.runRepository ?? input.repository ?? config.repository;
  const report = buildReviewReport(frameworks, {
    generatedAt: input.now ?? `${input.today}T00:00:00Z`,
    ...(repository ? { repository } : {}),
    ...(input.commit ? { commit: input.commit } : {}),
    ...(input.serverUrl ? { serverUrl: input.serverUrl } : {}),
    ...(input.forge ? { forge: input.forge } : {}),
    mode,
    notEvaluated: frameworkErrors,
  });
  return {
    status,
    mode,
    estimate: priced.estimate,
    budget: priced.budget,
    ledger: planned.ledger,
    sync: plan ? { plan, run: parts.sync?.run } : undefined,
    mergePrice: planned.mergePrice,
    frameworks,
    frameworkErrors,
    report,
    gapPlan: parts.gapPlan,
    frameworkUpdates: parts.frameworkUpdates ?? [],
    drift: parts.drift,
    tokensSpent: parts.tokensSpent ?? 0,
    reused: parts.reused ?? [],
    mappings: parts.mappings ?? [],
    passed: (status === 'completed' || status === 'unchanged') && frameworkErrors.length === 0 && report.passed,
    policy: planned.policy,
  };
}

export async function runReview(client: ComplianceApi, input: ReviewInput): Promise<ReviewResult> {
  const progress: Progress = (phase, message) => input.onProgress?.({ phase, message });
  const planned = await planReview(client, input, progress);
  const { mode, plan, toSync, unchanged } = planned;

  // The money rule: priced, checked and reserved before the first charged call; a dry run (or an
  // unchanged pull request) sends nothing and says what the cap would refuse.
  const step = await chargedStep(
    client,
    planned.calls,
    { mode, billing: planned.billing, ledger: planned.ledger, dryRun: input.dryRun === true || unchanged, signal: input.signal, settle: (done) => done.pricedTokens },
    () => syncAndMap(client, input, planned, progress),
  );
  const finish = (status: ReviewResult['status'], parts: Partial<ReviewResult>) => finishReview(input, planned, step, status, parts);
  if (step.status === 'refused') return finish('refused', {});
  if (step.status === 'dry-run') {
    if (unchanged) return finish('unchanged', {});
    // A dry run is never refused: what the cap would refuse is in its budget (and its verdict).
    const run = toSync ? await runSync(client, toSync, { mode, dryRun: true }) : undefined;
    return finish('dry-run', { sync: plan ? { plan, run } : undefined });
  }
  const { sync: run, frameworks, frameworkErrors, reused, stored, tokensSpent } = step.value;
  const after = await gapsUpdatesAndDrift(client, input, planned, frameworks, progress);
  return finish('completed', { sync: plan ? { plan, run } : undefined, frameworks, frameworkErrors, ...after, tokensSpent, reused, mappings: stored });
}
