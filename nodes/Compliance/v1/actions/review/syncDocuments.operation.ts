/**
 * Review → Sync Documents: every input item is one document of a set (a path and its text or a
 * file); the library is brought in step with the set by the review loop's own functions (the CLI
 * and the sync action run the same): new documents ingested, changed ones refreshed, unchanged ones
 * left alone at no cost, documents that left the set deleted only when asked. The plan is priced
 * and checked against the token budget and the balance before anything is spent.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { chargedStep, chargedStepSentence } from '../../../../../review/chargedStep.js';
import { listAllLibraryDocuments, resolveSyncPlan } from '../../../../../review/library.js';
import { runSync } from '../../../../../review/syncRun.js';
import { syncCalls } from '../../../../../review/syncPlan.js';
import { refusalError } from '../../helpers/spend.js';
import { tagsOf, text } from '../../helpers/utils.js';
import { documentInputProperties, documentsOf } from './documentInput.js';

const displayOptions = { show: { resource: ['review'], operation: ['syncDocuments'] } };

const properties: INodeProperties[] = [
  {
    displayName: 'Document Set',
    name: 'documentSet',
    type: 'string',
    default: '',
    required: true,
    placeholder: 'e.g. acme/policies',
    description:
      'A name for this set of documents (for example the repository they live in). Its documents are tagged repo:&lt;name&gt;, and a sync only ever changes documents of its own set.',
  },
  ...documentInputProperties,
  {
    displayName: 'Dry Run',
    name: 'dryRun',
    type: 'boolean',
    default: false,
    description: 'Whether to only plan and price the sync, changing nothing',
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      { displayName: 'Category', name: 'category', type: 'string', default: '', description: 'Category for newly ingested documents' },
      {
        displayName: 'Delete Documents That Left the Set',
        name: 'deleteRemoved',
        type: 'boolean',
        default: false,
        description: 'Whether to delete library documents of this set whose path is no longer among the items (free). Off: they are kept and listed.',
      },
      {
        displayName: 'Max Tokens',
        name: 'maxTokens',
        type: 'number',
        typeOptions: { minValue: 0 },
        default: 0,
        description: 'Refuse the whole sync, before spending anything, when its plan costs more than this at live prices. 0: no cap (the balance still applies).',
      },
      { displayName: 'Tags', name: 'tags', type: 'string', default: '', description: 'Comma-separated tags for newly ingested documents' },
    ],
  },
];

export const description = updateDisplayOptions(displayOptions, properties);

interface Options {
  category?: string;
  deleteRemoved?: boolean;
  maxTokens?: number;
  tags?: string;
}

export async function executeOnce(this: IExecuteFunctions, items: INodeExecutionData[], client: ComplianceClient): Promise<INodeExecutionData[]> {
  const documentSet = text(this.getNodeParameter('documentSet', 0), 'Document Set');
  if (!documentSet) {
    throw new NodeOperationError(this.getNode(), 'Document Set in Sync Documents is empty', { description: 'Name the set, for example acme/policies.' });
  }
  const dryRun = this.getNodeParameter('dryRun', 0, false) as boolean;
  const options = this.getNodeParameter('options', 0, {}) as Options;
  const { files, itemOfPath } = await documentsOf(this, items, 'Sync Documents');
  const category = text(options.category, 'Category');
  const group = { paths: ['**'], tags: tagsOf(options.tags)?.split(',').map((tag) => tag.trim()).filter(Boolean) ?? [], ...(category ? { category } : {}) };

  const { mode } = await client.ping();
  const billing = await client.getBilling();
  const library = await listAllLibraryDocuments(client);
  const plan = await resolveSyncPlan(client, {
    files,
    library,
    repoTag: `repo:${documentSet.toLowerCase()}`,
    groups: [group],
    deleteRemoved: options.deleteRemoved === true,
    prices: billing.prices,
  });
  const maxTokens = options.maxTokens ? options.maxTokens : undefined;
  const signal = this.getExecutionCancelSignal?.();
  const step = await chargedStep(
    client,
    syncCalls(plan),
    { mode, billing, ...(maxTokens !== undefined ? { maxTokens } : {}), dryRun, capLabel: 'Max Tokens', ...(signal ? { signal } : {}), settle: (done) => done.pricedTokens },
    () => runSync(client, plan, { mode, ...(signal ? { signal } : {}) }),
  );
  if (step.status === 'refused') {
    throw refusalError(this, 'Sync Documents', step.budget, { plan: `The plan costs ${plan.totalTokens.toLocaleString('en-US')} tokens at live prices (${plan.counts.new} new, ${plan.counts.changed} changed).` });
  }
  // A dry run is never an error: its items are the plan, each saying what the cap would refuse.
  const run = step.value ?? (await runSync(client, plan, { mode, dryRun: true }));
  const dryRunNote = step.status === 'dry-run' ? { reasons: [chargedStepSentence(step)] } : {};
  const planned = new Map(plan.items.map((item) => [item.path || item.kind, item.tokens]));
  return run.results.map((result) => {
    const json: IDataObject = {
      path: result.path,
      kind: result.kind,
      outcome: result.outcome,
      documentId: result.documentId ?? null,
      // review/ words this one for the CLI (--delete-removed); here it is an option.
      message:
        result.kind === 'removed' && result.outcome === 'kept'
          ? 'no longer in the set; kept (Options → Delete Documents That Left the Set deletes it)'
          : result.message,
      plannedTokens: planned.get(result.path) ?? 0,
      tokensSpent: result.tokensSpent,
      dryRun: run.dryRun,
      mode: run.mode,
      planTotalTokens: plan.totalTokens,
      ...(result.version !== undefined ? { version: result.version } : {}),
      ...(result.error ? { error: result.error.message, code: result.error.code } : {}),
      ...(run.stoppedBecause ? { stoppedBecause: run.stoppedBecause } : {}),
      ...dryRunNote,
    };
    return { json, pairedItem: { item: itemOfPath.get(result.path) ?? 0 } };
  });
}
