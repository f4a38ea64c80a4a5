import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { jobLocator, locatorValue, versioned } from '../../helpers/locators.js';
import { asData, jsonItems } from '../../helpers/utils.js';

const jobIdText: INodeProperties = {
  displayName: 'Job ID',
  name: 'jobId',
  type: 'string',
  default: '',
  required: true,
  placeholder: 'e.g. 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a',
  description: 'The ID of the job, as returned by Generate, Map, Ingest or Refresh',
};

/** Job ID: text in version 1, a resource locator with UUID validation from version 2. */
export const jobIdProperties = versioned(jobIdText, jobLocator);

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['get'] } }, jobIdProperties);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const jobId = locatorValue.call(this, 'jobId', itemIndex, 'Job ID') ?? '';
  return jsonItems(asData(await client.getJob({ jobId })), itemIndex);
}
