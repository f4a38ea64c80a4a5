import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { locatorValue } from '../../helpers/locators.js';
import { jsonItems } from '../../helpers/utils.js';
import { waitAsConfigured, waitProperties } from '../../helpers/jobs.js';
import { jobIdProperties } from './get.operation.js';

const displayOptions = { show: { resource: ['job'], operation: ['wait'] } };

export const description: INodeProperties[] = [
  ...updateDisplayOptions(displayOptions, jobIdProperties),
  ...waitProperties(displayOptions, false),
];

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const jobId = locatorValue.call(this, 'jobId', itemIndex, 'Job ID') ?? '';
  return jsonItems(await waitAsConfigured.call(this, itemIndex, client, jobId), itemIndex);
}
