/**
 * actions/generate: generate the documents of compliance.yml `generate` into the repository, in
 * their formats, recording each in .compliance/generated.json. By default only drifted documents
 * (framework updated, parameters changed, file missing) are generated, so a scheduled run spends
 * nothing when all is current; `documents` names outputs to generate regardless; a file edited by
 * hand is never overwritten without `force`. A later step commits the files or opens a pull request.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import type { ComplianceApi } from '../../api/clientTypes.js';
import type { DownloadFormat } from '../../api/schemas/common.js';
import { FORMATS } from '../../api/schemas/common.js';
import {
  chargedStep,
  chargedStepSentence,
  checkFrameworkUpdates,
  detectDrift,
  driftInputPaths,
  generationCalls,
  MANIFEST_PATH,
  priceOf,
  planGeneration,
  resolveFrameworkSlug,
  runGeneration,
  tableCell,
  type Config,
  type DriftResult,
  type GenerationPlan,
  type GenerationRun,
} from '../../review/index.js';
import { readManifest, readOptionalRepoFiles, writeManifest, writeRepoFile } from '../../review/node/index.js';
import { loadRepoConfig } from './repo.js';
import { booleanInput, InputError, listInput, numberInput } from './runtime/inputs.js';
import type { ActionDefinition } from './runtime/run.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';

export function formatsInput(): DownloadFormat[] | undefined {
  const formats = listInput('formats').map((format) => format.toLowerCase());
  for (const format of formats) {
    if (!(FORMATS as readonly string[]).includes(format)) throw new InputError('formats', `"${format}" is not a format (${FORMATS.join(', ')})`);
  }
  return formats.length ? [...new Set(formats as DownloadFormat[])] : undefined;
}

/** Drift of every generate target against the manifest, the files on disk and the framework updates. */
async function currentDrift(client: ComplianceApi, root: string, config: Config): Promise<DriftResult[]> {
  const { verifiedFrameworks } = await client.getCapabilities();
  const slugOf = new Map(config.generate.map((target) => [target.framework, resolveFrameworkSlug(target.framework, verifiedFrameworks)]));
  const updates = await checkFrameworkUpdates(client, [...new Set(slugOf.values())], undefined);
  const latest = new Map(updates.map((entry) => [entry.slug, entry.latestUpdate]));
  const manifest = await readManifest(root);
  const files = await readOptionalRepoFiles(root, driftInputPaths(config.generate));
  return detectDrift({
    manifest,
    targets: config.generate,
    files,
    frameworkUpdatedAt: Object.fromEntries(config.generate.map((target) => [target.framework, latest.get(slugOf.get(target.framework) ?? '')])),
  }).documents;
}

interface WrittenGeneration {
  run: GenerationRun;
  paths: string[];
}

/** Generates the planned documents and writes them and the manifest into the repository. */
export async function generateInto(client: ComplianceApi, root: string, plan: GenerationPlan, formats: DownloadFormat[] | undefined): Promise<WrittenGeneration> {
  const manifest = await readManifest(root);
  const run = await runGeneration(client, plan.generate, {
    manifest,
    now: new Date().toISOString(),
    ...(formats ? { formats } : {}),
    onProgress: ({ output, status }) => log.info(`${output}: ${status}`),
  });
  const paths: string[] = [];
  for (const file of run.files) {
    await writeRepoFile(root, file.path, file.data);
    paths.push(file.path);
  }
  if (run.files.length > 0) {
    await writeManifest(root, run.manifest);
    paths.push(MANIFEST_PATH);
  }
  return { run, paths };
}

/** Live-price tokens of the documents a run generated: a failed generation is not charged. */
export function generatedLiveTokens(written: WrittenGeneration, prices: Readonly<Record<string, number>>): number {
  return written.run.results.filter((result) => result.status === 'generated').length * (priceOf('generateDocument', prices) ?? 0);
}

