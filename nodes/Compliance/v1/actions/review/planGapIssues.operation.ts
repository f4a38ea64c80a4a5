/**
 * Review → Plan Gap Issues: the gaps of Map Policy Set's verdicts (the input items) against the
 * issues a tracker already holds, by review/'s planGapIssues (the CLI's and the gap-issues action's):
 * one item per action (create, update, close) for any issue tracker node to carry out. Each issue
 * body ends with a marker naming its gap, which is how later runs find it again. A gap waived in
 * Map Policy Set (Waivers) never opens or reopens an issue; a refused, dry-run or not-evaluated verdict plans nothing.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';
import type { GateResult } from '../../../../../review/gate.js';
import { gapMarker, planGapIssues, type ExistingIssue } from '../../../../../review/gapIssues.js';
import { gapKey } from '../../../../../review/keys.js';
import { jsonList, tagsOf, text } from '../../helpers/utils.js';

const properties: INodeProperties[] = [
  {
    displayName: 'Existing Issues',
    name: 'existingIssues',
    type: 'json',
    default: '[]',
    hint: "For example {{ $('Get Issues').all().map(item => item.json) }}",
    description:
      "The tracker's issues with number, title, body, state (open or closed) and labels. Only issues whose body carries a gap marker are considered.",
  },
  {
    displayName: 'Options',
    name: 'options',
    type: 'collection',
    placeholder: 'Add Option',
    default: {},
    options: [
      { displayName: 'Assignees', name: 'assignees', type: 'string', default: '', description: 'Comma-separated logins for new issues' },
      { displayName: 'Close Resolved', name: 'closeResolved', type: 'boolean', default: true, description: 'Whether to close open issues whose gap the latest mapping no longer reports' },
      {
        displayName: 'Include Unchanged and Deferred',
        name: 'includeUnchangedAndDeferred',
        type: 'boolean',
        default: false,
        description:
          'Whether to also output gaps that need nothing (action unchanged, with the issue number) and gaps over Max New Issues (action deferred), e.g. for a summary. A Switch on action passes them by.',
      },
      { displayName: 'Labels', name: 'labels', type: 'string', default: 'compliance-gap', description: 'Comma-separated labels for new issues' },
      { displayName: 'Max New Issues', name: 'maxNewPerRun', type: 'number', typeOptions: { minValue: 0 }, default: 10, description: 'Max number of issues to create in one run; the rest wait for the next' },
      { displayName: 'Title Prefix', name: 'titlePrefix', type: 'string', default: '[compliance]' },
    ],
  },
];

export const description = updateDisplayOptions({ show: { resource: ['review'], operation: ['planGapIssues'] } }, properties);

// The review-loop template before the Review resource ended its issues with
// <!-- compliance-gap:<framework>:<control> -->; read as today's key (<framework>/<control>) so
// those issues are updated in place (their marker rewritten) or closed, never opened twice.
const LEGACY_MARKER = /<!-- compliance-gap:([^\s/:]+):(\S+) -->(\s*)$/;

function withCurrentMarker(issue: ExistingIssue): ExistingIssue {
  if (typeof issue?.body !== 'string' || !LEGACY_MARKER.test(issue.body)) return issue;
  const body = issue.body.replace(LEGACY_MARKER, (_, framework: string, control: string, tail: string) => `${gapMarker(gapKey(framework, control))}${tail}`);
  return { ...issue, body };
}

/**
 * Map Policy Set's statuses of a verdict that mapped nothing (review/verdict.ts): refused, a dry run,
 * or a set the service could not map. None says anything about its gaps: no issue is closed on it.
 */
const UNMAPPED = new Set(['refused', 'skipped', 'not-evaluated']);

function list(value: unknown, label: string): string[] {
  return (tagsOf(value, label) ?? '').split(',').map((entry) => entry.trim()).filter(Boolean);
}

export async function executeOnce(this: IExecuteFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
  const verdicts = items.map((item) => item.json as unknown as GateResult & { status?: string });
  const unusable = verdicts.findIndex((result) => !Array.isArray(result.gaps) || (typeof result.framework?.key !== 'string' && !UNMAPPED.has(result.status ?? '')));
  if (unusable >= 0) {
    throw new NodeOperationError(this.getNode(), `Item ${unusable} in Plan Gap Issues is not a Map Policy Set verdict`, {
      itemIndex: unusable,
      description: 'Connect Review → Map Policy Set (Split Gaps Into Items off): each input item must carry its framework and gaps.',
    });
  }
  // A refused, dry-run or not-evaluated verdict mapped nothing: it says nothing about its gaps, so it plans nothing.
  const results = verdicts.filter((result) => !UNMAPPED.has(result.status ?? ''));
  const existing = jsonList(this, this.getNodeParameter('existingIssues', 0, '[]'), 'Existing Issues in Plan Gap Issues', "{{ $('Get Issues').all().map(item => item.json) }}");
  const options = this.getNodeParameter('options', 0, {}) as IDataObject;
  const plan = planGapIssues(results, (existing as ExistingIssue[]).map(withCurrentMarker), {
    labels: options.labels === undefined ? ['compliance-gap'] : list(options.labels, 'Labels'),
    assignees: list(options.assignees, 'Assignees').map((login) => login.replace(/^@/, '')),
    titlePrefix: text(options.titlePrefix, 'Title Prefix') ?? '[compliance]',
    closeResolved: options.closeResolved !== false,
    maxNewPerRun: typeof options.maxNewPerRun === 'number' ? options.maxNewPerRun : 10,
  });
  const paired = items.map((_, item) => ({ item }));
  const actions: IDataObject[] = [
    ...plan.create.map((draft) => ({ action: 'create', ...draft })),
    ...plan.update.map((draft) => ({ action: 'update', ...draft })),
    ...plan.close.map((close) => ({ action: 'close', ...close })),
    ...(options.includeUnchangedAndDeferred === true
      ? [...plan.unchanged.map((entry) => ({ action: 'unchanged', ...entry })), ...plan.deferred.map((draft) => ({ action: 'deferred', ...draft }))]
      : []),
  ];
  return actions.map((json) => ({ json, pairedItem: paired }));
}
