/**
 * The map check as every surface runs it (actions/map, `compliance map`): one decision of what a run
 * of the check does on its event. On a pull request (from a fork or not) the default branch's gate
 * judges it, the library is never written (the sync is only priced, what merging will cost), a run
 * whose documents in scope and compliance.yml equal the default branch's maps nothing (status
 * `unchanged`, the default branch's figures), and a mapping unchanged since an earlier run of the
 * same pull request is reused (0 tokens). Everything that is charged goes through runReview's money
 * rule. The surfaces read their inputs, call this, write the mapping store it returns, and render.
 */
import type { ComplianceApi } from '../api/clientTypes.js';
import type { Config } from './config.js';
import type { RepoFile } from './documents.js';
import { ReviewError } from './errors.js';
import type { EventPolicy } from './events.js';
import { gateConfiguration, type GateConfiguration, type GateRequest } from './gateConfig.js';
import type { ReviewReport } from './reportDocument.js';
import { readMappingStore } from './reuse.js';
import { runReview, type ReviewInput, type ReviewResult } from './review.js';
import { pullRequestScope, type PullRequestScope } from './scope.js';
import { decideVerdict, unchangedVerdict, type Verdict } from './verdict.js';

/** The folder a pull request's mappings are kept in for its re-runs, relative to the repository root (the PR template caches it). */
export const DEFAULT_MAPPING_STORE_DIR = '.compliance-mappings';
/** The store's file in that folder. */
export const MAPPING_STORE_FILE = 'mappings.json';
/** The action's `mapping-store` default. */
export const DEFAULT_MAPPING_STORE = `${DEFAULT_MAPPING_STORE_DIR}/${MAPPING_STORE_FILE}`;

/** A compliance.yml as read: its text (to tell an unchanged one) and what it says. */
export interface ConfigFile {
  config: Config;
  text: string;
}

interface MapCheckInput {
  /** What the run's event may change (eventPolicy). */
  policy: EventPolicy;
  /** This checkout's compliance.yml: its documents are mapped. */
  head: ConfigFile;
  /** The default branch's compliance.yml, when at hand: on a pull request its gate judges. */
  base: ConfigFile | undefined;
  /** Flags or inputs on top of the gate (only ever stricter on a pull request). */
  request: GateRequest;
  /** The checkout's document files (review's selectDocumentPaths picks those in scope). */
  files: readonly RepoFile[];
  /** The default branch's saved report: its gap keys are not new, and an `unchanged` run carries its figures. */
  baseline?: { gapKeys: ReadonlySet<string>; report: ReviewReport | undefined } | undefined;
  /** The mapping store of an earlier run (its text), read only on a pull request. */
  mappingStore?: string | undefined;
  /** The rest of the review's input: clock, repository, revision, cap, dry run, progress. */
  review: Omit<ReviewInput, 'config' | 'files' | 'event' | 'sync' | 'configUnchanged' | 'failOn' | 'baseline' | 'reuse' | 'checkUpdates'>;
}

interface MapCheck {
  gate: GateConfiguration;
  result: ReviewResult;
  verdict: Verdict;
  /** The pull request the check ran for (from the event), undefined off a pull request. */
  pullRequest: number | undefined;
  /** What to keep as the mapping store for this pull request's next run; undefined when nothing is to be written. */
  mappingStore: string | undefined;
}

const sameText = (a: string, b: string) => a.replace(/\r\n/g, '\n').trim() === b.replace(/\r\n/g, '\n').trim();

/** Runs the map check for the event: gate, pull-request scope, reuse, money rule, verdict. */
export async function runMapCheck(client: ComplianceApi, input: MapCheckInput): Promise<MapCheck> {
  const { policy, head, base } = input;
  const unmerged = !policy.mayWriteLibrary;
  const gate = gateConfiguration(policy, head.config, base?.config, input.request);
  if (gate.config.frameworks.length === 0) {
    const flag = input.request.labels?.framework ?? 'framework';
    throw new ReviewError('invalid_config', 'compliance.yml lists no frameworks to map', `Add one under frameworks:, or name a verified framework (for example nist-csf-2) with ${flag} and a threshold.`);
  }
  const pullRequest = unmerged ? policy.event.pullRequest : undefined;
  const reuse = pullRequest === undefined ? undefined : readMappingStore(input.mappingStore, pullRequest);
  const repository = input.review.repository ?? head.config.repository;
  const result = await runReview(client, {
    ...input.review,
    config: gate.config,
    files: input.files,
    event: policy.event,
    // The library mirrors the default branch: a pull request only prices what merging will sync
    // (which needs the repository tag); elsewhere the check maps the files and leaves the library alone.
    sync: unmerged && repository ? 'price' : 'skip',
    configUnchanged: base !== undefined && sameText(base.text, head.text),
    checkUpdates: false,
    failOn: gate.failOn,
    ...(input.baseline ? { baseline: input.baseline.gapKeys } : {}),
    ...(reuse ? { reuse } : {}),
  });
  const mappingStore = pullRequest !== undefined && result.mappings.length > 0
    ? `${JSON.stringify({ version: 1, pullRequest, mappings: result.mappings })}\n`
    : undefined;
  return { gate, result, verdict: decideVerdict(result, { baseline: input.baseline?.report }), pullRequest, mappingStore };
}

/**
 * Before any key or call: a pull request whose changed paths (the workflow lists them) touch no
 * document in scope (of its compliance.yml or the default branch's) nor compliance.yml is
 * `unchanged`, with the default branch's figures when its report is at hand (read only then).
 * Otherwise the check must run: `verdict` undefined, with what is in scope.
 */
export async function changedPathsCheck(
  policy: EventPolicy,
  changedPaths: readonly string[],
  configs: { head: Config; base: Config | undefined; path: string },
  readBaseline: () => Promise<ReviewReport | undefined>,
): Promise<{ verdict: Verdict | undefined; scope: PullRequestScope | undefined }> {
  if (policy.event.kind !== 'pull_request') return { verdict: undefined, scope: undefined };
  const scope = pullRequestScope(changedPaths, [configs.head, ...(configs.base ? [configs.base] : [])], configs.path);
  return { verdict: scope.inScope ? undefined : unchangedVerdict(await readBaseline()), scope };
}
