/**
 * Review → Map Policy Set: the input items (a set of policy documents) mapped against a verified
 * framework by review/'s runMapping, and judged by its gate (evaluateGate), as the CLI and the
 * review action do. One item: the verdict (passed, coverage, threshold, reasons) with the gaps,
 * or one item per gap, each with the verdict beside it.
 */
import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { evaluateGate } from '../../../../../review/gate.js';
import { runMapping } from '../../../../../review/mapping.js';
import { frameworkLocator, locatorValue } from '../../helpers/locators.js';
import { asData } from '../../helpers/utils.js';
import { documentInputProperties, documentsOf } from './documentInput.js';

const properties: INodeProperties[] = [
  { ...frameworkLocator({ description: 'The verified framework to map the set against' }), hint: 'Only verified frameworks can be mapped against' },
  ...documentInputProperties,
  {
    displayName: 'Mapping',
    name: 'mappingMode',
    type: 'options',
    options: [
      { name: 'Combined', value: 'combined', description: 'The documents as one policy set: one mapping job, one price' },
      { name: 'Per Document', value: 'per-document', description: 'One mapping job per document, merged: a control takes its best status' },
    ],
    default: 'combined',
  },
  {
    displayName: 'Coverage Threshold (%)',
    name: 'threshold',
    type: 'number',
    typeOptions: { minValue: 0, maxValue: 100 },
    default: 80,
    description: 'The gate passes when coverage (covered 1, partial ½) reaches this',
  },
  {
    displayName: 'Split Gaps Into Items',
    name: 'splitGaps',
    type: 'boolean',
    default: false,
    description: 'Whether to output one item per gap (each with the verdict) instead of one item with the verdict and all gaps',
  },
];

export const description = updateDisplayOptions({ show: { resource: ['review'], operation: ['mapPolicySet'] } }, properties);

export async function executeOnce(this: IExecuteFunctions, items: INodeExecutionData[], client: ComplianceClient): Promise<INodeExecutionData[]> {
  const framework = locatorValue.call(this, 'framework', 0, 'Framework') ?? '';
  const { files } = await documentsOf(this, items, 'Map Policy Set');
  const mode = this.getNodeParameter('mappingMode', 0, 'combined') as 'combined' | 'per-document';
  const threshold = this.getNodeParameter('threshold', 0, 80) as number;
  const signal = this.getExecutionCancelSignal?.();
  const run = await runMapping(client, { framework, files, mode, ...(signal ? { signal } : {}) });
  const gate = evaluateGate(run.reports, { framework, threshold, waivers: [], today: new Date().toISOString().slice(0, 10), failOn: 'coverage' });
  const verdict: IDataObject = {
    passed: gate.passed,
    coverage: gate.coverage,
    threshold: gate.threshold,
    reasons: gate.reasons,
    warnings: gate.warnings,
    framework: asData(gate.framework),
    summary: asData(gate.summary),
    jobIds: gate.jobIds,
  };
  const paired = items.map((_, item) => ({ item }));
  if (this.getNodeParameter('splitGaps', 0, false) as boolean) {
    return gate.gaps.map((gap) => ({ json: { ...asData(gap), gate: verdict }, pairedItem: paired }));
  }
  return [{ json: { ...verdict, gaps: gate.gaps as unknown as IDataObject[], controls: gate.controls as unknown as IDataObject[] }, pairedItem: paired }];
}
