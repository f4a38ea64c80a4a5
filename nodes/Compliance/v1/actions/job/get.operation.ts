import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';
import type { ComplianceClient } from '../../../../../api/client.js';
import { asData, jsonItems, text } from '../../helpers/utils.js';

export const jobIdProperty: INodeProperties = {
  displayName: 'Job ID',
  name: 'jobId',
  type: 'string',
  default: '',
  required: true,
  placeholder: 'e.g. 3f2b8c1e-8d1a-4c3e-9a57-1f0e2d3c4b5a',
  description: 'The ID of the job, as returned by Generate, Map, Ingest or Refresh',
};

export const description = updateDisplayOptions({ show: { resource: ['job'], operation: ['get'] } }, [jobIdProperty]);

export async function execute(this: IExecuteFunctions, itemIndex: number, client: ComplianceClient): Promise<INodeExecutionData[]> {
  const jobId = text(this.getNodeParameter('jobId', itemIndex), 'Job ID') ?? '';
  return jsonItems(asData(await client.getJob({ jobId })), itemIndex);
}
