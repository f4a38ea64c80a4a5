/**
 * The review loop as the commands run it: read the repo, connect, call review's runReview with a
 * progress display, and render or print the result. `review`, `sync`, `map` and `gaps` are views
 * of this one run with different parts switched on.
 */
import type { Config } from '../../review/config.js';
import type { RepoFile } from '../../review/documents.js';
import { FAIL_ON, type FailOn } from '../../review/failOn.js';
import { writeRepoFile } from '../../review/node/files.js';
import { readReportFile } from '../../review/node/report.js';
import { assertMayWriteLibrary } from '../../review/events.js';
import { currentCiContext, currentEventPolicy } from '../../review/node/ciContext.js';
import { gateConfiguration, gateNotes, type GateConfiguration, type GateRequest } from '../../review/gateConfig.js';
import { baselineThatCounts, DEFAULT_MAPPING_STORE_DIR, MAPPING_STORE_FILE, runMapCheck, type BaseCommitFiles } from '../../review/pullRequest.js';
import { gatedBase, refuseKeylessForkPullRequest } from './gatedRun.js';
import { readMappingStoreText } from '../../review/node/mappingStore.js';
import { readHistory } from '../../review/node/publish.js';
import { gitHead } from '../../review/node/git.js';
import { DEFAULT_REPORT_FORMATS, type ReportFormat } from '../../review/publish.js';
import type { HistoryPoint } from '../../review/reportHistory.js';
import { runReview, type ReviewInput, type ReviewResult } from '../../review/review.js';
import { decideVerdict, isUnknownFramework } from '../../review/verdict.js';
import type { ReviewReport } from '../../review/reportDocument.js';
import { booleanFlag, dateFlag, enumFlag, integerFlag, listFlag, repositoryFlag, stringFlag, type OptionSpecs, type Parsed } from './args.js';
import { EXIT, type ExitCode } from './errors.js';
import { today, tokens } from './format.js';
import { table, type Output } from './output.js';
import { REPORT_FORMATS, writeReports } from './reports.js';
import { loadDocuments, loadGenerated, type Repo } from './repo.js';
import { openSession, type Session } from './session.js';

export const SPEND_OPTIONS = {
  'dry-run': { type: 'boolean', description: 'plan and price everything, spend nothing' },
  'max-tokens': { type: 'string', valueName: 'N', description: 'refuse, before spending anything, a plan that costs more than N tokens' },
} as const satisfies OptionSpecs;

export const SYNC_OPTIONS = {
  repo: { type: 'string', valueName: 'OWNER/NAME', description: 'repository tag for synced documents (default: compliance.yml repository, then GITHUB_REPOSITORY)' },
  'delete-removed': { type: 'boolean', description: 'delete library documents of this repo whose file is gone (never documents without its repo: tag)' },
  concurrency: { type: 'string', valueName: 'N', description: 'parallel uploads (1-16, default 4); pacing follows the rate-limit headers' },
} as const satisfies OptionSpecs;

export const GATE_OPTIONS = {
  'fail-on': { type: 'string', valueName: 'WHAT', description: 'coverage, new-gaps (also fail on gaps absent from --baseline) or declared-without-evidence (also fail on front matter satisfies: without evidence); default compliance.yml failOn, which this can only make stricter' },
  'base-config': { type: 'string', valueName: 'FILE', description: "ignored (older workflows pass it): a pull request's CI run is judged by its base commit's compliance.yml, read from git" },
  baseline: { type: 'string', valueName: 'FILE', description: 'a previous report.json or --json output: gaps in it are not new' },
  'report-dir': { type: 'string', valueName: 'DIR', description: 'write report.md, report.json (and the other --formats) into DIR' },
  formats: { type: 'string', valueName: 'LIST', description: 'report formats for --report-dir: md,json,html,sarif,junit,pdf,docx (default md,json)' },
  history: { type: 'string', valueName: 'DIR', description: "earlier report.json files: report.html's coverage trend" },
} as const satisfies OptionSpecs;

/** map's pull-request flag: where a pull request's mappings are kept between its runs. */
export const MAPPING_STORE_OPTIONS = {
  'mapping-store': { type: 'string', valueName: 'DIR', description: `in a pull request's CI run: the folder its mappings are kept in (${MAPPING_STORE_FILE}, relative to the repo root; default ${DEFAULT_MAPPING_STORE_DIR}); a re-run with the same framework and documents reuses them, 0 tokens` },
} as const satisfies OptionSpecs;

