/**
 * actions/review: the whole review loop of compliance.yml in one step, for scheduled runs: sync
 * what changed into the library, map each framework and gate it, pull framework updates, detect
 * drifted generated documents (and regenerate them with `regenerate`), then open, update and close
 * the gap issues. Order of publication: report files, job summary, annotations and outputs first;
 * then issues; the gate is decided last.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import {
  assertMayWriteLibrary,
  baselineThatCounts,
  chargedStep,
  chargedStepSentence,
  stepOptions,
  decideVerdict,
  gateConfiguration,
  gateNotes,
  generationCalls,
  neutralise,
  planGeneration,
  renderSyncMarkdown,
  runReview,
  tableCell,
  type ReviewResult,
  type Verdict,
  readDeclarations,
} from '../../review/index.js';
import { isoDate } from '../../review/config.js';
import { readManifest, readOptionalRepoFiles } from '../../review/node/index.js';
import { driftInputPaths } from '../../review/drift.js';
import { currentRepository, currentRevision, repositoryName } from './github/context.js';
import { applyGapIssuePlan, listGapIssues } from './github/gapIssues.js';
import { createGitHub } from './github/octokit.js';
import { describeGitHubError, warnRefused } from './github/permissions.js';
import { renderAppliedMarkdown, setGapIssueOutputs } from './gapIssues.js';
import { formatsInput, generatedLiveTokens, generateInto, renderGenerationMarkdown } from './generate.js';
import { reportDirectory } from './map.js';
import { annotateExpiredWaivers, annotateGaps } from './annotations.js';
import { writeReportFiles } from './reportFiles.js';
import { historyInput, readGateInputs, reportFormatsInput } from './reportInputs.js';
import { renderCosts, renderReportSummary } from './reportRender.js';
import { setReportPathOutputs } from './stepOutputs.js';
import { gatedBase, loadRepoConfig, readDocuments } from './repo.js';
import { booleanInput, InputError, numberInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { currentEventPolicy } from '../../review/node/ciContext.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';
import { finishStep, renderRefusal, setVerdictOutputs } from './verdict.js';

function renderUpdates(result: ReviewResult, since: string | undefined): string {
  if (result.frameworkUpdates.length === 0) return '';
  const lines = [`## Framework updates${since ? ` since ${since}` : ''}`, ''];
  for (const entry of result.frameworkUpdates) {
    if (entry.error) {
      lines.push(`- **${tableCell(entry.slug)}**: could not be read (${tableCell(entry.error.message)})`);
      continue;
    }
    if (entry.updates.length === 0) lines.push(`- **${tableCell(entry.name ?? entry.slug)}**: no updates`);
    for (const update of entry.updates) {
      lines.push(`- **${tableCell(entry.name ?? entry.slug)}** ${update.date.slice(0, 10)}: ${tableCell(update.title)}${update.summary ? ` — ${tableCell(update.summary)}` : ''}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

function renderStatus(result: ReviewResult, verdict: Verdict, failOnRefusal: boolean): string {
  if (result.status === 'refused') return renderRefusal('review', result, verdict, failOnRefusal);
  if (result.status === 'dry-run') return `> ${chargedStepSentence({ ...result, status: 'dry-run' })}\n`;
  return '';
}

export const reviewAction: ActionDefinition = {
  name: 'review',
  reportsStatus: true,
  async run({ apiKey, githubToken }) {
    const repo = await loadRepoConfig();
    const inputs = await readGateInputs(repo.root);
    const dryRun = booleanInput('dry-run', false);
    const sync = booleanInput('sync', true) ? 'run' : 'skip';
    const policy = currentEventPolicy();
    // On a gated run nothing may turn a failed, refused or unevaluated check green.
    const step = stepOptions(policy, { failBelow: booleanInput('fail-below', true), failOnRefusal: booleanInput('fail-on-refusal', true), dryRun });
    if (sync === 'run' && !dryRun) assertMayWriteLibrary(policy, 'review with sync: true', 'Give sync: false in a pull request, or use map, which prices the merge without writing.');
    const deleteRemoved = booleanInput('delete-removed', false);
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const wantIssues = booleanInput('gap-issues', true);
    const regenerate = booleanInput('regenerate', false);
    const formats = formatsInput();
    const reportFormats = reportFormatsInput();
    const history = await historyInput(repo.root);
    const since = textInput('since');
    if (since !== undefined && !isoDate.safeParse(since).success) throw new InputError('since', `must be a date written YYYY-MM-DD (got ${JSON.stringify(since)})`);
    // On a pull request (sync: false) the base commit's gate applies, as in map; inputs only tighten it.
    const base = await gatedBase(repo.root);
    const gateConfig = gateConfiguration(policy, repo.config, base?.config.config, { failOn: inputs.failOn, waivers: inputs.waivers });
    const ignored = [...gateConfig.ignored, ...step.ignored];
    for (const line of ignored) log.warning(line, { title: 'Input not applied' });
    const gateLines = gateNotes({ ...gateConfig, ignored }, policy.changeRequest);
    const { config } = gateConfig;
    const repository = repo.config.repository ?? repositoryName(currentRepository());
    const client = createClient(apiKey, 'review');
    // On a gated run a cached baseline counts only once the service confirms it against the base commit.
    const counted = await baselineThatCounts(client, inputs.baseline, base, undefined);
    if (counted.rejected) log.warning(counted.rejected, { title: 'Baseline not confirmed' });
    const gate = { ...inputs, baseline: counted.value?.report && inputs.baseline ? { ...inputs.baseline, gapKeys: new Set(counted.value.gapKeys) } : undefined };

    const label = config.gapIssues.labels[0];
    const issuesAllowed = wantIssues && policy.mayWriteIssues;
    if (wantIssues && !policy.mayWriteIssues) log.notice(`Gap issues left alone: ${policy.withheld}.`, { title: 'No gap issues from a pull request' });
    let github = issuesAllowed && githubToken && label && !dryRun ? await createGitHub(githubToken) : undefined;
    if (issuesAllowed && !githubToken) log.warning('No GitHub token: gap issues are skipped. Leave github-token at its default and grant `issues: write`.');
    let existingIssues: Awaited<ReturnType<typeof listGapIssues>> | undefined;
    if (github && label) {
      try {
        existingIssues = await listGapIssues(github, currentRepository(), label);
      } catch (error) {
        // The review still runs and reports; only the issues are left out.
        log.warning(`Could not list the gap issues (${describeGitHubError(error)}): gap issues are skipped this run.`);
        github = undefined;
      }
    }

    const files = await readDocuments(repo.root, config.documents);
    const hasGenerate = config.generate.length > 0;
    const today = new Date().toISOString().slice(0, 10);
    const result = await runReview(client, {
      config,
      files,
      readDeclarations,
      today,
      now: new Date().toISOString(),
      repository,
      event: policy.event,
      ...currentRevision(),
      sync,
      deleteRemoved,
      dryRun,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      failOn: gateConfig.failOn,
      ...(counted.value ? { baseline: counted.value.gapKeys } : {}),
      ...(existingIssues ? { existingIssues } : {}),
      ...(since ? { lastReviewDate: since } : {}),
      ...(hasGenerate ? { manifest: await readManifest(repo.root), generatedFiles: await readOptionalRepoFiles(repo.root, driftInputPaths(config.generate)) } : {}),
      onProgress: ({ phase, message }) => log.info(`[${phase}] ${message}`),
    });

    // Regeneration spends tokens of its own: only when asked, only drifted documents, within the cap.
    let generation: Awaited<ReturnType<typeof generateInto>> | undefined;
    const generationPlan = result.drift ? planGeneration(result.drift.documents) : undefined;
    let generationRefused: string | undefined;
    let generatedTokens = 0;
    if (regenerate && result.status === 'completed' && generationPlan && generationPlan.generate.length > 0) {
      // The same cap as the review's sync and mapping: what they spent is already counted in its ledger.
      const step = await chargedStep(
        client,
        [generationCalls(generationPlan.generate.length)],
        { ledger: result.ledger, capLabel: 'max-tokens', settle: (written, charged) => generatedLiveTokens(written, charged.prices) },
        () => generateInto(client, repo.root, generationPlan, formats),
      );
      if (step.status === 'completed') {
        generation = step.value;
        generatedTokens = step.tokensSpent;
      } else generationRefused = step.refusal?.message;
    }
    const tokensSpent = result.tokensSpent + generatedTokens;

    const verdict = decideVerdict(result, { baseline: gate.baseline?.report });
    const written = result.status === 'refused' ? undefined : await writeReportFiles(client, result.report, repo.root, reportDirectory(repo.root), reportFormats, {
      configPath: repo.path,
      configText: repo.text,
      ...(history ? { history } : {}),
      gateNotes: gateLines,
    });
    const parts = [
      `# Compliance review of ${tableCell(repository)}`,
      '',
      renderStatus(result, verdict, step.failOnRefusal),
      gateLines.map((line) => `> ${line}\n`).join('\n'),
      result.sync?.run ? renderSyncMarkdown(result.sync.run) : '',
    ];
    const tail = [
      result.frameworkErrors.length ? `## Mapping errors\n\n${result.frameworkErrors.map((entry) => `- ${tableCell(entry.framework)}: ${tableCell(entry.message)}`).join('\n')}\n` : '',
      renderUpdates(result, since),
      result.drift && generationPlan ? renderGenerationMarkdown(result.drift.documents, generationPlan, generation, generation ? undefined : generationRefused ? 'refused' : dryRun ? 'dry-run' : 'not-asked') : '',
      generationRefused ? `> Regeneration ${neutralise(generationRefused)}\n` : '',
      renderCosts({ mode: result.mode, estimate: result.estimate, budget: result.budget, tokensSpent }),
    ];
    const compose = (detail: 'full' | 'summary') =>
      [...parts, result.report.frameworks.length ? renderReportSummary(result.report, { detail, baseline: gate.baseline, ...(detail === 'summary' ? { maxGaps: 25 } : {}) }).replace(/^# /, '## ') : '', ...tail]
        .filter(Boolean)
        .join('\n');
    appendSummary(compose('full'), { shortened: () => compose('summary'), moreAt: 'report.md' });
    annotateExpiredWaivers(result.frameworks, repo.path, repo.text);
    annotateGaps(result.report);
    for (const entry of result.frameworkErrors) log.error(entry.message, { title: `Mapping against ${entry.framework} failed` });
    setReportPathOutputs(written);
    setVerdictOutputs(verdict);
    // Regeneration is spent after the verdict's run: the output counts both.
    core.setOutput('tokens-spent', String(tokensSpent));
    core.setOutput('drifted', JSON.stringify((result.drift?.documents ?? []).filter((entry) => entry.status !== 'up-to-date').map((entry) => entry.output)));
    core.setOutput('framework-updates', JSON.stringify(result.frameworkUpdates.map((entry) => ({ slug: entry.slug, name: entry.name, updates: entry.updates }))));
    core.setOutput('generated-paths', JSON.stringify(generation?.paths ?? []));
    if (result.sync?.run) {
      core.setOutput('synced', JSON.stringify(Object.fromEntries(['ingested', 'refreshed', 'deleted', 'failed'].map((outcome) => [outcome, result.sync?.run?.results.filter((entry) => entry.outcome === outcome).length ?? 0]))));
    }

    if (result.gapPlan && github) {
      const applied = await applyGapIssuePlan(github, currentRepository(), result.gapPlan, { label: label as string });
      if (applied.refused) warnRefused(applied.refused);
      appendSummary(renderAppliedMarkdown(result.gapPlan, applied), { final: true });
      setGapIssueOutputs(applied);
    } else {
      setGapIssueOutputs(undefined);
    }

    const failedGeneration = generation?.run.results.filter((entry) => entry.status !== 'generated') ?? [];
    if (failedGeneration.length > 0) log.warning(`regeneration failed for ${failedGeneration.map((entry) => entry.output).join(', ')}`);
    if (result.sync?.run && !result.sync.run.complete) log.warning('the library sync did not finish: see the job summary');
    finishStep(verdict, step);
  },
};