/** Why nothing was generated, when so: a dry run, a refusal over the cap or balance, or regeneration not asked for. */
type GenerationWithheld = 'dry-run' | 'refused' | 'not-asked';

const WITHHELD: Record<GenerationWithheld, { heading: string; outcome: string }> = {
  'dry-run': { heading: ' (dry run: nothing generated)', outcome: 'would generate' },
  refused: { heading: ' (refused before spending anything: nothing generated)', outcome: 'not generated (refused)' },
  'not-asked': { heading: ' (not regenerated: regenerate is false)', outcome: 'drifted, not regenerated' },
};

export function renderGenerationMarkdown(drift: readonly DriftResult[], plan: GenerationPlan, written: WrittenGeneration | undefined, withheld: GenerationWithheld | undefined): string {
  const why = withheld ? WITHHELD[withheld] : undefined;
  const lines = [`## Generated documents${why?.heading ?? ''}`, '', '| Document | State | Why | Result |', '|---|---|---|---|'];
  for (const document of drift) {
    const planned = plan.generate.includes(document);
    const result = written?.run.results.find((entry) => entry.output === document.output);
    const skipped = plan.skipped.find((entry) => entry.output === document.output);
    const outcome = result
      ? result.status === 'generated' ? '✅ generated' : `❌ ${tableCell(result.error?.message ?? result.status)}`
      : planned ? (why?.outcome ?? '—') : tableCell(skipped?.reason ?? 'skipped');
    lines.push(`| \`${tableCell(document.output)}\` | ${document.status} | ${document.reasons.join(', ') || '—'} | ${outcome} |`);
  }
  for (const skipped of plan.skipped.filter((entry) => !drift.some((document) => document.output === entry.output))) {
    lines.push(`| \`${tableCell(skipped.output)}\` | — | — | ${tableCell(skipped.reason)} |`);
  }
  return `${lines.join('\n')}\n`;
}

export const generateAction: ActionDefinition = {
  name: 'generate',
  async run({ apiKey }) {
    const repo = await loadRepoConfig();
    if (repo.config.generate.length === 0) {
      throw new InputError('config', `${repo.path} has no generate entries`, 'Add documents to generate under `generate:` (type, framework, output, formats).');
    }
    const only = listInput('documents');
    const force = booleanInput('force', false);
    const dryRun = booleanInput('dry-run', false);
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const formats = formatsInput();
    const client = createClient(apiKey, 'generate');

    const drift = await currentDrift(client, repo.root, repo.config);
    const plan = planGeneration(drift, { ...(only.length ? { only } : {}), force });
    const step = await chargedStep(
      client,
      [generationCalls(plan.generate.length)],
      { ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun, capLabel: 'max-tokens', settle: (written, charged) => generatedLiveTokens(written, charged.prices) },
      () => generateInto(client, repo.root, plan, formats),
    );
    core.setOutput('planned', JSON.stringify(plan.generate.map((document) => document.output)));
    if (step.status !== 'completed') {
      core.setOutput('paths', '[]');
      core.setOutput('generated', '0');
      core.setOutput('tokens-spent', '0');
      // A dry run never fails the step: what the cap would refuse is said under its table.
      appendSummary(`${renderGenerationMarkdown(drift, plan, undefined, step.status)}\n${chargedStepSentence(step)}\n`);
      if (step.status === 'refused') throw step.refusal;
      return;
    }
    const written = step.value;
    appendSummary(renderGenerationMarkdown(drift, plan, written, undefined));
    const generated = written.run.results.filter((result) => result.status === 'generated');
    core.setOutput('paths', JSON.stringify(written.paths));
    core.setOutput('generated', String(generated.length));
    core.setOutput('tokens-spent', String(step.tokensSpent));
    const failed = written.run.results.filter((result) => result.status !== 'generated');
    if (failed.length > 0) log.setFailed(`generation failed for ${failed.map((result) => `${result.output} (${result.error?.message ?? result.status})`).join('; ')}`);
  },
};