/** The frameworks a result's mapping cost lines price, in order (for the itemised dry run). */
const mappedFrameworks = new WeakMap<ReviewResult, string[]>();

interface ReviewRun {
  result: ReviewResult;
  session: Session;
  files: RepoFile[];
  repo: Repo;
  /** --history's earlier reports and --formats, read and checked before anything was spent. */
  history: HistoryPoint[] | undefined;
  formats: readonly ReportFormat[];
  /** The --baseline report, when it is one: an `unchanged` map check carries its figures. */
  baselineReport: ReviewReport | undefined;
  /** What the gate the run was judged by says (gateNotes), for report.md. */
  gateNotes: string[];
}

interface ReviewRunOptions {
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

export async function executeReview(parsed: Parsed, out: Output, repo: Repo, options: ReviewRunOptions, files?: RepoFile[]): Promise<ReviewRun> {
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
  const warnGate = (gate: GateConfiguration) => {
    for (const line of [...gate.changes.map((change) => `this ${policy.changeRequest} changes the gate (applies once merged): ${change}`), ...gate.ignored]) out.warn(line);
  };
  // map's check decides its gate itself (runMapCheck); the other commands run the loop with it.
  const gate = options.gate ? undefined : gateConfiguration(policy, options.config, base?.config.config, request);
  if (gate) warnGate(gate);
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

  refuseKeylessForkPullRequest(parsed);
  const session = await openSession(parsed, out);
  try {
    // What every run of the loop takes, the map check's included.
    const common = {
      today: today(),
      now: new Date().toISOString(),
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
      onProgress: (event: { message: string }) => out.progress(event.message),
    };
    let ran: ReviewResult;
    let judged: GateConfiguration;
    if (gate) {
      // On a gated run a cached baseline counts only once the service confirms it against the base commit.
      const counted = await baselineThatCounts(session.client, baseline, base, undefined);
      if (counted.rejected) out.warn(counted.rejected);
      ran = await runReview(session.client, {
        ...common,
        config,
        files: documents,
        event: policy.event,
        sync: options.sync ?? 'run',
        failOn: gate.failOn,
        ...(counted.value ? { baseline: counted.value.gapKeys } : {}),
      });
      out.done();
      judged = gate;
    } else {
      const check = await runMapCheck(session.client, {
        policy,
        head: { config: options.config, text: repo.configText ?? '', path: repo.configPath },
        base,
        request,
        files: documents,
        ...(baseline ? { baseline } : {}),
        mappingStore: stored?.text,
        review: common,
      });
      out.done();
      warnGate(check.gate);
      if (check.baselineRejected) out.warn(check.baselineRejected);
      if (check.mappingStore !== undefined) await writeRepoFile(repo.root, storePath, check.mappingStore);
      ran = check.result;
      judged = check.gate;
    }
    // A dry run is never refused (review/ decides): a plan the balance or --max-tokens would refuse is
    // a dry run whose budget says so (exit 0, per-file plan and shortfall).
    const result: ReviewResult = ran;
    if (result.status === 'dry-run' && policy.gateFromBaseBranch) out.warn(`--dry-run evaluates nothing: on a ${policy.changeRequest} the check is not evaluated, so not passed (exit 1)`);
    mappedFrameworks.set(result, judged.config.frameworks.map((framework) => framework.framework));
    return { result, session, files: documents, repo, history, formats, baselineReport: baseline?.report, gateNotes: gateNotes(judged, policy.changeRequest) };
  } catch (error) {
    out.done();
    await session.close();
    throw error;
  }
}

/**
 * review/'s verdict as an exit code: 1 for a dry run of a gated run (nothing evaluated); 3 for a refused plan; a framework that could not be evaluated
 * 2 when it is one the service does not know (a usage mistake: a misspelt --framework or
 * compliance.yml entry), else 3; 1 when a gate failed; else 0.
 */
export function reviewExitCode(result: ReviewResult): ExitCode {
  const verdict = decideVerdict(result);
  // A dry run evaluated nothing: on a gated run (a pull or merge request) that is never a pass.
  if (result.status === 'dry-run' && result.policy.gateFromBaseBranch) return EXIT.gateFailed;
  if (verdict.status === 'refused') return EXIT.service;
  if (verdict.errors.length > 0) return verdict.errors.every((entry) => isUnknownFramework(entry.code)) ? EXIT.usage : EXIT.service;
  if (result.frameworks.some((framework) => !framework.passed)) return EXIT.gateFailed;
  if (result.sync?.run && !result.sync.run.dryRun && !result.sync.run.complete) return EXIT.service;
  return EXIT.ok;
}

/** The --json document of review and map: the review report (usable as a --baseline) plus the run. */
export function reviewJson(result: ReviewResult, exitCode: ExitCode, reportFiles: string[], baseline?: ReviewReport): Record<string, unknown> {
  return {
    ...result.report,
    status: result.status,
    verdict: decideVerdict(result, { baseline }),
    exitCode,
    mode: result.mode,
    tokensSpent: result.tokensSpent,
    reused: result.reused,
    estimate: result.estimate,
    budget: result.budget,
    sync: result.sync ? { counts: result.sync.plan.counts, plannedTokens: result.sync.plan.totalTokens, ...(result.sync.run ?? {}) } : null,
    frameworkErrors: result.frameworkErrors,
    frameworkUpdates: result.frameworkUpdates,
    drift: result.drift ?? null,
    gapPlan: result.gapPlan ?? null,
    reportFiles,
  };
}

/** --report-dir and --formats: writes the files and returns their paths. */
export async function maybeWriteReports(parsed: Parsed, out: Output, run: ReviewRun): Promise<string[]> {
  const dir = stringFlag(parsed.values, 'report-dir');
  if (!dir || run.result.status !== 'completed') return [];
  return writeReports(out, run.session, run.repo, run.result.report, dir, run.formats, { ...(run.history ? { history: run.history } : {}), gateNotes: run.gateNotes });
}

/** The refusal or dry-run lines shared by review, sync and map. */
export function budgetLines(out: Output, result: ReviewResult): string[] {
  const lines: string[] = [];
  if (result.status === 'refused') {
    lines.push(out.style('Refused before spending anything:', 'red', 'bold'));
    for (const reason of result.budget.reasons) lines.push(`  ${reason}`);
    if (result.budget.suggestedPack) lines.push(`  Buy it with: compliance checkout ${result.budget.suggestedPack.code}`);
  } else if (result.status === 'dry-run') {
    lines.push(...dryRunLines(out, result, mappedFrameworks.get(result) ?? []));
  }
  return lines;
}

/** Every charge a dry run would make: one row per file synced and per mapping, the total, the balance and any shortfall. */
export function dryRunLines(out: Output, result: Pick<ReviewResult, 'estimate' | 'budget' | 'sync'>, frameworks: readonly string[]): string[] {
  const rows: string[][] = [];
  for (const item of result.sync?.plan.items ?? []) {
    if (item.kind === 'new' || item.kind === 'changed') rows.push([item.kind === 'new' ? 'ingest' : 'refresh', item.path, item.tokens.toLocaleString('en-US')]);
  }
  let mapping = 0;
  for (const line of result.estimate.lines) {
    if (line.operationId !== 'mapDocument') continue;
    const name = frameworks[mapping++] ?? `mapping ${mapping}`;
    const each = line.tokensEach === undefined ? 'unlisted' : line.tokensEach.toLocaleString('en-US');
    rows.push(['map', `${name}${line.count > 1 ? ` (${line.count} documents × ${each})` : ''}`, line.tokensEach === undefined ? 'unlisted' : (line.count * line.tokensEach).toLocaleString('en-US')]);
  }
  const { budget } = result;
  const lines = [out.style('Dry run: nothing was sent. Live-mode charges:', 'bold')];
  lines.push(rows.length ? table(['Charge', 'What', 'Tokens'], rows) : '  none');
  lines.push(`Total: ${tokens(result.estimate.totalTokens)}${result.estimate.unpriced.length ? ` plus unlisted prices of ${result.estimate.unpriced.join(', ')}` : ''}` +
    `${budget.mode !== 'live' ? ' (sandbox key: never charged)' : budget.balanceTokens !== undefined ? `; balance ${tokens(budget.balanceTokens)}` : ''}.`);
  if (!budget.allowed) {
    lines.push(out.style('A real run would be refused before spending anything:', 'yellow', 'bold'));
    for (const reason of budget.reasons) lines.push(`  ${reason}`);
    if (budget.suggestedPack) lines.push(`  Buy it with: compliance checkout ${budget.suggestedPack.code}`);
  }
  return lines;
}
