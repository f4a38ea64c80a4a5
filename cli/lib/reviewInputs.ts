/**
 * Everything a run of the review loop reads before it opens a session: the flags, the CI run it is
 * in, the gate (the base commit's, on a gated event), the documents, the baseline, the report formats
 * and history, and a pull request's kept mappings. A bad flag or file fails here, before anything is
 * spent.
 */
import type { Config } from '../../review/config.js';
import type { RepoFile } from '../../review/documents.js';
import type { EventPolicy } from '../../review/events.js';
import { assertMayWriteLibrary } from '../../review/events.js';
import { FAIL_ON, type FailOn } from '../../review/failOn.js';
import { gateConfiguration, type GateConfiguration, type GateRequest } from '../../review/gateConfig.js';
import { currentCiContext, currentEventPolicy } from '../../review/node/ciContext.js';
import { gitHead } from '../../review/node/git.js';
import { readMappingStoreText } from '../../review/node/mappingStore.js';
import { readHistory } from '../../review/node/publish.js';
import { readReportFile, type ReportFile } from '../../review/node/report.js';
import { DEFAULT_MAPPING_STORE_DIR, MAPPING_STORE_FILE, type BaseCommitFiles, type MapCheckInput } from '../../review/pullRequest.js';
import { DEFAULT_REPORT_FORMATS, REPORT_FORMATS, type ReportFormat } from '../../review/publish.js';
import type { HistoryPoint } from '../../review/reportHistory.js';
import type { ReviewInput } from '../../review/review.js';
import { booleanFlag, dateFlag, enumFlag, integerFlag, listFlag, repositoryFlag, stringFlag, type Parsed } from './args.js';
import type { Output } from './output.js';
import { loadDocuments, loadGenerated, type Repo } from './repo.js';
import { gatedBase } from './gatedRun.js';

export interface ReviewRunOptions {
  /** Replaces the config read from the repo. */
  config: Config;
  /**
   * map's --framework, --threshold and --mode: the run is review/'s map check (runMapCheck), which
   * applies them as far as the event allows and decides what a pull request maps, reuses or skips.
   */
  gate?: Pick<GateRequest, 'framework' | 'threshold' | 'mode'>;
  /** See ReviewInput.sync (default run). */
  sync?: ReviewInput['sync'];
  /** The base commit of a gated run, when the command read it already (gatedBase). */
  base?: BaseCommitFiles | undefined;
  checkDrift?: boolean;
}

/** What every run of the loop takes, the map check's included, but for the clock and the progress display. */
type CommonReviewInput = Omit<MapCheckInput['review'], 'today' | 'now' | 'onProgress' | 'readDeclarations'>;

interface ReviewInputs {
  policy: EventPolicy;
  base: BaseCommitFiles | undefined;
  /** The flags' gate request (map's check applies it itself). */
  request: GateRequest;
  /** The gate the loop runs with; undefined for map's check, which decides its gate itself. */
  gate: GateConfiguration | undefined;
  /** The config the loop runs with: the gate's, else the command's. */
  config: Config;
  documents: RepoFile[];
  baseline: ReportFile | undefined;
  /** --history's earlier reports and --formats, read and checked before anything is spent. */
  history: HistoryPoint[] | undefined;
  formats: readonly ReportFormat[];
  /** Where a pull request's mappings are kept, relative to the repo root, and their text when it counts. */
  storePath: string;
  stored: { text: string | undefined; ignored: string | undefined } | undefined;
  common: CommonReviewInput;
}

/** Warns about each change a change request makes to the gate and each request the gate ignored. */
export function warnGate(out: Output, policy: EventPolicy, gate: GateConfiguration): void {
  for (const line of [...gate.changes.map((change) => `this ${policy.changeRequest} changes the gate (applies once merged): ${change}`), ...gate.ignored]) out.warn(line);
}

export async function readReviewInputs(parsed: Parsed, out: Output, repo: Repo, options: ReviewRunOptions, files?: RepoFile[]): Promise<ReviewInputs> {
  const v = parsed.values;
  const context = currentCiContext();
  const repository = repositoryFlag(v, 'repo') ?? options.config.repository ?? context.repository;
  const maxTokens = integerFlag(v, 'max-tokens', { min: 0, example: '2000000' });
  const concurrency = integerFlag(v, 'concurrency', { min: 1, max: 16 });
  const requestedFailOn: FailOn | undefined = enumFlag(v, 'fail-on', FAIL_ON);
  const baselinePath = stringFlag(v, 'baseline');
  const lastReviewDate = dateFlag(v, 'since');
  const policy = currentEventPolicy();
  // A sync the event forbids is refused first: nothing else needs reading (runReview refuses it too).
  if (!options.gate && (options.sync ?? 'run') === 'run' && !booleanFlag(v, 'dry-run')) assertMayWriteLibrary(policy, 'a review with the library sync', 'Skip the sync in a pull request (compliance map prices the merge without writing); the library syncs on pushes to the default branch.');
  if (stringFlag(v, 'base-config')) out.warn(`--base-config is ignored: a ${policy.changeRequest} is judged by the gate of its base commit's compliance.yml, read from git`);
  const base = options.base ?? (await gatedBase(repo));
  const request: GateRequest = { failOn: requestedFailOn, ...options.gate, labels: { failOn: '--fail-on', framework: '--framework', threshold: '--threshold', waivers: '--waivers' } };
  // map's check decides its gate itself (runMapCheck); the other commands run the loop with it.
  const gate = options.gate ? undefined : gateConfiguration(policy, options.config, base?.config.config, request);
  if (gate) warnGate(out, policy, gate);
  const config = gate?.config ?? options.config;
  const documents = files ?? (await loadDocuments({ ...repo, config }));
  const baseline = baselinePath ? await readReportFile(baselinePath, { role: 'baseline', acceptMappingReports: true }) : undefined;
  const formats = listFlag(v, 'formats', REPORT_FORMATS) ?? DEFAULT_REPORT_FORMATS;
  const historyDir = stringFlag(v, 'history');
  const history = historyDir ? await readHistory(historyDir, '--history') : undefined;
  const commit = await gitHead(repo.root);
  // Links go to the repository the CI run is in, where `commit` is, on the forge it runs on, in its spelling.
  const { serverUrl, repository: runRepository } = context;
  const generated = options.checkDrift && options.config.generate.length > 0 ? await loadGenerated(repo) : undefined;
  // A pull request's mappings, kept for its re-runs (read only on a pull request, as the action does).
  const storePath = `${(stringFlag(v, 'mapping-store') ?? DEFAULT_MAPPING_STORE_DIR).replace(/[\\/]+$/, '')}/${MAPPING_STORE_FILE}`;
  const stored = options.gate && !policy.mayWriteLibrary ? await readMappingStoreText(repo.root, storePath) : undefined;
  if (stored?.ignored) out.warn(stored.ignored);
  const common: CommonReviewInput = {
    ...(repository ? { repository } : {}),
    // Links point at the repository the CI run is in, where `commit` is.
    ...(runRepository ? { runRepository } : {}),
    ...(commit ? { commit } : {}),
    ...(serverUrl ? { serverUrl } : {}),
    ...(context.forge ? { forge: context.forge } : {}),
    deleteRemoved: booleanFlag(v, 'delete-removed'),
    dryRun: booleanFlag(v, 'dry-run'),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(lastReviewDate ? { lastReviewDate } : {}),
    ...(generated ? { manifest: generated.manifest, generatedFiles: generated.files } : {}),
  };
  return { policy, base, request, gate, config, documents, baseline, history, formats, storePath, stored, common };
}
