/**
 * actions/map: map the policy set of compliance.yml against its frameworks (or the one named by
 * `framework`), gate on the threshold, write the report, the job summary and annotations, then
 * comment on the pull request. The gate is decided last, so a failing gate never hides the report.
 */
import { isAbsolute, resolve } from 'node:path';
import * as core from '@actions/core';
import {
  assertBudget,
  buildReviewReport,
  checkBudget,
  estimateCost,
  evaluateGate,
  frameworkDocuments,
  mappingCost,
  MAPPING_MODES,
  assertDistinctFrameworks,
  resolveFrameworkSlug,
  ReviewError,
  runMapping,
  type Config,
  type FrameworkConfig,
  type GateResult,
} from '../../review/index.js';
import { ComplianceError } from '../../api/errors.js';
import { currentRepository, repositoryName } from './github/context.js';
import { publishReportComment, readCommentInputs } from './pullRequestComment.js';
import {
  annotateExpiredWaivers,
  annotateGaps,
  mergeWaivers,
  readGateInputs,
  renderCosts,
  renderReportSummary,
  reportFormatsInput,
  setReportOutputs,
  writeReportFiles,
} from './report.js';
import { loadRepoConfig, readDocuments } from './repo.js';
import { booleanInput, choiceInput, InputError, numberInput, textInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
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

export const mapAction: ActionDefinition = {
  name: 'map',
  async run({ apiKey, githubToken }) {
    const repo = await loadRepoConfig();
    const frameworks = selectFrameworks(repo.config);
    const gate = await readGateInputs(repo.root);
    const failBelow = booleanInput('fail-below', true);
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const formats = reportFormatsInput();
    const commentInputs = readCommentInputs();
    const waivers = mergeWaivers(repo.config, gate.waivers);
    const client = createClient(apiKey, 'map');

    const { mode } = await client.ping();
    const billing = await client.getBilling();
    const { verifiedFrameworks } = await client.getCapabilities();
    assertDistinctFrameworks(frameworks, verifiedFrameworks);
    const documents = await readDocuments(repo.root, repo.config.documents);
    const plans = frameworks.map((framework) => ({ framework, files: frameworkDocuments(framework, repo.config.documents, documents) }));

    const estimate = estimateCost(plans.map(({ framework, files }) => mappingCost(framework.mode, files.length, billing.prices)));
    const budget = checkBudget(estimate, { mode, balanceTokens: billing.balanceTokens, maxTokens });
    assertBudget(budget);

    const results: GateResult[] = [];
    const errors: string[] = [];
    let tokensSpent = 0;
    for (const { framework, files } of plans) {
      core.info(`Mapping ${files.length} document${files.length === 1 ? '' : 's'} against ${framework.framework} (${framework.mode})…`);
      try {
        const mapped = await runMapping(client, { framework: resolveFrameworkSlug(framework.framework, verifiedFrameworks), files, mode: framework.mode });
        if (mode === 'live') tokensSpent += mapped.reports.length * (billing.prices.mapDocument ?? 0);
        results.push(
          evaluateGate(mapped.reports, {
            framework: framework.framework,
            threshold: framework.threshold,
            waivers,
            today: new Date().toISOString().slice(0, 10),
            baseline: gate.baseline?.gapKeys,
            failOn: gate.failOn,
          }),
        );
      } catch (error) {
        if (!(error instanceof ComplianceError) && !(error instanceof ReviewError)) throw error;
        const message = error instanceof ComplianceError ? error.toDisplayString() : `${error.message}${error.hint ? ` (${error.hint})` : ''}`;
        errors.push(`${framework.framework}: ${message}`);
        core.error(message, { title: `Mapping against ${framework.framework} failed` });
      }
    }

    const report = buildReviewReport(results, { generatedAt: new Date().toISOString(), repository: repositoryName(currentRepository()) });
    // The result is made visible first: files, summary, annotations, outputs. Then the comment.
    const written = await writeReportFiles(client, report, repo.root, reportDirectory(repo.root), formats);
    const relativeJson = written.json.startsWith(repo.root) ? written.json.slice(repo.root.length + 1) : written.json;
    const costs = renderCosts({ mode, estimate, budget, tokensSpent });
    appendSummary(`${renderReportSummary(report, { detail: 'full', baseline: gate.baseline })}\n${costs}`, {
      shortened: () => `${renderReportSummary(report, { detail: 'summary', baseline: gate.baseline, maxGaps: 25 })}\n${costs}`,
      moreAt: relativeJson.replace(/report\.json$/, 'report.md'),
    });
    if (errors.length > 0) appendSummary(`## Mapping errors\n\n${errors.map((line) => `- ${line}`).join('\n')}\n`);
    annotateExpiredWaivers(results, repo.path, repo.text);
    annotateGaps(report);
    setReportOutputs(report, written);
    core.setOutput('tokens-spent', String(tokensSpent));

    const url = await publishReportComment(report, commentInputs, { githubToken, baseline: gate.baseline });
    core.setOutput('comment-url', url ?? '');

    if (errors.length > 0) {
      core.setFailed(`mapping failed for ${errors.length} framework${errors.length === 1 ? '' : 's'}: ${errors.join('; ')}`);
      return;
    }
    const reasons = results.flatMap((result) => result.reasons.map((reason) => `${result.framework.name}: ${reason}`));
    if (!report.passed) {
      if (failBelow) core.setFailed(`compliance gate failed: ${reasons.join('; ')}`);
      else core.warning(`compliance gate failed (fail-below is false, so the step passes): ${reasons.join('; ')}`);
    }
  },
};
