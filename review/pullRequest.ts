/**
 * The map check as every surface runs it (actions/map, `compliance map`): one decision of what a run
 * of the check does on its event. On a gated run (a pull request from a fork or not, a merge-queue
 * run, an unlisted event) the gate of the base commit's compliance.yml (read from git) judges it,
 * the library is never written (the sync is only priced, what merging will cost), a change that git
 * shows touches no document in scope nor compliance.yml maps nothing (status `unchanged`, the
 * default branch's figures once the service confirms its saved report), and a mapping unchanged
 * since an earlier run of the same pull request is reused (0 tokens) once the service confirms it.
 * Everything that is charged goes through runReview's money rule. The surfaces read their inputs,
 * call this, write the mapping store it returns, and render.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import type { Config } from './config.js';
import type { RepoFile } from './documents.js';
import { ReviewError } from './errors.js';
import type { EventPolicy } from './events.js';
import { gateConfiguration, type GateConfiguration, type GateRequest } from './gateConfig.js';
import type { ReviewReport } from './reportDocument.js';
import { readMappingStore, serializeMappingStore } from './reuse.js';
import { runReviewUpToGate, type ReviewResult, type ReviewUpToGateInput } from './review.js';
import { pullRequestScope, type PullRequestScope } from './scope.js';
import type { ChangeList } from './changes.js';
import { verifiedBaseline } from './verifyMapping.js';
import { decideVerdict, unchangedVerdict, type Verdict } from './verdict.js';

/** The folder a pull request's mappings are kept in for its re-runs, relative to the repository root (the PR template caches it). */
export const DEFAULT_MAPPING_STORE_DIR = '.compliance-mappings';
/** The store's file in that folder. */
export const MAPPING_STORE_FILE = 'mappings.json';
/** The action's `mapping-store` default. */
export const DEFAULT_MAPPING_STORE = `${DEFAULT_MAPPING_STORE_DIR}/${MAPPING_STORE_FILE}`;

/**
 * The compliance.yml of a policy set handed over directly (n8n's input items), as parseConfig would
 * read `documents: [{name: given, paths: ["**"]}]`: every file given is a document, and the request
 * names the framework to judge. Written out rather than parsed, so that the n8n node does not bundle
 * compliance.yml's schema; a unit test holds it equal to the parsed one.
 */
export function givenDocumentsHead(): ConfigFile & { path: string } {
  const config: Config = {
    documents: [{ name: 'given', paths: ['**'], tags: [] }],
    frameworks: [],
    waivers: [],
    gapIssues: { labels: ['compliance-gap'], assignees: [], titlePrefix: '[compliance]', closeResolved: true, maxNewPerRun: 10 },
    generate: [],
    review: { cadence: 'none' },
  };
  return { config, text: '', path: 'compliance.yml' };
}

/** A compliance.yml as read: its text (to tell an unchanged one) and what it says. */
interface ConfigFile {
  config: Config;
  text: string;
}

/** What a gated run knows of its base commit, read from git (review/node/baseCommit.ts). */
export interface BaseCommitFiles {
  commit: string;
  /** "the base commit f95f852bd8fc", for messages. */
  describe: string;
  /** The base commit's compliance.yml: its gate judges the change. */
  config: ConfigFile;
  /** What changed since the base; undefined when git could not tell (everything then counts as changed). */
  changes: ChangeList | undefined;
  /** The base commit's documents in its compliance.yml's scope: what a cached baseline is verified against. */
  documents(): Promise<RepoFile[]>;
}

/** A saved report of the default branch, as a cache or the checkout handed it over (not yet verified). */
interface CachedBaseline {
  gapKeys: ReadonlySet<string>;
  report: ReviewReport | undefined;
}

export interface MapCheckInput {
  /** What the run's event may change (eventPolicy). */
  policy: EventPolicy;
  /** This checkout's compliance.yml (`path` relative to the root): its documents are mapped. */
  head: ConfigFile & { path: string };
  /** The base commit of a gated run (events.ts: gateFromBaseBranch), read from git; undefined on other events. */
  base: BaseCommitFiles | undefined;
  /** Flags or inputs on top of the gate (only ever stricter on a pull request). */
  request: GateRequest;
  /** The checkout's document files (review's selectDocumentPaths picks those in scope). */
  files: readonly RepoFile[];
  /**
   * The default branch's saved report: its gap keys are not new, and an `unchanged` run carries its
   * figures. On a gated run it counts only once the service confirms it (verifiedBaseline).
   */
  baseline?: CachedBaseline | undefined;
  /** The mapping store of an earlier run (its text), read only on a pull request. */
  mappingStore?: string | undefined;
  /** The rest of the review's input: clock, repository, revision, cap, dry run, progress. */
  review: Omit<ReviewUpToGateInput, 'config' | 'files' | 'event' | 'sync' | 'unchangedSinceBase' | 'failOn' | 'baseline' | 'reuse'>;
}

