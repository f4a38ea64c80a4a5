/**
 * actions/sync: keep the library in step with the repository's documents, sending only what
 * changed. New files are ingested, changed ones refreshed, unchanged ones left alone (no tokens);
 * documents removed from the repository are deleted only with `delete-removed`. The plan is priced
 * and checked against `max-tokens` and the balance before anything is spent; `dry-run` stops there.
 */
import * as core from '@actions/core';
import { log } from './runtime/log.js';
import { listAllLibraryDocuments } from '../../api/library.js';
import {
  assertBudget,
  configSchema,
  formatTokens,
  planSpend,
  renderSyncMarkdown,
  repositoryTag,
  resolveSyncPlan,
  runSync,
  syncCalls,
  type DocumentGroup,
  type SyncRunResult,
} from '../../review/index.js';
import { currentRepository, repositoryName, workspaceRoot } from './github/context.js';
import { configExists, loadRepoConfig, readDocuments } from './repo.js';
import { booleanInput, InputError, listInput, numberInput, textInput } from './runtime/inputs.js';
import { refuseLibraryWriteInPullRequest, type ActionDefinition } from './runtime/run.js';
import { createClient } from './runtime/service.js';
import { appendSummary } from './runtime/summary.js';

/** The document groups: from the `paths` input (with category and tags) or compliance.yml. */
async function documentGroups(root: string): Promise<{ groups: DocumentGroup[]; repository: string | undefined }> {
  const paths = listInput('paths');
  const hasConfig = await configExists(root);
  const config = hasConfig ? (await loadRepoConfig(root)).config : undefined;
  if (paths.length === 0) {
    if (!config) throw new InputError('paths', 'is empty and there is no compliance.yml', 'Give paths (globs, one per line) or add compliance.yml with documents.');
    return { groups: config.documents, repository: config.repository };
  }
  const parsed = configSchema.shape.documents.safeParse([{ paths, category: textInput('category'), tags: listInput('tags') }]);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[1] ?? 'paths');
    throw new InputError(field, issue?.message ?? 'is invalid');
  }
  return { groups: parsed.data, repository: config?.repository };
}

function counts(run: SyncRunResult): Record<string, number> {
  const count = (outcome: string) => run.results.filter((result) => result.outcome === outcome).length;
  return {
    ingested: count('ingested'),
    refreshed: count('refreshed'),
    deleted: count('deleted'),
    unchanged: run.results.filter((result) => result.kind === 'unchanged').length,
    kept: count('kept'),
    // `skipped` is the no-API-key output every action shares.
    'skipped-documents': count('skipped'),
    failed: count('failed') + count('not-attempted'),
    planned: count('planned'),
  };
}

export const syncAction: ActionDefinition = {
  name: 'sync',
  async run({ apiKey }) {
    const root = workspaceRoot();
    const { groups, repository: configured } = await documentGroups(root);
    const deleteRemoved = booleanInput('delete-removed', false);
    const dryRun = booleanInput('dry-run', false);
    if (!dryRun) refuseLibraryWriteInPullRequest('sync', 'Run sync on pushes to the default branch (templates/github/compliance-library-sync.yml); in a pull request use map, which prices the merge without writing, or dry-run: true.');
    const maxTokens = numberInput('max-tokens', { min: 0, integer: true });
    const repository = configured ?? repositoryName(currentRepository());
    const client = createClient(apiKey, 'sync');

    const { mode } = await client.ping();
    const billing = await client.getBilling();
    const files = await readDocuments(root, groups);
    const library = await listAllLibraryDocuments(client);
    const plan = await resolveSyncPlan(client, { files, library, repoTag: repositoryTag(repository), groups, deleteRemoved, prices: billing.prices });
    const spend = await planSpend(client, syncCalls(plan), { mode, billing, ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun });
    core.setOutput('planned-tokens', String(plan.totalTokens));
    if (!spend.budget.allowed) {
      const preview = await runSync(client, plan, { mode, dryRun: true });
      appendSummary(`${renderSyncMarkdown(preview, 'Library sync: refused, nothing sent (the plan it refused)')}\n**Refused before spending anything:** ${spend.budget.reasons.join('; ')}.\n`);
      assertBudget(spend.budget, 'max-tokens');
    }

    log.info(`Syncing ${files.length} document${files.length === 1 ? '' : 's'} into the library as ${repositoryTag(repository)}${dryRun ? ' (dry run)' : ''}: ${plan.counts.new} new, ${plan.counts.changed} changed, ${plan.counts.unchanged} unchanged, ${plan.counts.removed} removed.`);
    const run = await runSync(client, plan, {
      mode,
      dryRun,
      onProgress: ({ done, total, result }) => log.info(`${done}/${total} ${result.path || result.documentId || ''}: ${result.outcome} (${result.message})`),
    });
    const planned = `Planned at live prices: ${formatTokens(plan.totalTokens)}${maxTokens !== undefined ? `; cap ${formatTokens(maxTokens)}` : ''}.`;
    appendSummary(`${renderSyncMarkdown(run)}\n${planned}\n`);

    const tally = counts(run);
    for (const [name, value] of Object.entries(tally)) core.setOutput(name, String(value));
    core.setOutput('tokens-spent', String(run.tokensSpent));
    core.setOutput(
      'changed-paths',
      JSON.stringify(run.results.filter((result) => ['ingested', 'refreshed', 'deleted', 'planned'].includes(result.outcome)).map((result) => result.path)),
    );
    if (!run.complete) {
      const failures = run.results.filter((result) => result.outcome === 'failed' || result.outcome === 'not-attempted');
      log.setFailed(
        `sync did not finish: ${failures.length} document${failures.length === 1 ? '' : 's'} not synced (${failures.slice(0, 5).map((result) => `${result.path}: ${result.message}`).join('; ')})${run.stoppedBecause ? `; stopped: ${run.stoppedBecause}` : ''}`,
      );
    }
  },
};
