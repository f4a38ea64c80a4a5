/**
 * actions/map: map the policy set of compliance.yml against its frameworks (or the one named by
 * `framework`) through review/'s runReview, gate on the threshold, write the report, the job
 * summary and annotations, then comment on the pull request. The gate is decided last, so a
 * failing gate never hides the report.
 *
 * In a pull request the library is never written (it mirrors the default branch): the PR's
 * documents are mapped directly, the sync is only planned against the library (free) to price
 * what merging will cost, and when neither a document in scope nor compliance.yml differs from
 * the default branch nothing is mapped or spent.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as core from '@actions/core';
import {
  compareEvidence,
  FAIL_ON,
  formatTokens,
  lostControls,
  MAPPING_MODES,
  runReview,
  tableCell,
  type Config,
  type EvidenceChanges,
  type FrameworkConfig,
  type MergePrice,
  type ReviewResult,
} from '../../review/index.js';
import { decodeUtf8, readRepoBytes } from '../../review/node/index.js';
import { currentRepository, currentRevision, repositoryName } from './github/context.js';
import { publishReportComment, readCommentInputs } from './pullRequestComment.js';
import {
  annotateExpiredWaivers,
  annotateGaps,
  annotateLostEvidence,
  historyInput,
  MAX_ANNOTATIONS,
  mergeWaivers,
  parseWaiversInput,
  readGateInputs,
  renderCosts,
  renderReportSummary,
  reportFormatsInput,
  setReportOutputs,
  writeReportFiles,
  type Baseline,
  type GateInputs,
} from './report.js';
import { loadRepoConfig, readDocuments } from './repo.js';
import { booleanInput, choiceInput, InputError, numberInput, textInput } from './runtime/inputs.js';
import { isPullRequestEvent, type ActionDefinition } from './runtime/run.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';

export const DEFAULT_REPORT_DIR = 'compliance-report';

/** The frameworks to map: compliance.yml's, narrowed (or extended) by the `framework` input. */
export function selectFrameworks(config: Config): FrameworkConfig[] {
  const named = textInput('framework');
  const threshold = numberInput('threshold', { min: 0, max: 100 });
  const mode = textInput('mode') === undefined ? undefined : choiceInput('mode', MAPPING_MODES, 'combined');
  let frameworks = config.frameworks;
  if (named) {
    const wanted = named.toLowerCase();
    frameworks = config.frameworks.filter((entry) => entry.framework.toLowerCase() === wanted);
    if (frameworks.length === 0) {
      if (threshold === undefined) {
        throw new InputError('threshold', `is required: ${named} is not among the frameworks of compliance.yml`, 'Give threshold (0 to 100), or add the framework to compliance.yml.');
      }
      frameworks = [{ framework: named, threshold, documents: undefined, mode: mode ?? 'combined' }];
    }
  }
  if (frameworks.length === 0) {
    throw new InputError('framework', 'is empty and compliance.yml lists no frameworks', 'Name a verified framework (for example nist-csf-2) with a threshold, or add frameworks to compliance.yml.');
  }
  return frameworks.map((entry) => ({ ...entry, ...(threshold !== undefined ? { threshold } : {}), ...(mode ? { mode } : {}) }));
}

export function reportDirectory(root: string): string {
  const dir = textInput('report-dir') ?? DEFAULT_REPORT_DIR;
  return isAbsolute(dir) ? dir : resolve(root, dir);
}

/**
 * The gate inputs of a pull request check: a `baseline` naming no file is a notice, not an error
 * (the default branch has not saved a report yet); the comment says so.
 */
async function readPullRequestGateInputs(root: string): Promise<GateInputs & { missingBaseline: string | undefined }> {
  const path = textInput('baseline');
  if (!path || existsSync(isAbsolute(path) ? path : resolve(root, path))) return { ...(await readGateInputs(root)), missingBaseline: undefined };
  core.notice(`No baseline at ${path}: the default branch has no saved report yet, so nothing is compared this run.`, { title: 'No default-branch report yet' });
  return { failOn: choiceInput('fail-on', FAIL_ON, 'coverage'), baseline: undefined, waivers: parseWaiversInput(textInput('waivers')), missingBaseline: path };
}

/** Whether `base-config` (the default branch's compliance.yml) has the same text as this one. */
async function configUnchanged(root: string, currentText: string): Promise<boolean> {
  const path = textInput('base-config');
  if (!path) return false;
  const bytes = await readRepoBytes(root, path);
  if (!bytes) {
    core.notice(`base-config ${path} does not exist: compliance.yml is treated as changed.`);
    return false;
  }
  return decodeUtf8(bytes, path).replace(/\r\n/g, '\n').trim() === currentText.replace(/\r\n/g, '\n').trim();
}