interface MapCheck {
  gate: GateConfiguration;
  result: ReviewResult;
  verdict: Verdict;
  /** The pull request the check ran for (from the event), undefined off a pull request. */
  pullRequest: number | undefined;
  /** What to keep as the mapping store for this pull request's next run; undefined when nothing is to be written. */
  mappingStore: string | undefined;
  /** The baseline the run was compared with: the given one (on a gated run once confirmed, else empty: every gap new). */
  baseline: CachedBaseline | undefined;
  /** Why a given baseline did not count (not confirmed by the service): every gap then counts as new. */
  baselineRejected: string | undefined;
}

/** Runs the map check for the event: gate, pull-request scope, reuse, money rule, verdict. */
export async function runMapCheck(client: ComplianceApi, input: MapCheckInput): Promise<MapCheck> {
  const { policy, head, base } = input;
  const unmerged = !policy.mayWriteLibrary;
  if (policy.gateFromBaseBranch && !base) throw new ReviewError('not_evaluated', `not evaluated, so not passed: a ${policy.changeRequest} is judged by the gate of its base commit, and none was read`, 'Run the check in a clone that holds the base commit.');
  const gate = gateConfiguration(policy, head.config, base?.config.config, input.request);
  if (gate.config.frameworks.length === 0) {
    const flag = input.request.labels?.framework ?? 'framework';
    throw new ReviewError('invalid_config', 'compliance.yml lists no frameworks to map', `Add one under frameworks:, or name a verified framework (for example nist-csf-2) with ${flag} and a threshold.`);
  }
  const pullRequest = unmerged ? policy.event.pullRequest : undefined;
  const reuse = pullRequest === undefined ? undefined : readMappingStore(input.mappingStore, pullRequest);
  const repository = input.review.repository ?? head.config.repository;
  const baseline = await baselineThatCounts(client, input.baseline, base, input.review.signal);
  // The map check plans no gap issue, reads no framework update and checks no drift (the review command does).
  const result = await runReviewUpToGate(client, {
    ...input.review,
    config: gate.config,
    files: input.files,
    event: policy.event,
    // The library mirrors the default branch: a pull request only prices what merging will sync
    // (which needs the repository tag); elsewhere the check maps the files and leaves the library alone.
    sync: unmerged && repository ? 'price' : 'skip',
    unchangedSinceBase: changedPathsCheck(policy, base, head).verdict !== undefined,
    failOn: gate.failOn,
    ...(baseline.value ? { baseline: baseline.value.gapKeys } : {}),
    ...(reuse ? { reuse } : {}),
  });
  const mappingStore = pullRequest !== undefined && result.mappings.length > 0
    ? serializeMappingStore(pullRequest, result.mappings)
    : undefined;
  return { gate, result, verdict: decideVerdict(result, { baseline: baseline.value?.report }), pullRequest, mappingStore, baseline: baseline.value, baselineRejected: baseline.rejected };
}

/**
 * The baseline a run compares with. Off a gated event the given one (the default branch's own
 * runs wrote it). On a gated run a cache or the checkout handed it over, and a branch's own runs
 * can write those: it counts only once the service confirms it against the base commit, with the
 * service's gap keys; without a confirmed one every gap counts as new (an empty baseline), so
 * failOn new-gaps never passes on a comparison that was not made.
 */
export async function baselineThatCounts(client: ComplianceApi, given: CachedBaseline | undefined, base: BaseCommitFiles | undefined, signal: AbortSignal | undefined): Promise<{ value?: CachedBaseline; rejected?: string }> {
  if (!base) return given ? { value: given } : {};
  const none = { gapKeys: new Set<string>(), report: undefined };
  if (!given) return { value: none };
  const verified = await verifiedBaseline(client, given.report, await base.documents(), signal);
  if (verified.value) return { value: { gapKeys: verified.value, report: given.report } };
  return { value: none, rejected: `the saved report of the default branch was not confirmed by the service (${verified.rejected}), so it is not compared with and every gap counts as new` };
}

/**
 * Before any key or call: a gated run whose changes since its base commit (git's list) touch no
 * document in scope (of its compliance.yml or the base's) nor compliance.yml is `unchanged`: its
 * base's verdict stands, nothing is mapped or spent. Its figures are not shown: the default
 * branch's saved report counts only once the service confirms it, and this answer calls nothing.
 * Otherwise the check must run: `verdict` undefined, with what is in scope (a list git could not
 * make, or could not classify, puts everything in scope).
 */
export function changedPathsCheck(
  policy: EventPolicy,
  base: BaseCommitFiles | undefined,
  head: { config: Config; path: string },
): { verdict: Verdict | undefined; scope: PullRequestScope | undefined } {
  if (!policy.gateFromBaseBranch || !base?.changes) return { verdict: undefined, scope: undefined };
  const scope = pullRequestScope(base.changes, [head.config, base.config.config], head.path);
  return { verdict: scope.inScope ? undefined : unchangedVerdict(undefined), scope };
}
