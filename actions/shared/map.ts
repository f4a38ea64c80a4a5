/**
 * actions/map: read the inputs, run review/'s map check (runMapCheck: the gate, what the event
 * allows, reuse, the money rule and the verdict, the same for `compliance map`), then render it:
 * report files, job summary and annotations, outputs, the pull request comment. The gate is
 * decided last, so a failing gate never hides the report.
 *
 * In a pull request the library is never written (it mirrors the default branch): the PR's
 * documents are mapped directly, the sync is only planned against the library (free) to price
 * what merging will cost, and when neither a document in scope nor compliance.yml differs from
 * the default branch nothing is mapped or spent. With `changed-files` that is known before any
 * call (nothingInScope, review/'s pullRequestScope).
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import {
  chargedStepSentence,
  compareEvidence,
  DEFAULT_MAPPING_STORE,
  gateNotes,
  MAPPING_MODES,
  changedPathsCheck,
  resolvedGapKeys,
  runMapCheck,
  stepOptions,
  tableCell,
  type MappingMode,
  readDeclarations,
} from '../../review/index.js';
import { readMappingStoreText, writeRepoFile } from '../../review/node/index.js';
import { currentRepository, currentRevision, repositoryName } from './github/context.js';
import { publishReportComment, readCommentInputs } from './pullRequestComment.js';
import { annotateExpiredWaivers, annotateGaps, annotateLostEvidence, MAX_ANNOTATIONS } from './annotations.js';
import { writeReportFiles } from './reportFiles.js';
import { failOnInput, historyInput, parseWaiversInput, readGateInputs, reportFormatsInput, type GateInputs } from './reportInputs.js';
import { renderCosts, renderReportSummary } from './reportRender.js';
import { setReportPathOutputs } from './stepOutputs.js';
import { gatedBase, loadRepoConfig, readDocuments } from './repo.js';
import { booleanInput, choiceInput, numberInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';
import { finishStep, renderRefusal, setVerdictOutputs, verdictLine } from './verdict.js';
import { pullRequestNotes } from './pullRequestNotes.js';

export const DEFAULT_REPORT_DIR = 'compliance-report';

/** The `mode` input, when given. */
function modeInput(): MappingMode | undefined {
  return textInput('mode') === undefined ? undefined : choiceInput('mode', MAPPING_MODES, 'combined');
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
  log.notice(`No baseline at ${path}: the default branch has no saved report yet, so nothing is compared this run.`, { title: 'No default-branch report yet' });
  return { failOn: failOnInput(), baseline: undefined, waivers: parseWaiversInput(textInput('waivers')), missingBaseline: path };
}

/**
 * A gated run whose changes since its base commit (git's own list) touch no document in scope nor
 * compliance.yml passes at once, also from a fork: no key, no service call, no comment. It shows
 * no figures: the default branch's saved report counts only once the service confirms it.
 */
async function nothingInScope(): Promise<boolean> {
  const repo = await loadRepoConfig();
  const base = await gatedBase(repo.root);
  const { verdict, scope } = changedPathsCheck(currentEventPolicy(), base, { config: repo.config, path: repo.path });
  if (!verdict) {
    if (scope) log.info(`In scope: ${scope.configChanged ? `${repo.path}, ` : ''}${scope.documents.length} changed document${scope.documents.length === 1 ? '' : 's'}${scope.unclassified.length ? `; git listed changes it could not classify (${scope.unclassified.join(', ')}), so everything counts as changed` : ''}.`);
    return false;
  }
  log.notice(`No document in scope changed since ${base?.describe} (nor compliance.yml): nothing to map, nothing spent.`, { title: 'Compliance check: nothing in scope' });
  appendSummary(`## Compliance check: no document in scope changed\n\n${verdictLine(verdict)}\n`);
  setVerdictOutputs(verdict);
  core.setOutput('merge-tokens', '0');
  core.setOutput('gaps-resolved', '0');
  core.setOutput('comment-url', '');
  return true;
}