/** Gap keys of the baseline that the current report no longer lists, for the frameworks mapped now. */
function resolvedGaps(result: ReviewResult, baseline: Baseline | undefined): string[] {
  if (!baseline) return [];
  const current = new Set(result.frameworks.flatMap((framework) => framework.gaps.map((gap) => gap.key)));
  const prefixes = result.frameworks.map((framework) => `${encodeURIComponent(framework.framework.key)}/`);
  return [...baseline.gapKeys].filter((key) => prefixes.some((prefix) => key.startsWith(prefix)) && !current.has(key)).sort();
}

function mergePriceLine(price: MergePrice | undefined): string {
  if (!price) return '';
  const { counts } = price;
  const changed = counts.new + counts.changed;
  const tokens = price.tokens === undefined ? 'a price the service does not list' : formatTokens(price.tokens);
  const each = price.lines.filter((line) => line.count > 0).map((line) => `${line.count} × ${line.tokensEach === undefined ? 'unlisted' : formatTokens(line.tokensEach)} (${line.operationId})`);
  const parts = [`**Merging costs the library sync ${tokens}**`];
  parts.push(changed === 0 ? ': no document to ingest or refresh' : `: ${changed} changed document${changed === 1 ? '' : 's'}, ${each.join(' + ')}`);
  if (counts.removed > 0) parts.push(`; ${counts.removed} document${counts.removed === 1 ? '' : 's'} leave${counts.removed === 1 ? 's' : ''} the library's scope (free)`);
  return `${parts.join('')}. Prices from GET /billing; the sync runs on the default branch after the merge.`;
}

/** The part of the pull request comment that only a pull request run has: baseline, gap changes, prices. */
function pullRequestNotes(result: ReviewResult, context: { baseline: Baseline | undefined; baselineMissing: string | undefined; tokensSpent: number; evidence: EvidenceChanges | undefined }): string {
  const lines: string[] = [];
  if (result.status === 'unchanged') lines.push('This pull request changes no document in scope and not compliance.yml: nothing was mapped, nothing spent. The default branch\'s result stands.');
  if (context.baselineMissing) lines.push(`No report of the default branch yet (${tableCell(context.baselineMissing)}): no comparison this time. The default branch's next run saves one.`);
  if (context.baseline && result.status === 'completed') {
    const introduced = result.frameworks.flatMap((framework) => framework.newGaps.map((gap) => `${gap.controlId}`));
    const resolved = resolvedGaps(result, context.baseline).map((key) => decodeURIComponent(key.slice(key.indexOf('/') + 1)));
    lines.push(`Against the default branch: ${introduced.length} gap${introduced.length === 1 ? '' : 's'} introduced${introduced.length ? ` (${introduced.map(tableCell).join(', ')})` : ''}, ${resolved.length} resolved${resolved.length ? ` (${resolved.map(tableCell).join(', ')})` : ''}.`);
  }
  if (context.evidence) {
    const lost = lostControls(context.evidence.lost);
    const gained = [...new Set(context.evidence.gained.map((entry) => entry.controlId))];
    lines.push(`Evidence lost: ${lost.length === 0 ? 'none' : lost.map(tableCell).join(', ')}. Evidence gained: ${gained.length === 0 ? 'none' : gained.map(tableCell).join(', ')}.`);
  }
  const merge = mergePriceLine(result.mergePrice);
  if (merge) lines.push(merge);
  lines.push(`This check spent ${formatTokens(context.tokensSpent)}${result.mode === 'sandbox' ? ' (sandbox key: nothing is charged)' : ''}.`);
  return lines.map((line) => `- ${line}`).join('\n');
}

