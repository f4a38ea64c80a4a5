/**
 * The steps of runReview: plan (everything that can fail before spending), the charged sync and
 * mapping, then the gap-issue plan, framework updates and drift, and the result.
 */
import type { ReviewInput, ReviewProgress, ReviewResult } from './reviewTypes.js';
import { priceSyncPlan, type MergePrice } from './mergePrice.js';
import type { ComplianceApi } from '../api/clientTypes.js';
import { ComplianceError } from '../api/errors.js';
import { settle, settleSync } from '../api/settle.js';
import type { KeyMode } from '../api/schemas/common.js';
import { chargedTokens, priceOf, SpendLedger, type BudgetCheck, type CostEstimate, type PlannedCalls } from './budget.js';
import type { Config } from './config.js';
import { frameworkDocuments, selectDocumentPaths, type RepoFile } from './documents.js';
import { detectDrift } from './drift.js';
import { ReviewError } from './errors.js';
import { assertMayWriteLibrary, eventPolicy, type EventPolicy } from './events.js';
import { assertDistinctFrameworks, checkFrameworkUpdates, resolveFrameworkSlug, type FrameworkUpdates } from './frameworkUpdates.js';
import { planGapIssues } from './gapIssues.js';
import { normaliseRepoPath } from './glob.js';
import { evaluateGate, type GateResult } from './gate.js';
import { listAllLibraryDocuments } from '../api/library.js';
import { resolveSyncPlan } from './library.js';
import type { Declaration } from './declaredCheck.js';
import { traceReports } from './evidenceTrace.js';
import { mappingCalls, runMapping, type SourcedReport } from './mapping.js';
import { buildReviewReport } from './reportDocument.js';
import { mappingKey, reusableReports, type StoredMapping } from './reuse.js';
import { verifiedReuse } from './verifyMapping.js';
import { repositoryTag, syncCalls, type SyncPlan } from './syncPlan.js';
import { runSync, type SyncRunResult } from './syncRun.js';

export type Progress = (phase: ReviewProgress['phase'], message: string) => void;

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
  declarations: Declaration[];
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
export async function planReview(client: ComplianceApi, input: ReviewInput, progress: Progress): Promise<ReviewPlan> {
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
  // Keyed as selectDocumentPaths names the paths, so a path given as ././a.md or a//b.md keeps its text.
  const contentOf = new Map(input.files.map((file) => [normaliseRepoPath(file.path), file.content]));
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
  const declarations = input.readDeclarations(documents);
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
export async function syncAndMap(client: ComplianceApi, input: ReviewInput, planned: ReviewPlan, progress: Progress): Promise<SyncedAndMapped> {
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
    // Settled, not caught: the n8n node bundles this, and n8n's lint wants no rethrow inside a catch.
    const notEvaluated = (error: unknown): void => {
      if (!(error instanceof ComplianceError) && !(error instanceof ReviewError)) throw error;
      const message = error instanceof ComplianceError ? error.toDisplayString() : error.message;
      frameworkErrors.push({ framework: framework.framework, code: error.code, message });
    };
    let reports = earlier;
    if (reports) reused.push(framework.framework);
    else {
      // Counted per upload as it ends, whether or not the framework's mapping as a whole succeeds: an
      // upload whose job completed is spent even when another of the framework's fails; one that was,
      // or may have been, admitted counts against the cap.
      const onUploadSettled = ({ charge }: { charge: 'charged' | 'maybe' }): void => {
        if (charge === 'charged') tokensSpent += chargedTokens(mode, mapPrice);
        pricedTokens += mapPrice;
      };
      const mapped = await settle(() => runMapping(client, { framework: resolveFrameworkSlug(framework.framework, verified), files, mode: framework.mode, concurrency: input.concurrency, signal, onUploadSettled }));
      if (!mapped.ok) {
        notEvaluated(mapped.error);
        continue;
      }
      reports = mapped.value.reports;
    }
    stored.push({ key, framework: framework.framework, reports });
    const gate = settleSync(() =>
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
    if (gate.ok) frameworks.push(gate.value);
    else notEvaluated(gate.error);
  }
  return { sync: run, frameworks, frameworkErrors, reused, stored, tokensSpent, pricedTokens };
}

/** After the charged step: the gap-issue plan, the framework updates and the generated documents' drift. */
export async function gapsUpdatesAndDrift(
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
export function finishReview(
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