export const mapAction: ActionDefinition = {
  name: 'map',
  // A required check must not turn green on a pull request nothing evaluated.
  gatesPullRequests: true,
  reportsStatus: true,
  finishedWithoutService: nothingInScope,
  async run({ apiKey, githubToken }) {
    const repo = await loadRepoConfig();
    const policy = currentEventPolicy();
    const unmerged = !policy.mayWriteLibrary;
    const base = await gatedBase(repo.root);
    const inputs = unmerged ? await readPullRequestGateInputs(repo.root) : { ...(await readGateInputs(repo.root)), missingBaseline: undefined };
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const dryRun = booleanInput('dry-run', false);
    // On a gated run nothing may turn a failed, refused or unevaluated check green.
    const step = stepOptions(policy, { failBelow: booleanInput('fail-below', true), failOnRefusal: booleanInput('fail-on-refusal', true), dryRun });
    const formats = reportFormatsInput();
    const history = await historyInput(repo.root);
    const commentInputs = readCommentInputs(policy);
    const repository = repo.config.repository ?? repositoryName(currentRepository());
    const client = createClient(apiKey, 'map');
    const files = await readDocuments(repo.root, repo.config.documents);
    // A re-run of the same pull request reuses its unchanged mappings (the store is kept by actions/cache).
    const storePath = textInput('mapping-store') ?? DEFAULT_MAPPING_STORE;
    const stored = unmerged ? await readMappingStoreText(repo.root, storePath) : undefined;
    if (stored?.ignored) log.warning(stored.ignored, { title: 'Mapping store ignored' });

    const check = await runMapCheck(client, {
      policy,
      head: { config: repo.config, text: repo.text, path: repo.path },
      base,
      request: { failOn: inputs.failOn, framework: textInput('framework'), threshold: numberInput('threshold', { min: 0, max: 100 }), mode: modeInput(), waivers: inputs.waivers },
      files,
      baseline: inputs.baseline,
      mappingStore: stored?.text,
      review: {
        readDeclarations,
        today: new Date().toISOString().slice(0, 10),
        now: new Date().toISOString(),
        repository,
        ...currentRevision(),
        ...(maxTokens !== undefined ? { maxTokens } : {}),
        dryRun,
        onProgress: ({ phase, message }) => log.info(`[${phase}] ${message}`),
      },
    });
    const { result, verdict, gate: gateConfig } = check;
    // The baseline as it counts: on a gated run only once the service confirmed it.
    const gate = { ...inputs, baseline: check.baseline?.report && inputs.baseline ? { ...inputs.baseline, gapKeys: new Set(check.baseline.gapKeys) } : undefined };
    if (check.baselineRejected) log.warning(check.baselineRejected, { title: 'Baseline not confirmed' });
    const ignored = [...gateConfig.ignored, ...step.ignored];
    for (const line of ignored) log.warning(line, { title: 'Input not applied' });
    const gateLines = gateNotes({ ...gateConfig, ignored }, policy.changeRequest);
    if (check.mappingStore !== undefined) await writeRepoFile(repo.root, storePath, check.mappingStore);
    if (result.status === 'dry-run') {
      // Priced only: no report, no comment; what a real run would map and spend. On a gated run it evaluated nothing: the step fails.
      const title = step.gated ? `Compliance check: not evaluated (dry run: nothing was sent)` : 'Dry run: nothing was sent';
      appendSummary(`## ${title}\n\n${gateLines.map((line) => `> ${line}\n\n`).join('')}${chargedStepSentence({ ...result, status: 'dry-run' })}\n\n${renderCosts({ mode: result.mode, estimate: result.estimate, budget: result.budget, tokensSpent: 0 })}`);
      setVerdictOutputs(verdict);
      core.setOutput('tokens-spent', '0');
      finishStep(verdict, step);
      return;
    }
    for (const entry of result.frameworkErrors) log.error(entry.message, { title: `Mapping against ${entry.framework} failed` });
    const { tokensSpent } = result;
    // An unchanged pull request shows the default branch's report: its coverage and gaps stand.
    const shown = verdict.figures.source === 'baseline' && gate.baseline?.report ? gate.baseline.report : result.report;
    // What this pull request does to the default branch's evidence (its report carries the traced quotes).
    const evidence = unmerged && result.status === 'completed' && gate.baseline?.report ? compareEvidence(gate.baseline.report, result.report, files) : undefined;
    const notes = unmerged ? pullRequestNotes(result, { verdict, baseline: gate.baseline, baselineMissing: gate.missingBaseline, baselineRejected: check.baselineRejected, tokensSpent, evidence }) : '';
    const notesSection = notes ? `## This pull request\n\n${notes}\n` : '';

    // The result is made visible first: files, summary, annotations, outputs. Then the comment.
    if (result.status === 'refused') {
      const refusal = renderRefusal('map', result, verdict, step.failOnRefusal);
      appendSummary(`${gateLines.map((line) => `> ${line}\n\n`).join('')}${refusal}\n${notesSection}`);
      setVerdictOutputs(verdict);
      core.setOutput('merge-tokens', result.mergePrice?.tokens === undefined ? '' : String(result.mergePrice.tokens));
      core.setOutput('gaps-resolved', '');
      const url = await publishReportComment(undefined, commentInputs, { githubToken, baseline: undefined, body: `${gateLines.map((line) => `> ${line}\n\n`).join('')}${refusal}\n${notes}`, createIfMissing: true });
      core.setOutput('comment-url', url ?? '');
      finishStep(verdict, step);
      return;
    }
    const written = await writeReportFiles(client, result.report, repo.root, reportDirectory(repo.root), formats, {
      configPath: repo.path,
      configText: repo.text,
      ...(history ? { history } : {}),
      ...(evidence ? { lostEvidence: evidence.lost } : {}),
      gateNotes: gateLines,
    });
    const relativeJson = written.json.startsWith(repo.root) ? written.json.slice(repo.root.length + 1) : written.json;
    const costs = renderCosts({ mode: result.mode, estimate: result.estimate, budget: result.budget, tokensSpent });
    appendSummary(`${renderReportSummary(shown, { detail: 'full', baseline: gate.baseline, gateNotes: gateLines })}\n${notesSection}\n${costs}`, {
      shortened: () => `${renderReportSummary(shown, { detail: 'summary', baseline: gate.baseline, maxGaps: 25, gateNotes: gateLines })}\n${notesSection}\n${costs}`,
      moreAt: relativeJson.replace(/report\.json$/, 'report.md'),
    });
    if (result.frameworkErrors.length > 0) appendSummary(`## Mapping errors\n\n${result.frameworkErrors.map((entry) => `- ${tableCell(entry.framework)}: ${tableCell(entry.message)}`).join('\n')}\n`);
    annotateExpiredWaivers(result.frameworks, repo.path, repo.text);
    // GitHub shows 10 warnings per step: what this change removed comes first, gaps get the rest.
    const lostShown = evidence ? annotateLostEvidence(evidence.lost) : 0;
    annotateGaps(result.report, MAX_ANNOTATIONS - lostShown);
    setReportPathOutputs(written);
    setVerdictOutputs(verdict);
    core.setOutput('reused', JSON.stringify(result.reused));
    core.setOutput('merge-tokens', result.mergePrice?.tokens === undefined ? '' : String(result.mergePrice.tokens));
    core.setOutput('gaps-resolved', String(gate.baseline ? resolvedGapKeys(result.frameworks, gate.baseline.gapKeys).length : 0));

    const url = await publishReportComment(shown, commentInputs, { githubToken, baseline: gate.baseline, gateNotes: gateLines, ...(notes ? { notes } : {}), ...(gateConfig.changes.length ? { createIfMissing: true } : {}) });
    core.setOutput('comment-url', url ?? '');
    finishStep(verdict, step);
  },
};