export const mapAction: ActionDefinition = {
  name: 'map',
  // A required check must not turn green on a pull request nothing evaluated.
  gatesPullRequests: true,
  async run({ apiKey, githubToken }) {
    const repo = await loadRepoConfig();
    const frameworks = selectFrameworks(repo.config);
    const pullRequest = isPullRequestEvent();
    const gate = pullRequest ? await readPullRequestGateInputs(repo.root) : { ...(await readGateInputs(repo.root)), missingBaseline: undefined };
    const failBelow = booleanInput('fail-below', true);
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const formats = reportFormatsInput();
    const history = await historyInput(repo.root);
    const commentInputs = readCommentInputs();
    const config: Config = { ...repo.config, frameworks, waivers: mergeWaivers(repo.config, gate.waivers) };
    const repository = repo.config.repository ?? repositoryName(currentRepository());
    const client = createClient(apiKey, 'map');
    const files = await readDocuments(repo.root, repo.config.documents);

    const result = await runReview(client, {
      config,
      files,
      today: new Date().toISOString().slice(0, 10),
      now: new Date().toISOString(),
      repository,
      ...currentRevision(),
      sync: pullRequest ? 'price' : 'skip',
      configUnchanged: pullRequest && (await configUnchanged(repo.root, repo.text)),
      checkUpdates: false,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      failOn: gate.failOn,
      ...(gate.baseline ? { baseline: gate.baseline.gapKeys } : {}),
      onProgress: ({ phase, message }) => core.info(`[${phase}] ${message}`),
    });
    if (result.status === 'refused') {
      core.setOutput('tokens-spent', '0');
      core.setFailed(`refused before spending anything: ${result.budget.reasons.join('; ')}`);
      return;
    }
    for (const entry of result.frameworkErrors) core.error(entry.message, { title: `Mapping against ${entry.framework} failed` });
    const { report, tokensSpent } = result;

    // What this pull request does to the default branch's evidence (its report carries the traced quotes).
    const evidence = pullRequest && result.status === 'completed' && gate.baseline?.report ? compareEvidence(gate.baseline.report, report, files) : undefined;

    // The result is made visible first: files, summary, annotations, outputs. Then the comment.
    const written = await writeReportFiles(client, report, repo.root, reportDirectory(repo.root), formats, {
      configPath: repo.path,
      configText: repo.text,
      ...(history ? { history } : {}),
      ...(evidence ? { lostEvidence: evidence.lost } : {}),
    });
    const relativeJson = written.json.startsWith(repo.root) ? written.json.slice(repo.root.length + 1) : written.json;
    const costs = renderCosts({ mode: result.mode, estimate: result.estimate, budget: result.budget, tokensSpent });
    const notes = pullRequest ? pullRequestNotes(result, { baseline: gate.baseline, baselineMissing: gate.missingBaseline, tokensSpent, evidence }) : '';
    const notesSection = notes ? `## This pull request\n\n${notes}\n` : '';
    appendSummary(`${renderReportSummary(report, { detail: 'full', baseline: gate.baseline })}\n${notesSection}\n${costs}`, {
      shortened: () => `${renderReportSummary(report, { detail: 'summary', baseline: gate.baseline, maxGaps: 25 })}\n${notesSection}\n${costs}`,
      moreAt: relativeJson.replace(/report\.json$/, 'report.md'),
    });
    if (result.frameworkErrors.length > 0) appendSummary(`## Mapping errors\n\n${result.frameworkErrors.map((entry) => `- ${tableCell(entry.framework)}: ${tableCell(entry.message)}`).join('\n')}\n`);
    annotateExpiredWaivers(result.frameworks, repo.path, repo.text);
    // GitHub shows 10 warnings per step: what this change removed comes first, gaps get the rest.
    const lostShown = evidence ? annotateLostEvidence(evidence.lost) : 0;
    annotateGaps(report, MAX_ANNOTATIONS - lostShown);
    setReportOutputs(report, written);
    core.setOutput('status', result.status);
    core.setOutput('tokens-spent', String(tokensSpent));
    core.setOutput('merge-tokens', result.mergePrice?.tokens === undefined ? '' : String(result.mergePrice.tokens));
    core.setOutput('gaps-resolved', String(resolvedGaps(result, gate.baseline).length));

    const url = await publishReportComment(report, commentInputs, { githubToken, baseline: gate.baseline, ...(notes ? { notes } : {}) });
    core.setOutput('comment-url', url ?? '');

    if (result.frameworkErrors.length > 0) {
      const errors = result.frameworkErrors.map((entry) => `${entry.framework}: ${entry.message}`);
      core.setFailed(`mapping failed for ${errors.length} framework${errors.length === 1 ? '' : 's'}: ${errors.join('; ')}`);
      return;
    }
    const reasons = result.frameworks.flatMap((entry) => entry.reasons.map((reason) => `${entry.framework.name}: ${reason}`));
    if (!report.passed) {
      if (failBelow) core.setFailed(`compliance gate failed: ${reasons.join('; ')}`);
      else core.warning(`compliance gate failed (fail-below is false, so the step passes): ${reasons.join('; ')}`);
    }
  },
};
