import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { jsonItems, text, waitAsConfigured, waitProperties } from '../../helpers/utils.js';
import { jobIdProperty } from './get.operation.js';

const displayOptions = { show: { resource: ['job'], operation: ['wait'] } };

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, [jobIdProperty]),
  ...waitProperties(displayOptions, false),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const jobId = text(this.getNodeParameter('jobId', itemIndex), 'Job ID') ?? '';
  return jsonItems(await waitAsConfigured.call(this, itemIndex, client, jobId), itemIndex);
}
